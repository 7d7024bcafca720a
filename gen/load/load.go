// Package load reads spec/ with cuelang.org/go and builds the plain IR.
// CUE does the validation (closed definitions, bounds, typos); this package
// only walks concrete values in declaration order.
package load

import (
	"fmt"
	"path/filepath"
	"sort"

	"cuelang.org/go/cue"
	"cuelang.org/go/cue/cuecontext"
	"cuelang.org/go/cue/load"

	"github.com/ghostlight-dev/ghostlight/gen/ir"
)

// Dir loads the CUE package in dir and returns its IR. overlay replaces or
// adds files (name relative to dir → source); tests use it to change one value.
func Dir(dir string, overlay map[string]string) (*ir.Spec, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	cfg := &load.Config{Dir: abs}
	if len(overlay) > 0 {
		cfg.Overlay = map[string]load.Source{}
		for name, src := range overlay {
			cfg.Overlay[filepath.Join(abs, name)] = load.FromString(src)
		}
	}
	insts := load.Instances([]string{"."}, cfg)
	if len(insts) != 1 {
		return nil, fmt.Errorf("load %s: want one CUE instance, got %d", dir, len(insts))
	}
	if err := insts[0].Err; err != nil {
		return nil, fmt.Errorf("load %s: %w", dir, err)
	}
	v := cuecontext.New().BuildInstance(insts[0])
	if err := v.Validate(cue.Concrete(true)); err != nil {
		return nil, fmt.Errorf("spec %s: %w", dir, err)
	}
	return build(v)
}

type reader struct {
	spec   *ir.Spec
	bounds map[string]*ir.Bound
	err    error
}

func build(v cue.Value) (*ir.Spec, error) {
	r := &reader{spec: &ir.Spec{HandlePrefixes: map[string]string{}}, bounds: map[string]*ir.Bound{}}
	r.readBounds(v.LookupPath(cue.ParsePath("bounds")))
	eachField(v.LookupPath(cue.ParsePath("enums")), func(name string, e cue.Value) {
		r.spec.Enums = append(r.spec.Enums, &ir.Enum{Name: name, Values: r.strings(e)})
	})
	r.spec.CredentialAutocomplete = r.strings(v.LookupPath(cue.ParsePath("credential_autocomplete")))
	eachField(v.LookupPath(cue.ParsePath("scroll_amount_permille")), func(name string, e cue.Value) {
		r.spec.ScrollAmountPermille = append(r.spec.ScrollAmountPermille, [2]any{name, r.int(e)})
	})
	rs := v.LookupPath(cue.ParsePath("reason_status"))
	for _, reason := range r.spec.EnumOf("reason").Values {
		st := rs.LookupPath(cue.MakePath(cue.Str(reason)))
		if !st.Exists() {
			r.fail(rs, fmt.Errorf("reason %q has no status", reason))
			continue
		}
		r.spec.ReasonStatus = append(r.spec.ReasonStatus, [2]string{reason, r.str(st)})
	}
	eachField(v.LookupPath(cue.ParsePath("handle_prefix")), func(name string, e cue.Value) {
		r.spec.HandlePrefixes[name] = r.str(e)
	})
	eachField(v.LookupPath(cue.ParsePath("named_keys")), func(name string, e cue.Value) {
		k := &ir.NamedKey{Name: name, Code: r.str(e.LookupPath(cue.ParsePath("code"))), KeyCode: int(r.int(e.LookupPath(cue.ParsePath("key_code"))))}
		if t := e.LookupPath(cue.ParsePath("text")); t.Exists() {
			k.Text = r.str(t)
		}
		r.spec.NamedKeys = append(r.spec.NamedKeys, k)
	})
	common := map[string]*ir.Field{}
	eachField(v.LookupPath(cue.ParsePath("common")), func(name string, e cue.Value) {
		f := r.field(name, e)
		common[name] = f
		r.spec.Common = append(r.spec.Common, f)
	})
	r.spec.Envelope = r.fields(v.LookupPath(cue.ParsePath("envelope")))
	r.spec.RefusalFacts = r.fields(v.LookupPath(cue.ParsePath("refusal_facts")))
	eachField(v.LookupPath(cue.ParsePath("tools")), func(name string, e cue.Value) {
		r.spec.Tools = append(r.spec.Tools, r.tool(name, e, common))
	})
	sort.Slice(r.spec.Tools, func(i, j int) bool { return r.spec.Tools[i].Name < r.spec.Tools[j].Name })
	if r.err != nil {
		return nil, r.err
	}
	return r.spec, nil
}

func eachField(v cue.Value, fn func(string, cue.Value)) {
	it, err := v.Fields()
	if err != nil {
		return
	}
	for it.Next() {
		fn(it.Selector().Unquoted(), it.Value())
	}
}

func (r *reader) fail(v cue.Value, err error) {
	if r.err == nil && err != nil {
		r.err = fmt.Errorf("%s: %w", v.Path(), err)
	}
}

func (r *reader) str(v cue.Value) string {
	s, err := v.String()
	r.fail(v, err)
	return s
}

func (r *reader) int(v cue.Value) int64 {
	n, err := v.Int64()
	r.fail(v, err)
	return n
}

func (r *reader) bool(v cue.Value) bool {
	b, err := v.Bool()
	r.fail(v, err)
	return b
}

func (r *reader) strings(v cue.Value) []string {
	if !v.Exists() {
		return nil
	}
	it, err := v.List()
	r.fail(v, err)
	var out []string
	for it.Next() {
		out = append(out, r.str(it.Value()))
	}
	return out
}

func (r *reader) opt(v cue.Value, path string) (cue.Value, bool) {
	x := v.LookupPath(cue.ParsePath(path))
	return x, x.Exists()
}

func (r *reader) readBounds(v cue.Value) {
	eachField(v, func(name string, e cue.Value) {
		b := &ir.Bound{Name: name, Doc: r.str(e.LookupPath(cue.ParsePath("doc"))), Advertised: r.bool(e.LookupPath(cue.ParsePath("advertised")))}
		if u, ok := r.opt(e, "unit"); ok {
			b.Unit = r.str(u)
		}
		for _, p := range []struct {
			key string
			dst **int64
		}{{"min", &b.Min}, {"max", &b.Max}, {"default", &b.Def}} {
			if x, ok := r.opt(e, p.key); ok {
				n := r.int(x)
				*p.dst = &n
			}
		}
		r.bounds[name] = b
		r.spec.Bounds = append(r.spec.Bounds, b)
	})
	sort.Slice(r.spec.Bounds, func(i, j int) bool { return r.spec.Bounds[i].Name < r.spec.Bounds[j].Name })
}

func (r *reader) fields(v cue.Value) []*ir.Field {
	var out []*ir.Field
	eachField(v, func(name string, e cue.Value) { out = append(out, r.field(name, e)) })
	return out
}

func (r *reader) field(name string, v cue.Value) *ir.Field {
	f := &ir.Field{Name: name}
	f.Type = r.str(v.LookupPath(cue.ParsePath("type")))
	f.Doc = r.str(v.LookupPath(cue.ParsePath("doc")))
	if x, ok := r.opt(v, "required"); ok {
		f.Required = r.bool(x)
	}
	if x, ok := r.opt(v, "always"); ok {
		f.Always = r.bool(x)
	}
	if x, ok := r.opt(v, "bound"); ok {
		bn := r.str(x)
		f.Bound = r.bounds[bn]
		if f.Bound == nil {
			r.fail(x, fmt.Errorf("unknown bound %q", bn))
		}
	}
	if x, ok := r.opt(v, "default"); ok {
		switch x.IncompleteKind() {
		case cue.BoolKind:
			b := r.bool(x)
			f.DefBool = &b
		default:
			s := r.str(x)
			f.DefStr = &s
		}
	}
	f.Enum = r.strings(v.LookupPath(cue.ParsePath("enum")))
	if x, ok := r.opt(v, "advertise_enum"); ok {
		f.EnumHidden = !r.bool(x)
	}
	if x, ok := r.opt(v, "true_only"); ok {
		f.TrueOnly = r.bool(x)
	}
	for _, p := range []struct {
		key string
		dst *string
	}{{"format", &f.Format}, {"handle", &f.Handle}, {"unique_by", &f.UniqueBy}, {"go_type", &f.GoType}, {"go_name", &f.GoName}} {
		if x, ok := r.opt(v, p.key); ok {
			*p.dst = r.str(x)
		}
	}
	if x, ok := r.opt(v, "unique"); ok {
		f.Unique = r.bool(x)
	}
	f.Kinds = r.strings(v.LookupPath(cue.ParsePath("kinds")))
	f.ExactlyOne = r.strings(v.LookupPath(cue.ParsePath("exactly_one")))
	if x, ok := r.opt(v, "items"); ok {
		f.Items = r.field("items", x)
	}
	if x, ok := r.opt(v, "fields"); ok {
		f.Fields = r.fields(x)
	}
	if x, ok := r.opt(v, "variants"); ok {
		vs := &ir.Variants{Key: r.str(x.LookupPath(cue.ParsePath("key")))}
		eachField(x.LookupPath(cue.ParsePath("cases")), func(n string, c cue.Value) {
			vc := &ir.Variant{Name: n, Tool: r.str(c.LookupPath(cue.ParsePath("tool"))), Doc: r.str(c.LookupPath(cue.ParsePath("doc")))}
			if w, ok := r.opt(c, "wrap"); ok {
				vc.Wrap = r.str(w)
			}
			vs.Cases = append(vs.Cases, vc)
		})
		f.Variants = vs
	}
	return f
}

func (r *reader) json(v cue.Value) []byte {
	b, err := v.MarshalJSON()
	r.fail(v, err)
	return b
}

func (r *reader) whenPresent(v cue.Value) []*ir.WhenPresent {
	if !v.Exists() {
		return nil
	}
	it, err := v.List()
	r.fail(v, err)
	var out []*ir.WhenPresent
	for it.Next() {
		e := it.Value()
		out = append(out, &ir.WhenPresent{
			Field: r.str(e.LookupPath(cue.ParsePath("field"))),
			Add:   r.strings(e.LookupPath(cue.ParsePath("add"))),
			Set:   r.strings(e.LookupPath(cue.ParsePath("set"))),
		})
	}
	return out
}

func (r *reader) tool(name string, v cue.Value, common map[string]*ir.Field) *ir.Tool {
	get := func(p string) cue.Value { return v.LookupPath(cue.ParsePath(p)) }
	t := &ir.Tool{
		Name:         r.str(get("name")),
		Title:        r.str(get("title")),
		Doc:          r.str(get("doc")),
		Capabilities: r.strings(get("capabilities")),
		Constraints:  r.strings(get("constraints")),
		WhenPresent:  r.whenPresent(get("when_present")),
		Composite:    r.bool(get("composite")),
		TakesTab:     r.bool(get("takes_tab")),
		TakesTimeout: r.bool(get("takes_timeout")),
		Example:      r.json(get("example")),
		Facts:        r.fields(get("facts")),
	}
	if t.Name != name {
		r.fail(v, fmt.Errorf("tool key %q names %q", name, t.Name))
	}
	a := get("annotations")
	t.Annotations = ir.Annotations{
		ReadOnly:    r.bool(a.LookupPath(cue.ParsePath("read_only"))),
		Destructive: r.bool(a.LookupPath(cue.ParsePath("destructive"))),
		Idempotent:  r.bool(a.LookupPath(cue.ParsePath("idempotent"))),
		OpenWorld:   r.bool(a.LookupPath(cue.ParsePath("open_world"))),
	}
	t.Inputs = r.fields(get("inputs"))
	add := func(n string) {
		if t.Input(n) == nil {
			t.Inputs = append(t.Inputs, common[n])
		}
	}
	if t.TakesTab {
		add("tab")
	}
	if t.TakesTimeout {
		add("timeout_ms")
	}
	add("restrict_hosts")
	add("restrict_capabilities")
	if x, ok := r.opt(v, "discriminator"); ok {
		t.Discriminator = r.str(x)
	}
	if it, err := get("branches").List(); err == nil {
		for it.Next() {
			t.Branches = append(t.Branches, r.branch(it.Value()))
		}
	}
	if it, err := get("conflicts").List(); err == nil {
		for it.Next() {
			e := it.Value()
			fs := r.strings(e.LookupPath(cue.ParsePath("fields")))
			c := &ir.Conflict{A: fs[0], B: fs[1], Doc: r.str(e.LookupPath(cue.ParsePath("doc")))}
			if x, ok := r.opt(e, "value"); ok {
				b := r.bool(x)
				c.Value = &b
			}
			t.Conflicts = append(t.Conflicts, c)
		}
	}
	if it, err := get("together").List(); err == nil {
		for it.Next() {
			t.Together = append(t.Together, r.strings(it.Value()))
		}
	}
	if it, err := get("empty_needs").List(); err == nil {
		for it.Next() {
			e := it.Value()
			t.EmptyNeeds = append(t.EmptyNeeds, &ir.EmptyNeeds{Field: r.str(e.LookupPath(cue.ParsePath("field"))), Needs: r.str(e.LookupPath(cue.ParsePath("needs")))})
		}
	}
	r.check(t)
	return t
}

func (r *reader) branch(v cue.Value) *ir.Branch {
	b := &ir.Branch{
		Name:        r.str(v.LookupPath(cue.ParsePath("name"))),
		Doc:         r.str(v.LookupPath(cue.ParsePath("doc"))),
		Required:    r.strings(v.LookupPath(cue.ParsePath("required"))),
		Allowed:     r.strings(v.LookupPath(cue.ParsePath("allowed"))),
		Constraints: r.strings(v.LookupPath(cue.ParsePath("constraints"))),
		WhenPresent: r.whenPresent(v.LookupPath(cue.ParsePath("when_present"))),
		Example:     r.json(v.LookupPath(cue.ParsePath("example"))),
	}
	if x, ok := r.opt(v, "when"); ok {
		b.When = r.str(x)
	}
	if x, ok := r.opt(v, "keys"); ok {
		b.Keys = r.strings(x)
		b.IsDefault = len(b.Keys) == 0
	}
	if x, ok := r.opt(v, "capabilities"); ok {
		b.Capabilities = r.strings(x)
		b.HasCaps = true
	}
	if x, ok := r.opt(v, "override"); ok {
		b.Override = r.fields(x)
	}
	return b
}

// check enforces what CUE cannot express across fields: every field a branch
// or conflict names exists.
func (r *reader) check(t *ir.Tool) {
	has := func(n string) {
		if t.Input(n) == nil {
			r.err = fmt.Errorf("tool %s: unknown field %q in a branch rule", t.Name, n)
		}
	}
	for _, b := range t.Branches {
		for _, l := range [][]string{b.Keys, b.Required, b.Allowed} {
			for _, n := range l {
				has(n)
			}
		}
		for _, o := range b.Override {
			has(o.Name)
		}
	}
	for _, c := range t.Conflicts {
		has(c.A)
		has(c.B)
	}
	for _, g := range t.Together {
		for _, n := range g {
			has(n)
		}
	}
	if t.Discriminator != "" {
		has(t.Discriminator)
	}
}

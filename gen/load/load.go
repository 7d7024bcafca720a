// Package load reads spec/ with cuelang.org/go and builds the typed IR.
// CUE does the validation (closed definitions, bounds, typos); this package
// walks concrete values in declaration order, resolves references (a
// field's enum is the enum its CUE value refers to, a variant's tool is that
// tool), computes every Go name once, and checks what CUE cannot say across
// declarations (a branch naming a field, a claim against its profile).
package load

import (
	"fmt"
	"path/filepath"
	"sort"
	"strings"

	"cuelang.org/go/cue"
	"cuelang.org/go/cue/cuecontext"
	"cuelang.org/go/cue/load"

	"github.com/ghostlight-dev/ghostlight/gen/ir"
	"github.com/ghostlight-dev/ghostlight/support"
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
	return build(v, abs, overlay)
}

type reader struct {
	spec    *ir.Spec
	dir     string            // the spec directory (claims read their profile file from it)
	overlay map[string]string // test overlays, also for non-CUE files
	bounds  map[string]*ir.Bound
	// enums by the CUE path that declares them ("enums.role",
	// "surfaces.operator.enums.readiness").
	enums    map[string]*ir.Enum
	surfaces map[string]*ir.Surface
	// variants whose tool is resolved once every tool is read.
	variants []pendingVariant
	rests    []pendingRest
	err      error
}

type pendingVariant struct {
	v    *ir.Variant
	tool string
}

func build(v cue.Value, dir string, overlay map[string]string) (*ir.Spec, error) {
	r := &reader{spec: &ir.Spec{HandlePrefixes: map[string]string{}}, dir: dir, overlay: overlay,
		bounds: map[string]*ir.Bound{}, enums: map[string]*ir.Enum{}, surfaces: map[string]*ir.Surface{}}
	r.readBounds(v.LookupPath(cue.ParsePath("bounds")))
	r.readSurfaces(v)
	if r.err != nil {
		return nil, r.err
	}
	core := r.spec.Core()
	eachField(v.LookupPath(cue.ParsePath("enums")), func(name string, e cue.Value) {
		r.namedEnum("enums."+name, name, e, core)
	})
	for _, s := range r.spec.Surfaces {
		p := "surfaces." + s.Name + ".enums"
		ev := v.LookupPath(cue.ParsePath(p))
		// A surface may declare its enums elsewhere (a top-level struct its
		// tools can name without a field of theirs shadowing "surfaces").
		alias := refPath(ev)
		eachField(ev, func(name string, e cue.Value) {
			en := r.namedEnum(p+"."+name, name, e, s)
			if alias != "" {
				r.enums[alias+"."+name] = en
			}
			s.Enums = append(s.Enums, en)
		})
	}
	r.checkRules()
	r.credentialClasses(v.LookupPath(cue.ParsePath("credential_classes")))
	eachField(v.LookupPath(cue.ParsePath("client_added_fields")), func(name string, _ cue.Value) {
		r.spec.ClientAdded = append(r.spec.ClientAdded, name)
	})
	eachField(v.LookupPath(cue.ParsePath("scroll_amount_permille")), func(name string, e cue.Value) {
		r.spec.ScrollAmountPermille = append(r.spec.ScrollAmountPermille, [2]any{name, r.int(e)})
	})
	rs := v.LookupPath(cue.ParsePath("reason_status"))
	for _, reason := range r.spec.EnumOf("reason").Strings() {
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
		f := r.field(name, e, "")
		common[name] = f
		r.spec.Common = append(r.spec.Common, f)
	})
	r.spec.Envelope = r.fields(v.LookupPath(cue.ParsePath("envelope")), "Envelope")
	r.spec.RefusalFacts = r.fields(v.LookupPath(cue.ParsePath("refusal_facts")), "Refusal")
	eachField(v.LookupPath(cue.ParsePath("texts")), func(name string, e cue.Value) {
		r.spec.Texts = append(r.spec.Texts, [2]string{name, r.str(e)})
	})
	eachField(v.LookupPath(cue.ParsePath("tools")), func(name string, e cue.Value) {
		if t := r.tool(name, e, common); t != nil {
			r.spec.Tools = append(r.spec.Tools, t)
		}
	})
	sort.Slice(r.spec.Tools, func(i, j int) bool { return r.spec.Tools[i].Name < r.spec.Tools[j].Name })
	for _, t := range r.spec.Tools {
		t.Surface.Tools = append(t.Surface.Tools, t)
	}
	for _, p := range r.variants {
		if p.v.Tool = r.spec.Tool(p.tool); p.v.Tool == nil {
			r.setErr(fmt.Errorf("variant %q names unknown tool %q", p.v.Name, p.tool))
		}
	}
	for _, t := range r.spec.Tools {
		r.check(t)
	}
	r.readPolicy(v)
	r.readClaims(v)
	if r.err != nil {
		return nil, r.err
	}
	return r.spec, nil
}

// readSurfaces reads the catalogs; the core one (holding the shared types)
// comes first, the others in name order.
func (r *reader) readSurfaces(v cue.Value) {
	var core *ir.Surface
	var rest []*ir.Surface
	eachField(v.LookupPath(cue.ParsePath("surfaces")), func(name string, e cue.Value) {
		s := &ir.Surface{Name: name, Doc: r.str(e.LookupPath(cue.ParsePath("doc"))), Package: r.str(e.LookupPath(cue.ParsePath("package"))),
			Common: r.strings(e.LookupPath(cue.ParsePath("common")))}
		bn := r.str(e.LookupPath(cue.ParsePath("budget")))
		if s.Budget = r.bounds[bn]; s.Budget == nil {
			r.fail(e, fmt.Errorf("surface %s: unknown budget bound %q", name, bn))
		}
		r.surfaces[name] = s
		if !r.bool(e.LookupPath(cue.ParsePath("core"))) {
			rest = append(rest, s)
			return
		}
		if core != nil {
			r.fail(e, fmt.Errorf("surfaces %s and %s are both core; one surface holds the shared types", core.Name, name))
		}
		core = s
	})
	if core == nil {
		r.setErr(fmt.Errorf("spec declares no core surface (surfaces: <name>: core: true)"))
		return
	}
	sort.Slice(rest, func(i, j int) bool { return rest[i].Name < rest[j].Name })
	r.spec.Surfaces = append([]*ir.Surface{core}, rest...)
	pkgs := map[string]bool{}
	for _, s := range r.spec.Surfaces {
		if pkgs[s.Package] {
			r.setErr(fmt.Errorf("surfaces share the Go package %q", s.Package))
		}
		pkgs[s.Package] = true
	}
}

// namedEnum registers a named enum under the CUE path that declares it.
func (r *reader) namedEnum(path, name string, v cue.Value, s *ir.Surface) *ir.Enum {
	e := &ir.Enum{Name: name, GoName: ir.Camel(name), Surface: s}
	for _, val := range r.strings(v) {
		e.Values = append(e.Values, &ir.EnumValue{Value: val, GoName: e.GoName + ir.Camel(val)})
	}
	r.enums[path] = e
	r.spec.Enums = append(r.spec.Enums, e)
	return e
}

// checkRules: every rule the shared decoder support names is one of the
// spec's rules, so a refusal never carries a rule the contract lacks.
func (r *reader) checkRules() {
	rules := r.spec.EnumOf("rule")
	if rules == nil {
		r.setErr(fmt.Errorf("spec declares no rule enum"))
		return
	}
	for _, name := range support.Rules {
		if rules.Value(name) == nil {
			r.setErr(fmt.Errorf("enums.rule lacks %q, which the decoders name (support/)", name))
		}
	}
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

// stringLists reads a list of string lists (absent: nil).
func (r *reader) stringLists(v cue.Value) [][]string {
	if !v.Exists() {
		return nil
	}
	it, err := v.List()
	r.fail(v, err)
	var out [][]string
	for it.Next() {
		out = append(out, r.strings(it.Value()))
	}
	return out
}

func (r *reader) opt(v cue.Value, path string) (cue.Value, bool) {
	x := v.LookupPath(cue.ParsePath(path))
	return x, x.Exists()
}

func (r *reader) readBounds(v cue.Value) {
	eachField(v, func(name string, e cue.Value) {
		b := &ir.Bound{Name: name, GoName: ir.Camel(name), Doc: r.str(e.LookupPath(cue.ParsePath("doc"))),
			Kind: ir.BoundKind(r.str(e.LookupPath(cue.ParsePath("kind"))))}
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

func (r *reader) fields(v cue.Value, owner string) []*ir.Field {
	var out []*ir.Field
	eachField(v, func(name string, e cue.Value) { out = append(out, r.field(name, e, owner)) })
	return out
}

// enumRef returns the named enum a CUE value refers to: the value itself
// is a reference (`enum: enums.role`), or one conjunct of it is (the field
// unified with #Field).
func (r *reader) enumRef(v cue.Value) *ir.Enum {
	for _, p := range refPaths(v) {
		if e := r.enums[p]; e != nil {
			return e
		}
	}
	return nil
}

// refPaths lists the references a value is made of: itself, or the
// conjuncts of a unification (a field unified with its definition).
func refPaths(v cue.Value) []string {
	refs := []cue.Value{v}
	if op, args := v.Expr(); op == cue.AndOp {
		refs = append(refs, args...)
	}
	var out []string
	for _, x := range refs {
		if root, path := x.ReferencePath(); root.Exists() {
			out = append(out, path.String())
		}
	}
	return out
}

// refPath is the one reference a value is, or "".
func refPath(v cue.Value) string {
	if l := refPaths(v); len(l) > 0 {
		return l[0]
	}
	return ""
}

// field reads one field; owner is the Go type that holds it, which names
// its object type (owner + field) when it declares no go_type, and the
// constants of an inline enum.
func (r *reader) field(name string, v cue.Value, owner string) *ir.Field {
	f := &ir.Field{Name: name}
	f.Type = ir.Type(r.str(v.LookupPath(cue.ParsePath("type"))))
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
		} else if f.Bound.Kind != ir.BoundLimit {
			// A decoder enforces a field's bound and its schema may state it:
			// a contract limit, never a tuning value or a budget.
			r.fail(x, fmt.Errorf("bound %q is a %s, but a field's bound is a contract limit (kind: \"limit\")", bn, f.Bound.Kind))
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
	for _, p := range []struct {
		key string
		dst *string
	}{{"format", &f.Format}, {"handle", &f.Handle}, {"unique_by", &f.UniqueBy}, {"go_type", &f.GoType}, {"go_name", &f.GoName}} {
		if x, ok := r.opt(v, p.key); ok {
			*p.dst = r.str(x)
		}
	}
	if f.GoName == "" {
		f.GoName = ir.Camel(name)
	}
	if x, ok := r.opt(v, "enum"); ok {
		if f.Enum = r.enumRef(x); f.Enum == nil {
			f.Enum = &ir.Enum{GoName: owner + f.GoName}
			for _, val := range r.strings(x) {
				f.Enum.Values = append(f.Enum.Values, &ir.EnumValue{Value: val, GoName: f.Enum.GoName + ir.Camel(val)})
			}
		}
	}
	if x, ok := r.opt(v, "true_only"); ok {
		f.TrueOnly = r.bool(x)
	}
	if x, ok := r.opt(v, "evident"); ok {
		f.Evident = r.bool(x)
	}
	if x, ok := r.opt(v, "unique"); ok {
		f.Unique = r.bool(x)
	}
	f.Kinds = r.strings(v.LookupPath(cue.ParsePath("kinds")))
	f.ExactlyOne = r.strings(v.LookupPath(cue.ParsePath("exactly_one")))
	if f.Type == ir.TypeObject && f.GoType == "" {
		f.GoType = owner + f.GoName
	}
	if x, ok := r.opt(v, "items"); ok {
		// Items of an array are named after the array's owner and field.
		f.Items = r.field("items", x, owner)
		if f.Items.Type == ir.TypeObject && !x.LookupPath(cue.ParsePath("go_type")).Exists() {
			f.Items.GoType = owner + f.GoName + "Items"
		}
		if f.Items.Enum != nil && !f.Items.Enum.Named() {
			f.Items.Enum.GoName = owner + f.GoName
			for _, ev := range f.Items.Enum.Values {
				ev.GoName = f.Items.Enum.GoName + ir.Camel(ev.Value)
			}
		}
	}
	if x, ok := r.opt(v, "fields"); ok {
		f.Fields = r.fields(x, f.GoType)
	}
	if x, ok := r.opt(v, "variants"); ok {
		vs := &ir.Variants{Key: r.str(x.LookupPath(cue.ParsePath("key")))}
		eachField(x.LookupPath(cue.ParsePath("cases")), func(n string, c cue.Value) {
			vc := &ir.Variant{Name: n, Doc: r.str(c.LookupPath(cue.ParsePath("doc")))}
			if w, ok := r.opt(c, "wrap"); ok {
				vc.Wrap = r.str(w)
			}
			r.variants = append(r.variants, pendingVariant{v: vc, tool: r.str(c.LookupPath(cue.ParsePath("tool")))})
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
		GoName:       ir.Camel(name),
		Title:        r.str(get("title")),
		Icon:         r.str(get("icon")),
		Doc:          r.str(get("doc")),
		Capabilities: r.strings(get("capabilities")),
		Constraints:  r.strings(get("constraints")),
		WhenPresent:  r.whenPresent(get("when_present")),
		Composite:    r.bool(get("composite")),
		TakesTab:     r.bool(get("takes_tab")),
		TakesTimeout: r.bool(get("takes_timeout")),
		Example:      r.json(get("example")),
		Facts:        r.fields(get("facts"), ir.Camel(name)),
	}
	if t.Name != name {
		r.fail(v, fmt.Errorf("tool key %q names %q", name, t.Name))
	}
	sn := r.str(get("surface"))
	if t.Surface = r.surfaces[sn]; t.Surface == nil {
		r.fail(v, fmt.Errorf("tool %s: unknown surface %q", name, sn))
		return nil
	}
	a := get("annotations")
	t.Annotations = ir.Annotations{
		ReadOnly:    r.bool(a.LookupPath(cue.ParsePath("read_only"))),
		Destructive: r.bool(a.LookupPath(cue.ParsePath("destructive"))),
		Idempotent:  r.bool(a.LookupPath(cue.ParsePath("idempotent"))),
		OpenWorld:   r.bool(a.LookupPath(cue.ParsePath("open_world"))),
	}
	t.Inputs = r.fields(get("inputs"), t.GoName)
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
	for _, n := range t.Surface.Common {
		add(n)
	}
	if x, ok := r.opt(v, "discriminator"); ok {
		t.Discriminator = r.str(x)
	}
	if it, err := get("branches").List(); err == nil {
		for it.Next() {
			b := r.branch(it.Value(), t.GoName)
			b.GoName = t.GoName + "Branch" + ir.Camel(b.Name)
			t.Branches = append(t.Branches, b)
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
	if x, ok := r.opt(v, "verb"); ok {
		t.Verb = r.verbClaim(x)
	}
	return t
}

func (r *reader) branch(v cue.Value, owner string) *ir.Branch {
	b := &ir.Branch{
		Name:        r.str(v.LookupPath(cue.ParsePath("name"))),
		Doc:         r.str(v.LookupPath(cue.ParsePath("doc"))),
		Required:    r.strings(v.LookupPath(cue.ParsePath("required"))),
		Allowed:     r.strings(v.LookupPath(cue.ParsePath("allowed"))),
		OneOf:       r.stringLists(v.LookupPath(cue.ParsePath("one_of"))),
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
		b.Override = r.fields(x, owner+ir.Camel(b.Name))
	}
	return b
}

// check enforces what CUE cannot express across fields: every field a branch
// or conflict names exists, and a tool's name, common fields and variant
// tools fit its surface.
func (r *reader) check(t *ir.Tool) {
	has := func(n string) {
		if t.Input(n) == nil {
			r.setErr(fmt.Errorf("tool %s: unknown field %q in a branch rule", t.Name, n))
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
		for _, g := range b.OneOf {
			for _, n := range g {
				has(n)
				if !b.Lists(n) {
					r.setErr(fmt.Errorf("tool %s: branch %s: one_of field %q is not a key or allowed field of the branch", t.Name, b.Name, n))
				}
			}
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
	for _, f := range t.Inputs {
		if f.Items != nil && f.Items.Variants != nil {
			for _, c := range f.Items.Variants.Cases {
				if c.Tool != nil && c.Tool.Surface != t.Surface {
					r.setErr(fmt.Errorf("tool %s: step %q names %s of another surface", t.Name, c.Name, c.Tool.Name))
				}
			}
		}
	}
	if t.Verb != nil && t.Surface.Claim == nil && r.err == nil {
		// Checked again with the claim; a verb on a surface without one is an error.
		if !strings.HasPrefix(t.Name, t.Surface.Name+"_") {
			r.setErr(fmt.Errorf("tool %s: a profile verb's tool is named %s_<verb>", t.Name, t.Surface.Name))
		}
	}
}

// credentialClasses reads the credential table (spec/credentials.cue), in
// the order CUE lists its fields (sorted by name, so the output is stable).
func (r *reader) credentialClasses(v cue.Value) {
	var names []string
	eachField(v, func(name string, _ cue.Value) { names = append(names, name) })
	sort.Strings(names)
	for _, name := range names {
		e := v.LookupPath(cue.MakePath(cue.Str(name)))
		c := &ir.CredentialClass{
			Name:         name,
			Doc:          r.str(e.LookupPath(cue.ParsePath("doc"))),
			InputTypes:   r.strings(e.LookupPath(cue.ParsePath("input_types"))),
			Autocomplete: r.strings(e.LookupPath(cue.ParsePath("autocomplete"))),
			Words:        r.strings(e.LookupPath(cue.ParsePath("words"))),
			ContextWords: r.strings(e.LookupPath(cue.ParsePath("context_words"))),
		}
		if n := e.LookupPath(cue.ParsePath("numeric")); n.Exists() {
			c.Numeric = r.bool(n)
		}
		if c.Numeric && len(c.ContextWords) == 0 {
			r.fail(e, fmt.Errorf("credential class %q is numeric without context_words", name))
		}
		r.spec.CredentialClasses = append(r.spec.CredentialClasses, c)
		r.spec.CredentialAutocomplete = append(r.spec.CredentialAutocomplete, c.Autocomplete...)
	}
}

package load

import (
	"fmt"
	"net/netip"
	"strconv"
	"strings"

	"cuelang.org/go/cue"

	"github.com/ghostlight-dev/ghostlight/gen/ir"
)

// readPolicy walks the closed #Policy definition into plain IR fields. The
// CUE definition itself is what layer files are checked against in
// conformance/, so the generator reads types, enums and defaults from it
// rather than from a parallel declaration; @policy(...) attributes carry
// what CUE cannot say (narrowing, the owning layer, bounds, formats).
func (r *reader) readPolicy(v cue.Value) {
	def := v.LookupPath(cue.ParsePath("#Policy"))
	if !def.Exists() {
		return
	}
	p := &ir.Policy{}
	p.Fields = r.policyFields(def, "")
	it, err := v.LookupPath(cue.ParsePath("policy_layers")).List()
	r.fail(v, err)
	for err == nil && it.Next() {
		e := it.Value()
		l := &ir.PolicyLayer{Name: r.str(e.LookupPath(cue.ParsePath("name"))), Doc: r.str(e.LookupPath(cue.ParsePath("doc")))}
		if x, ok := r.opt(e, "path"); ok {
			l.Path = r.str(x)
		}
		if x, ok := r.opt(e, "env"); ok {
			l.Env = r.str(x)
		}
		p.Layers = append(p.Layers, l)
	}
	sig := v.LookupPath(cue.ParsePath("policy_signature"))
	p.Signature = ir.PolicySignature{
		Suffix:  r.str(sig.LookupPath(cue.ParsePath("suffix"))),
		KeyPath: r.str(sig.LookupPath(cue.ParsePath("key_path"))),
		KeyEnv:  r.str(sig.LookupPath(cue.ParsePath("key_env"))),
	}
	p.Ceilings = r.strings(v.LookupPath(cue.ParsePath("policy_ceilings")))
	if d := v.LookupPath(cue.ParsePath("confirm_default_actions")); d.Exists() {
		p.ConfirmDefaults = r.strings(d)
	}
	p.AddressPresets = r.addressPresets(v)
	r.spec.Policy = p
}

// addressPresets reads the named address ranges; each CIDR must parse and
// name its network exactly (10.0.0.0/8, not 10.1.2.3/8), and names must be
// unique.
func (r *reader) addressPresets(v cue.Value) []*ir.AddressPreset {
	it, err := v.LookupPath(cue.ParsePath("address_presets")).List()
	if err != nil {
		return nil // a spec without presets (gen/testdata/mini)
	}
	var out []*ir.AddressPreset
	seen := map[string]bool{}
	for it.Next() {
		e := it.Value()
		p := &ir.AddressPreset{Name: r.str(e.LookupPath(cue.ParsePath("name"))), Doc: r.str(e.LookupPath(cue.ParsePath("doc")))}
		p.CIDRs = r.strings(e.LookupPath(cue.ParsePath("cidrs")))
		if seen[p.Name] {
			r.setErr(fmt.Errorf("address preset %q is declared twice", p.Name))
		}
		seen[p.Name] = true
		for _, c := range p.CIDRs {
			pr, err := netip.ParsePrefix(c)
			if err != nil || pr.Masked() != pr {
				r.setErr(fmt.Errorf("address preset %s: %q is not a CIDR naming its network", p.Name, c))
			}
		}
		if len(p.CIDRs) == 0 {
			r.setErr(fmt.Errorf("address preset %s lists no CIDR", p.Name))
		}
		out = append(out, p)
	}
	return out
}

func (r *reader) policyFields(v cue.Value, at string) []*ir.Field {
	it, err := v.Fields(cue.Optional(true))
	if err != nil {
		r.fail(v, err)
		return nil
	}
	var out []*ir.Field
	for it.Next() {
		if !it.IsOptional() {
			r.fail(it.Value(), fmt.Errorf("policy field %s/%s must be optional: a layer says only what it sets", at, it.Selector().Unquoted()))
		}
		out = append(out, r.policyField(it.Selector().Unquoted(), it.Value(), at+"/"+it.Selector().Unquoted()))
	}
	return out
}

func docOf(v cue.Value) string {
	var parts []string
	for _, c := range v.Doc() {
		parts = append(parts, strings.Join(strings.Fields(c.Text()), " "))
	}
	return strings.Join(parts, " ")
}

func (r *reader) policyField(name string, v cue.Value, at string) *ir.Field {
	f := &ir.Field{Name: name, GoName: ir.Camel(name), Doc: docOf(v)}
	if f.Doc == "" {
		r.fail(v, fmt.Errorf("policy field %s has no doc comment", at))
	}
	attr := map[string]string{}
	if a := v.Attribute("policy"); a.Err() == nil {
		for i := 0; i < a.NumArgs(); i++ {
			k, val := a.Arg(i)
			attr[k] = val
		}
	}
	bound := func(key string) *ir.Bound {
		n, ok := attr[key]
		if !ok {
			return nil
		}
		b := r.bounds[n]
		if b == nil {
			r.fail(v, fmt.Errorf("policy field %s: unknown bound %q", at, n))
			return nil
		}
		// A layer's silence is meaningful (it inherits), so the decoder
		// never fills a default: the copy keeps the limits only.
		c := *b
		c.Def = nil
		return &c
	}
	f.Narrow, f.OnlyLayer, f.Format = attr["narrow"], attr["layer"], attr["format"]
	if o, ok := attr["order"]; ok {
		f.NarrowOrder = strings.Fields(o)
	}
	switch k := v.IncompleteKind(); k {
	case cue.StructKind:
		f.Type = ir.TypeObject
		f.GoType = "Policy"
		for _, seg := range strings.Split(strings.TrimPrefix(at, "/"), "/") {
			f.GoType += ir.Camel(seg)
		}
		f.Fields = r.policyFields(v, at)
		// [pattern]: {...}: a map of rules keyed by what they apply to.
		var elem cue.Value
		if it, err := v.Fields(cue.Optional(true), cue.Patterns(true)); err == nil {
			for it.Next() {
				if it.Selector().ConstraintType() == cue.PatternConstraint {
					elem = it.Value()
				}
			}
		}
		if len(f.Fields) == 0 && elem.Exists() {
			f.Type = ir.TypeMap
			f.Items = &ir.Field{Name: "value", GoName: "Value", Type: ir.TypeObject, GoType: f.GoType + "Value", Doc: f.Doc, Fields: r.policyFields(elem, at+"/value")}
			f.Bound = bound("bound")
			f.Format = attr["format"]
			r.checkNarrow(f, at)
			return f
		}
		return f
	case cue.StringKind:
		f.Type = ir.TypeString
		if op, args := v.Expr(); op == cue.OrOp {
			f.Enum = &ir.Enum{}
			for _, a := range args {
				f.Enum.Values = append(f.Enum.Values, &ir.EnumValue{Value: r.str(a)})
			}
		}
	case cue.BoolKind:
		f.Type = ir.TypeBoolean
	case cue.IntKind:
		f.Type = ir.TypeInteger
	case cue.ListKind:
		f.Type = ir.TypeArray
		f.KeepEmpty = true
		e := v.LookupPath(cue.MakePath(cue.AnyIndex))
		if e.IncompleteKind() != cue.StringKind {
			r.fail(v, fmt.Errorf("policy field %s: lists hold strings", at))
		}
		f.Items = &ir.Field{Name: "items", GoName: "Items", Type: ir.TypeString, Doc: "An item.", Format: f.Format, Bound: bound("item_bound")}
		f.Format = ""
	default:
		r.fail(v, fmt.Errorf("policy field %s: unsupported kind %v", at, k))
	}
	f.Bound = bound("bound")
	if d, ok := v.Default(); ok && f.Type != "array" {
		switch f.Type {
		case "string":
			f.PolicyDef = r.str(d)
		case "boolean":
			f.PolicyDef = strconv.FormatBool(r.bool(d))
		}
	}
	if f.Type == "integer" && r.bounds[attr["bound"]] != nil && r.bounds[attr["bound"]].Def != nil {
		f.PolicyDef = strconv.FormatInt(*r.bounds[attr["bound"]].Def, 10)
	}
	r.checkNarrow(f, at)
	return f
}

// checkNarrow refuses a leaf without a narrowing rule, or an order that does
// not list exactly the field's values.
func (r *reader) checkNarrow(f *ir.Field, at string) {
	switch f.Narrow {
	case ir.NarrowOrder:
		want := f.EnumValues()
		if f.Type == "boolean" {
			want = []string{"true", "false"}
		}
		if len(f.NarrowOrder) != len(want) {
			r.setErr(fmt.Errorf("policy field %s: order %v must list each of %v once", at, f.NarrowOrder, want))
			return
		}
		for _, w := range want {
			found := false
			for _, o := range f.NarrowOrder {
				found = found || o == w
			}
			if !found {
				r.setErr(fmt.Errorf("policy field %s: order %v must list each of %v once", at, f.NarrowOrder, want))
			}
		}
	case ir.NarrowWithin, ir.NarrowAdds:
		if f.Type != "array" && (f.Type != ir.TypeMap || f.Narrow != ir.NarrowAdds) {
			r.setErr(fmt.Errorf("policy field %s: narrow=%s is for lists", at, f.Narrow))
		}
	case ir.NarrowFixed:
	case ir.NarrowAtLeast:
		if f.Type != "integer" {
			r.setErr(fmt.Errorf("policy field %s: narrow=atleast is for integers", at))
		}
	default:
		r.setErr(fmt.Errorf("policy field %s: @policy(narrow=…) must be order, within, adds, fixed or atleast, not %q", at, f.Narrow))
	}
}

func (r *reader) setErr(err error) {
	if r.err == nil {
		r.err = err
	}
}

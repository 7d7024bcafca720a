package emit

import (
	"strings"

	"github.com/dave/jennifer/jen"

	"github.com/ghostlight-dev/ghostlight/gen/ir"
)

// policyLeaf is one settable field of the layer schema, with its JSON
// Pointer and the Go selector chain that reaches it.
type policyLeaf struct {
	field   *ir.Field
	pointer string   // "/capabilities/read"
	key     string   // "capabilities.read"
	chain   []string // Go field names from the root: Capabilities, Read
	only    string   // the one layer that may set it
}

func policyLeaves(fields []*ir.Field, ptr, key string, chain []string, only string) []policyLeaf {
	var out []policyLeaf
	for _, f := range fields {
		o := only
		if f.OnlyLayer != "" {
			o = f.OnlyLayer
		}
		c := append(append([]string(nil), chain...), f.GoName)
		if f.Type == "object" {
			out = append(out, policyLeaves(f.Fields, ptr+"/"+f.Name, key+f.Name+".", c, o)...)
			continue
		}
		out = append(out, policyLeaf{field: f, pointer: ptr + "/" + f.Name, key: key + f.Name, chain: c, only: o})
	}
	return out
}

// policyFile renders the layer schema: Go types and a strict decoder (the
// tool decoders' machinery: JSON Pointer errors, unknown keys refused), the
// settings table the runtime narrows and explains by, the layers, the
// signature locations and the permanent ceilings.
func policyFile(spec *ir.Spec, root string) *jen.File {
	p := spec.Policy
	g := newGoGen(spec, spec.Core(), root)
	f := g.file()

	var layers, infos []jen.Code
	for _, l := range p.Layers {
		layers = append(layers, jen.Id("PolicyLayer"+ir.Camel(l.Name)).Op("=").Lit(l.Name).Comment(l.Doc))
		infos = append(infos, jen.Values(jen.Dict{jen.Id("Name"): jen.Id("PolicyLayer" + ir.Camel(l.Name)), jen.Id("Path"): jen.Lit(l.Path), jen.Id("Env"): jen.Lit(l.Env), jen.Id("Doc"): jen.Lit(l.Doc)}))
	}
	f.Comment("Policy layers, from the top.")
	f.Const().Defs(layers...)
	f.Comment("PolicyLayerInfo is one layer: its default file (\"\" when it has none) and")
	f.Comment("the environment variable that replaces that location.")
	f.Type().Id("PolicyLayerInfo").Struct(jen.Id("Name").String(), jen.Id("Path").String(), jen.Id("Env").String(), jen.Id("Doc").String())
	f.Comment("PolicyLayers lists every layer from the top.")
	f.Var().Id("PolicyLayers").Op("=").Index().Id("PolicyLayerInfo").Values(infos...)
	f.Comment("Where an organization layer's signature and the installation's pinned key live.")
	f.Const().Defs(
		jen.Id("PolicySignatureSuffix").Op("=").Lit(p.Signature.Suffix),
		jen.Id("PolicyOrgKeyPath").Op("=").Lit(p.Signature.KeyPath),
		jen.Id("PolicyOrgKeyEnv").Op("=").Lit(p.Signature.KeyEnv),
	)
	f.Comment("PolicyCeilings are permanent: they hold under every authority, all-open included.")
	f.Var().Id("PolicyCeilings").Op("=").Add(stringsLit(p.Ceilings))
	if len(p.ConfirmDefaults) > 0 {
		f.Comment("ConfirmDefaultActions are the actions `confirm: defaults: true` makes wait (spec/policy.cue).")
		f.Var().Id("ConfirmDefaultActions").Op("=").Add(stringsLit(p.ConfirmDefaults))
	}

	f.Comment("PolicyAddressPreset is a named list of CIDRs hosts.addresses.deny may name.")
	f.Type().Id("PolicyAddressPreset").Struct(jen.Id("Name").String(), jen.Id("Doc").String(), jen.Id("CIDRs").Index().String())
	var presets []jen.Code
	for _, ap := range p.AddressPresets {
		presets = append(presets, jen.Values(jen.Dict{jen.Id("Name"): jen.Lit(ap.Name), jen.Id("Doc"): jen.Lit(ap.Doc), jen.Id("CIDRs"): stringsLit(ap.CIDRs)}))
	}
	f.Comment("PolicyAddressPresets are the named address ranges (spec/address_presets.cue).")
	f.Var().Id("PolicyAddressPresets").Op("=").Index().Id("PolicyAddressPreset").Values(presets...)

	f.Comment("How a lower layer may move a setting (PolicySetting.Narrow).")
	f.Const().Defs(
		jen.Id("PolicyNarrowOrder").Op("=").Lit(ir.NarrowOrder).Comment("toward the front of Order (narrowest first)"),
		jen.Id("PolicyNarrowWithin").Op("=").Lit(ir.NarrowWithin).Comment("every item within an item of every higher list"),
		jen.Id("PolicyNarrowAdds").Op("=").Lit(ir.NarrowAdds).Comment("every layer's items apply"),
		jen.Id("PolicyNarrowFixed").Op("=").Lit(ir.NarrowFixed).Comment("a lower layer may only repeat a higher layer's value"),
		jen.Id("PolicyNarrowAtLeast").Op("=").Lit(ir.NarrowAtLeast).Comment("a lower layer may raise it, never lower it"),
	)
	f.Comment("PolicySetting is one settable field of a layer.")
	f.Type().Id("PolicySetting").Struct(
		jen.Id("Pointer").String().Comment("JSON Pointer in a layer"),
		jen.Id("Key").String().Comment("dotted name, as docs and explanations say it"),
		jen.Id("Type").String().Comment("string, boolean, integer or array (of strings)"),
		jen.Id("Enum").Index().String(),
		jen.Id("Narrow").String(),
		jen.Id("Order").Index().String().Comment("narrowest first (PolicyNarrowOrder)"),
		jen.Id("Default").String().Comment("the value in force when no layer sets it, as text"),
		jen.Id("Layer").String().Comment("the one layer that may set it (\"\": any)"),
		jen.Id("Doc").String(),
	)
	leaves := policyLeaves(p.Fields, "", "", nil, "")
	var settings []jen.Code
	for _, l := range leaves {
		d := jen.Dict{
			jen.Id("Pointer"): jen.Lit(l.pointer), jen.Id("Key"): jen.Lit(l.key), jen.Id("Type"): jen.Lit(string(l.field.Type)),
			jen.Id("Narrow"): jen.Lit(l.field.Narrow), jen.Id("Doc"): jen.Lit(l.field.Doc),
		}
		if l.field.Enum != nil {
			d[jen.Id("Enum")] = stringsLit(l.field.EnumValues())
		}
		if l.field.NarrowOrder != nil {
			d[jen.Id("Order")] = stringsLit(l.field.NarrowOrder)
		}
		if l.field.PolicyDef != "" {
			d[jen.Id("Default")] = jen.Lit(l.field.PolicyDef)
		}
		if l.only != "" {
			d[jen.Id("Layer")] = jen.Lit(l.only)
		}
		settings = append(settings, jen.Values(d))
	}
	f.Comment("PolicySettings lists every settable field of a layer, in schema order.")
	f.Var().Id("PolicySettings").Op("=").Index().Id("PolicySetting").Values(settings...)

	layer := &ir.Field{Name: "policy", Type: ir.TypeObject, GoType: "Policy", Doc: "One policy layer, as decoded from its file.", Fields: p.Fields}
	var objects func(name string, o *ir.Field)
	objects = func(name string, o *ir.Field) {
		var fields []jen.Code
		for _, fl := range o.Fields {
			var t jen.Code
			switch fl.Type {
			case "object":
				t = jen.Op("*").Id(name + ir.Camel(fl.Name))
			case "array":
				t = jen.Index().String()
			case "map":
				t = jen.Map(jen.String()).Op("*").Id(fl.Items.GoType)
			case "boolean":
				t = jen.Op("*").Bool()
			case "integer":
				t = jen.Op("*").Int()
			default:
				t = jen.String()
			}
			fields = append(fields, jen.Id(fl.GoName).Add(t).Tag(map[string]string{"json": fl.Name + ",omitzero"}).Comment(fl.Doc))
		}
		f.Commentf("%s: %s", name, o.Doc)
		f.Type().Id(name).Struct(fields...)
		g.policy = true
		g.objectDecoder(f, name, o)
		g.policy = false
		for _, fl := range o.Fields {
			switch fl.Type {
			case "object":
				objects(name+ir.Camel(fl.Name), fl)
			case "map":
				objects(fl.Items.GoType, fl.Items)
			}
		}
	}
	objects("Policy", layer)

	f.Comment("DecodePolicy decodes and validates one layer (JSON, as the policy file")
	f.Comment("parser yields it). Absent fields stay absent: a layer's silence inherits.")
	f.Func().Id("DecodePolicy").Params(jen.Id("d").Index().Byte()).Params(jen.Op("*").Id("Policy"), jen.Op("*").Id("DecodeError")).Block(
		jen.Id("o").Op(":=").New(jen.Id("Policy")),
		jen.If(jen.Err().Op(":=").Id("o").Dot("decode").Call(jen.Id("d"), jen.Nil(), jen.Lit("")), jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Nil(), jen.Id("NewDecodeError").Call(jen.Err()))),
		jen.Return(jen.Id("o"), jen.Nil()),
	)

	var cases []jen.Code
	for _, l := range leaves {
		var cond *jen.Statement
		sel := jen.Id("o")
		for i, c := range l.chain {
			sel = sel.Clone().Dot(c)
			if i == len(l.chain)-1 {
				break
			}
			if cond == nil {
				cond = sel.Clone().Op("!=").Nil()
			} else {
				cond = cond.Op("&&").Add(sel.Clone()).Op("!=").Nil()
			}
		}
		var set, val *jen.Statement
		switch l.field.Type {
		case "string":
			set, val = sel.Clone().Op("!=").Lit(""), sel.Clone()
		case "array", "map":
			set, val = sel.Clone().Op("!=").Nil(), sel.Clone()
		default:
			set, val = sel.Clone().Op("!=").Nil(), jen.Op("*").Add(sel.Clone())
		}
		if cond != nil {
			set = cond.Op("&&").Add(set)
		}
		cases = append(cases, jen.Case(jen.Lit(l.pointer)).Block(jen.If(set).Block(jen.Return(val, jen.True()))))
	}
	f.Comment("Lookup returns the value a layer sets at a PolicySettings pointer: a")
	f.Comment("string, bool, int, []string or a map of rules, and whether the layer sets it at all.")
	f.Func().Params(jen.Id("o").Op("*").Id("Policy")).Id("Lookup").Params(jen.Id("pointer").String()).Params(jen.Any(), jen.Bool()).Block(
		jen.If(jen.Id("o").Op("==").Nil()).Block(jen.Return(jen.Nil(), jen.False())),
		jen.Switch(jen.Id("pointer")).Block(cases...),
		jen.Return(jen.Nil(), jen.False()),
	)
	return f
}

// narrowText says in words how a lower layer may move a setting.
func narrowText(l policyLeaf) string {
	f := l.field
	var s string
	switch f.Narrow {
	case ir.NarrowOrder:
		s = "keep or narrow it, narrowest first: `" + strings.Join(f.NarrowOrder, "`, `") + "`"
	case ir.NarrowWithin:
		s = "only items within every higher layer's list"
	case ir.NarrowAdds:
		s = "add items; every layer's apply"
		if f.Type == ir.TypeMap {
			s = "add entries; every layer's apply"
		}
	case ir.NarrowFixed:
		s = "only repeat a higher layer's value"
	case ir.NarrowAtLeast:
		s = "raise it, never lower it"
	}
	if l.only != "" {
		s += "; " + l.only + " layer only"
	}
	return s
}

// minCaps lists the least capability sets a call of the tool can need: one
// per branch (its own or the tool's), and one per when_present that sets
// them. Adding fields only adds capabilities, so these are the minima a
// tools list can judge a tool by.
func minCaps(t *ir.Tool) [][]string {
	var out [][]string
	seen := map[string]bool{}
	add := func(c []string) {
		k := strings.Join(c, "+")
		if !seen[k] {
			seen[k] = true
			out = append(out, c)
		}
	}
	sets := func(wps []*ir.WhenPresent) {
		for _, w := range wps {
			if w.Set != nil {
				add(w.Set)
			}
		}
	}
	if len(t.Branches) == 0 {
		add(t.Capabilities)
	}
	for _, b := range t.Branches {
		if b.HasCaps {
			add(b.Capabilities)
		} else {
			add(t.Capabilities)
		}
		sets(b.WhenPresent)
	}
	sets(t.WhenPresent)
	return out
}

func (g *goGen) minCapsExpr(t *ir.Tool) jen.Code {
	var v []jen.Code
	for _, c := range minCaps(t) {
		v = append(v, g.capsExpr(c))
	}
	return jen.Index().Add(g.core("Caps")).Values(v...)
}

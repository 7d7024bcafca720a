package emit

import (
	"strings"

	"github.com/dave/jennifer/jen"

	"github.com/ghostlight-dev/ghostlight/gen/ir"
)

// boundsFile renders every named bound as constants.
func (g *goGen) boundsFile() *jen.File {
	f := g.file()
	for _, b := range g.spec.Bounds {
		var defs []jen.Code
		doc := b.Doc
		if b.Unit != "" {
			doc += " (" + b.Unit + ")"
		}
		for _, p := range []struct {
			which string
			v     *int64
		}{{"Min", b.Min}, {"Max", b.Max}, {"Default", b.Def}} {
			if p.v != nil {
				defs = append(defs, jen.Id(boundConst(b, p.which)).Op("=").Lit(int(*p.v)))
			}
		}
		f.Comment(Camel(b.Name) + ": " + doc)
		f.Const().Defs(defs...)
	}
	return f
}

// enumsFile renders closed sets as typed string constants with value lists.
func (g *goGen) enumsFile() *jen.File {
	f := g.file()
	for _, e := range g.spec.Enums {
		typ := Camel(e.Name)
		f.Commentf("%s is a closed set of the spec.", typ)
		f.Type().Id(typ).String()
		var defs, vals []jen.Code
		for _, v := range e.Values {
			id := typ + Camel(strings.ReplaceAll(v, " ", "_"))
			defs = append(defs, jen.Id(id).Id(typ).Op("=").Lit(v))
			vals = append(vals, jen.Id(id))
		}
		f.Const().Defs(defs...)
		f.Commentf("%sValues lists every %s in spec order.", typ, typ)
		f.Var().Id(typ + "Values").Op("=").Index().Id(typ).Values(vals...)
	}
	var caps []jen.Code
	for i, c := range g.spec.EnumOf("capability").Values {
		caps = append(caps, jen.Id("Cap"+Camel(c)).Id("Caps").Op("=").Lit(1).Op("<<").Lit(i))
	}
	f.Comment("Capability bits, in CapabilityValues order.")
	f.Const().Defs(caps...)

	if len(g.spec.ScrollAmountPermille) > 0 {
		f.Comment("ScrollAmountPermille is how far each scroll amount moves, in thousandths of the viewport.")
		f.Var().Id("ScrollAmountPermille").Op("=").Map(jen.String()).Int().Values(jen.DictFunc(func(d jen.Dict) {
			for _, kv := range g.spec.ScrollAmountPermille {
				d[jen.Lit(kv[0].(string))] = jen.Lit(int(kv[1].(int64)))
			}
		}))
	}
	f.Comment("ReasonStatus is the envelope status of each refusal reason.")
	f.Var().Id("ReasonStatus").Op("=").Map(jen.Id("Reason")).Id("Status").Values(jen.DictFunc(func(d jen.Dict) {
		for _, rs := range g.spec.ReasonStatus {
			d[jen.Id("Reason"+Camel(rs[0]))] = jen.Id("Status" + Camel(rs[1]))
		}
	}))
	f.Comment("CredentialAutocomplete lists autocomplete tokens that make a field credential-class.")
	f.Var().Id("CredentialAutocomplete").Op("=").Add(stringsLit(g.spec.CredentialAutocomplete))

	var hp []jen.Code
	for _, k := range sortedKeys(g.spec.HandlePrefixes) {
		hp = append(hp, jen.Id("HandlePrefix"+Camel(k)).Op("=").Lit(g.spec.HandlePrefixes[k]))
	}
	f.Comment("Handle prefixes: a handle is the prefix, \"_\", then letters and digits.")
	f.Const().Defs(hp...)

	f.Comment("NamedKey is how the executor dispatches one named key.")
	f.Type().Id("NamedKey").Struct(jen.Id("Code").String(), jen.Id("KeyCode").Int(), jen.Id("Text").String())
	var keys []jen.Code
	for _, k := range g.spec.NamedKeys {
		keys = append(keys, jen.Lit(k.Name).Op(":").Values(jen.Lit(k.Code), jen.Lit(k.KeyCode), jen.Lit(k.Text)))
	}
	f.Comment("NamedKeys is the closed list of named keys browser_press_key accepts.")
	f.Var().Id("NamedKeys").Op("=").Map(jen.String()).Id("NamedKey").Values(jen.DictFunc(func(d jen.Dict) {
		for _, k := range g.spec.NamedKeys {
			d[jen.Lit(k.Name)] = jen.Values(jen.Dict{jen.Id("Code"): jen.Lit(k.Code), jen.Id("KeyCode"): jen.Lit(k.KeyCode), jen.Id("Text"): jen.Lit(k.Text)})
		}
	}))
	_ = keys
	return f
}

// envelopeFile renders the envelope and the refusal facts.
func (g *goGen) envelopeFile() *jen.File {
	f := g.file()
	var fields []jen.Code
	for _, e := range g.spec.Envelope {
		var t jen.Code
		switch {
		case e.Name == "facts":
			t = jen.Qual("encoding/json", "RawMessage")
		case g.spec.EnumOf(e.Name) != nil:
			t = jen.Id(Camel(e.Name))
		default:
			t = g.goType("Envelope", e, false)
		}
		fields = append(fields, jen.Id(goName(e)).Add(t).Tag(map[string]string{"json": e.Name}).Comment(e.Doc))
	}
	f.Comment("Envelope is the one result every invocation returns.")
	f.Type().Id("Envelope").Struct(fields...)

	var rf []jen.Code
	for _, e := range g.spec.RefusalFacts {
		var t jen.Code
		switch {
		case e.Name == "reason":
			t = jen.Id("Reason")
		case e.Name == "rule":
			t = jen.Id("Rule")
		case e.Name == "capability":
			t = jen.Id("Capability")
		default:
			t = g.goType("Refusal", e, false)
		}
		tag := e.Name
		if !e.Always {
			tag += ",omitempty"
		}
		rf = append(rf, jen.Id(goName(e)).Add(t).Tag(map[string]string{"json": tag}).Comment(e.Doc))
	}
	rf = append(rf,
		jen.Id("Tab").String().Tag(map[string]string{"json": "tab,omitempty"}).Comment("The tab the refusal concerns, when one was resolved."),
		jen.Id("Message").String().Tag(map[string]string{"json": "-"}).Comment("Why, for the summary; never a fact."))
	f.Comment("Refusal is a typed refusal: its facts and the reason the language context words.")
	f.Type().Id("Refusal").Struct(rf...)
	return f
}

// catalogFile renders the Handler interface and the catalog table.
func (g *goGen) catalogFile() *jen.File {
	f := g.file()
	var methods []jen.Code
	var entries []jen.Code
	for _, t := range g.spec.Tools {
		n := Camel(t.Name)
		methods = append(methods, jen.Comment(n+" runs "+t.Name+": "+t.Doc), jen.Id(n).Params(jen.Id("ctx").Qual("context", "Context"), jen.Id("args").Op("*").Id(n+"Args")).Params(jen.Op("*").Id(n+"Facts"), jen.Id("Outcome")))
		entries = append(entries, jen.Id("tool"+n))
	}
	f.Comment("Handler is what the runtime implements: one method per tool, typed")
	f.Comment("arguments in, typed facts and an outcome out. A nil facts pointer means")
	f.Comment("the outcome carries a refusal and no tool facts.")
	f.Type().Id("Handler").Interface(methods...)
	f.Comment("Catalog lists every tool, sorted by name.")
	f.Var().Id("Catalog").Op("=").Index().Op("*").Id("Tool").Values(entries...)
	return f
}

func (g *goGen) all() map[string]*jen.File {
	out := map[string]*jen.File{
		"bounds.go":   g.boundsFile(),
		"enums.go":    g.enumsFile(),
		"envelope.go": g.envelopeFile(),
		"catalog.go":  g.catalogFile(),
	}
	for _, t := range g.spec.Tools {
		out["tool_"+t.Name+".go"] = g.toolFile(t)
	}
	out["objects.go"] = g.sharedFile()
	return out
}

var _ = ir.IsCommon

package emit

import (
	"github.com/dave/jennifer/jen"

	"github.com/ghostlight-dev/ghostlight/gen/ir"
)

// all renders every Go file of the surface's package.
func (g *goGen) all() map[string]*jen.File {
	out := map[string]*jen.File{
		"enums.go":   g.enumsFile(),
		"catalog.go": g.catalogFile(),
	}
	if g.surface == g.spec.Core() {
		if len(g.spec.Bounds) > 0 {
			out["bounds.go"] = g.boundAliasFile()
		}
		out["envelope.go"] = g.envelopeFile()
		out["types.go"] = g.typesFile()
		out["decode.go"] = g.decodeFile()
	}
	for _, t := range g.surface.Tools {
		out["tool_"+t.Name+".go"] = g.toolFile(t)
	}
	if f := g.sharedFile(); len(g.shared) > 0 {
		out["objects.go"] = f
	}
	return out
}

// boundKindDocs opens each bounds file, saying what its numbers are.
var boundKindDocs = map[ir.BoundKind]string{
	ir.BoundLimit: "Contract and surface limits: what a caller, a result, a policy file or the person can rely on. " +
		"Decoders, schemas and docs state them.",
	ir.BoundBudget: "Budgets: sizes the tests hold Ghostlight's own output to (the tools list, receipts, instructions).",
	ir.BoundTuning: "Tuning values: Ghostlight's own waits, polls, buffers, retries and memory, which may change " +
		"without changing what a client sees. Each is <Name>; its <Name>Max (or Min) " +
		"is the same number under the older name, not a maximum a caller may pass.",
}

// tuningValue is the one number of a tuning bound that states only a
// maximum or only a minimum, and nil for any other bound.
func tuningValue(b *ir.Bound) *int64 {
	if b.Kind != ir.BoundTuning || b.Def != nil || (b.Min == nil) == (b.Max == nil) {
		return nil
	}
	if b.Max != nil {
		return b.Max
	}
	return b.Min
}

// hasBounds reports whether the spec has a bound of kind k.
func hasBounds(spec *ir.Spec, k ir.BoundKind) bool {
	for _, b := range spec.Bounds {
		if b.Kind == k {
			return true
		}
	}
	return false
}

// LimitsPackage is the Go package, and its directory under the output
// root, that declares every bound: the one place a bound's number is
// written in Go. The executor reads its bounds there and needs nothing
// else of the surface.
const LimitsPackage = "limits"

// limitsDoc is the limits package's doc comment.
const limitsDoc = "Package limits holds every bound spec/bounds*.cue declares, as Go constants: the contract " +
	"limits a caller, a result, a policy file or the person can rely on, the budgets the tests hold " +
	"Ghostlight's output to, and the tuning values of its own waits, polls, buffers and retries. " +
	"It is the one declaration of each number: generated/surface names the same constants for its " +
	"decoders, and the executor (runtime/browser/...) reads them here."

// limitsFiles renders the limits package: limits and budgets in bounds.go,
// tuning values in tuning.go.
func limitsFiles(spec *ir.Spec, root string) map[string]*jen.File {
	path := root + "/" + LimitsPackage
	file := func() *jen.File {
		f := jen.NewFilePathName(path, LimitsPackage)
		f.HeaderComment(Header)
		return f
	}
	out := map[string]*jen.File{}
	f := file()
	f.PackageComment(limitsDoc)
	boundsInto(f, spec, ir.BoundLimit, ir.BoundBudget)
	out["bounds.go"] = f
	if hasBounds(spec, ir.BoundTuning) {
		f := file()
		boundsInto(f, spec, ir.BoundTuning)
		out["tuning.go"] = f
	}
	return out
}

// boundsInto renders the named bounds of the given kinds as constants, each
// kind under the comment that says what its numbers are.
func boundsInto(f *jen.File, spec *ir.Spec, kinds ...ir.BoundKind) {
	for _, k := range kinds {
		if !hasBounds(spec, k) {
			continue
		}
		f.Comment(boundKindDocs[k])
		f.Line()
		for _, b := range spec.Bounds {
			if b.Kind != k {
				continue
			}
			doc := b.Doc
			if b.Unit != "" {
				doc += " (" + b.Unit + ")"
			}
			f.Comment(b.GoName + " (" + string(b.Kind) + "): " + doc)
			f.Const().Defs(boundDefs(b, func(name string, v *int64) jen.Code {
				return jen.Id(name).Op("=").Lit(int(*v))
			})...)
		}
	}
}

// boundDefs lists a bound's constants in order, each rendered by def from
// its name and number. A tuning value is one number: its own name says it;
// the <Name>Max (or Min) the runtime reads stays its older name, defined as
// the first.
func boundDefs(b *ir.Bound, def func(name string, v *int64) jen.Code) []jen.Code {
	var defs []jen.Code
	if v := tuningValue(b); v != nil {
		defs = append(defs, def(b.GoName, v))
		for _, p := range []struct {
			which string
			v     *int64
		}{{"Min", b.Min}, {"Max", b.Max}} {
			if p.v != nil {
				defs = append(defs, jen.Id(b.GoName+p.which).Op("=").Id(b.GoName))
			}
		}
		return defs
	}
	for _, p := range []struct {
		which string
		v     *int64
	}{{"Min", b.Min}, {"Max", b.Max}, {"Default", b.Def}} {
		if p.v != nil {
			defs = append(defs, def(b.GoName+p.which, p.v))
		}
	}
	return defs
}

// boundAliasFile renders the core surface's bounds.go: every constant of
// the limits package under the same name here, where the decoders read it.
// The number is written once, in limits.
func (g *goGen) boundAliasFile() *jen.File {
	f := g.file()
	lim := g.root + "/" + LimitsPackage
	f.Comment("Bounds under the names the decoders read: each is the constant of the same name in package " +
		LimitsPackage + ", the one declaration of its number (spec/bounds*.cue). The executor reads " +
		LimitsPackage + " itself.")
	for _, k := range []ir.BoundKind{ir.BoundLimit, ir.BoundBudget, ir.BoundTuning} {
		if !hasBounds(g.spec, k) {
			continue
		}
		var defs []jen.Code
		for _, b := range g.spec.Bounds {
			if b.Kind != k {
				continue
			}
			alias := func(name string, _ *int64) jen.Code { return jen.Id(name).Op("=").Qual(lim, name) }
			if tuningValue(b) != nil {
				// The older <Name>Max (or Min) aliases its own constant too.
				for _, which := range []string{"", "Min", "Max"} {
					if which == "" || (which == "Min" && b.Min != nil) || (which == "Max" && b.Max != nil) {
						defs = append(defs, alias(b.GoName+which, nil))
					}
				}
				continue
			}
			defs = append(defs, boundDefs(b, alias)...)
		}
		f.Line()
		f.Comment(boundKindTitle[k])
		f.Const().Defs(defs...)
	}
	return f
}

// boundKindTitle names each kind's block of aliases.
var boundKindTitle = map[ir.BoundKind]string{
	ir.BoundLimit:  "Contract and surface limits.",
	ir.BoundBudget: "Budgets.",
	ir.BoundTuning: "Tuning values.",
}

// enumsFile renders the surface's named enums as typed string constants
// with value lists; the core surface's also holds the capability bits and
// the tables keyed by enums.
func (g *goGen) enumsFile() *jen.File {
	f := g.file()
	for _, e := range g.spec.Enums {
		if e.Surface != g.surface || !e.Named() {
			continue
		}
		f.Commentf("%s is a closed set of the spec.", e.GoName)
		f.Type().Id(e.GoName).String()
		var defs, vals []jen.Code
		for _, v := range e.Values {
			defs = append(defs, jen.Id(v.GoName).Id(e.GoName).Op("=").Lit(v.Value))
			vals = append(vals, jen.Id(v.GoName))
		}
		f.Const().Defs(defs...)
		f.Commentf("%sValues lists every %s in spec order.", e.GoName, e.GoName)
		f.Var().Id(e.GoName + "Values").Op("=").Index().Id(e.GoName).Values(vals...)
	}
	if g.surface != g.spec.Core() {
		g.readinessFrom(f)
		return f
	}
	var caps []jen.Code
	for i, c := range g.spec.EnumOf("capability").Values {
		caps = append(caps, jen.Id("Cap"+ir.Camel(c.Value)).Id("Caps").Op("=").Lit(1).Op("<<").Lit(i))
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
	reason, status := g.spec.EnumOf("reason"), g.spec.EnumOf("status")
	f.Comment("ReasonStatus is the envelope status of each refusal reason.")
	f.Var().Id("ReasonStatus").Op("=").Map(jen.Id(reason.GoName)).Id(status.GoName).Values(jen.DictFunc(func(d jen.Dict) {
		for _, rs := range g.spec.ReasonStatus {
			d[jen.Id(reason.Value(rs[0]).GoName)] = jen.Id(status.Value(rs[1]).GoName)
		}
	}))
	f.Comment("ClientAddedFields are the fields clients add to every tool's arguments on their own")
	f.Comment("(spec/fields.cue): every tool's decoder passes over them at the top level.")
	f.Var().Id("ClientAddedFields").Op("=").Add(stringsLit(g.spec.ClientAdded))
	f.Comment("CredentialAutocomplete lists autocomplete tokens that make a field credential-class.")
	f.Var().Id("CredentialAutocomplete").Op("=").Add(stringsLit(g.spec.CredentialAutocomplete))
	g.credentialClasses(f)

	var hp []jen.Code
	for _, k := range sortedKeys(g.spec.HandlePrefixes) {
		hp = append(hp, jen.Id("HandlePrefix"+ir.Camel(k)).Op("=").Lit(g.spec.HandlePrefixes[k]))
	}
	f.Comment("Handle prefixes: a handle is the prefix, \"_\", then letters and digits.")
	f.Const().Defs(hp...)

	f.Comment("NamedKey is how the executor dispatches one named key.")
	f.Type().Id("NamedKey").Struct(jen.Id("Code").String(), jen.Id("KeyCode").Int(), jen.Id("Text").String())
	f.Comment("NamedKeys is the closed list of named keys browser_press_key accepts.")
	f.Var().Id("NamedKeys").Op("=").Map(jen.String()).Id("NamedKey").Values(jen.DictFunc(func(d jen.Dict) {
		for _, k := range g.spec.NamedKeys {
			d[jen.Lit(k.Name)] = jen.Values(jen.Dict{jen.Id("Code"): jen.Lit(k.Code), jen.Id("KeyCode"): jen.Lit(k.KeyCode), jen.Id("Text"): jen.Lit(k.Text)})
		}
	}))
	f.Comment("IsNamedKey reports whether name is one of NamedKeys (the decoders' key format).")
	f.Func().Id("IsNamedKey").Params(jen.Id("name").String()).Bool().Block(
		jen.List(jen.Id("_"), jen.Id("ok")).Op(":=").Id("NamedKeys").Index(jen.Id("name")),
		jen.Return(jen.Id("ok")),
	)
	return f
}

// envelopeFile renders the envelope and the refusal facts.
func (g *goGen) envelopeFile() *jen.File {
	f := g.file()
	var fields []jen.Code
	for _, e := range g.spec.Envelope {
		var t jen.Code = jen.Qual("encoding/json", "RawMessage")
		if e.Name != "facts" {
			t = g.goType(e, false)
		}
		tag := e.Name
		if !e.Always {
			tag += ",omitempty"
		}
		fields = append(fields, jen.Id(e.GoName).Add(t).Tag(map[string]string{"json": tag}).Comment(e.Doc))
	}
	f.Comment("Envelope is the one result every invocation returns.")
	f.Type().Id("Envelope").Struct(fields...)
	if len(g.spec.Texts) > 0 {
		var defs []jen.Code
		for _, t := range g.spec.Texts {
			defs = append(defs, jen.Id("Text"+ir.Camel(t[0])).Op("=").Lit(t[1]))
		}
		f.Comment("Fixed sentences the runtime says verbatim.")
		f.Const().Defs(defs...)
	}
	rf := g.structFields(g.spec.RefusalFacts, false)
	rf = append(rf,
		jen.Id("Tab").String().Tag(map[string]string{"json": "tab,omitempty"}).Comment("The tab the refusal concerns, when one was resolved."),
		jen.Id("Message").String().Tag(map[string]string{"json": "-"}).Comment("Why, for the summary; never a fact."))
	f.Comment("Refusal is a typed refusal: its facts and the reason the language context words.")
	f.Type().Id("Refusal").Struct(rf...)
	return f
}

// catalogFile renders the surface's Handler interface, catalog and lookup.
func (g *goGen) catalogFile() *jen.File {
	f := g.file()
	var methods []jen.Code
	var entries []jen.Code
	for _, t := range g.surface.Tools {
		n := t.GoName
		methods = append(methods, jen.Comment(n+" runs "+t.Name+": "+t.Doc), jen.Id(n).Params(jen.Id("ctx").Qual("context", "Context"), jen.Id("args").Op("*").Id(n+"Args")).Params(jen.Op("*").Id(n+"Facts"), g.core("Outcome")))
		entries = append(entries, jen.Id("tool"+n))
	}
	f.Comment("Handler is what the runtime implements: one method per tool, typed")
	f.Comment("arguments in, typed facts and an outcome out. A nil facts pointer means")
	f.Comment("the outcome carries a refusal and no tool facts.")
	f.Type().Id("Handler").Interface(methods...)
	f.Comment("Catalog lists every tool of the surface, sorted by name.")
	f.Var().Id("Catalog").Op("=").Index().Op("*").Add(g.core("Tool")).Values(entries...)
	f.Comment("Lookup returns the catalog entry of a tool name, or nil.")
	f.Func().Id("Lookup").Params(jen.Id("name").String()).Op("*").Add(g.core("Tool")).Block(
		jen.For(jen.List(jen.Id("_"), jen.Id("t")).Op(":=").Range().Id("Catalog")).Block(
			jen.If(jen.Id("t").Dot("Name").Op("==").Id("name")).Block(jen.Return(jen.Id("t"))),
		),
		jen.Return(jen.Nil()),
	)
	if b := g.surface.Budget; b != nil {
		f.Commentf("DiscoveryBudget bounds the bytes of this surface's tools list, input side (%s).", b.Name)
		f.Const().Id("DiscoveryBudget").Op("=").Add(g.boundConst(b, "Max"))
	}
	return f
}

// typesFile renders the catalog types every surface's package shares: what
// the pipeline iterates, classifies and dispatches by.
func (g *goGen) typesFile() *jen.File {
	f := g.file()
	capability := g.spec.EnumOf("capability")
	f.Comment("Needs is what a call needs from the authority: capabilities, policy")
	f.Comment("constraints and the URLs whose hosts it will reach.")
	f.Type().Id("Needs").Struct(
		jen.Id("Caps").Id("Caps"),
		jen.Id("Constraints").Index().String(),
		jen.Id("URLs").Index().String(),
	)
	f.Comment("Caps is a set of capabilities.")
	f.Type().Id("Caps").Uint8()
	f.Comment("Has reports whether every capability of o is in c.")
	f.Func().Params(jen.Id("c").Id("Caps")).Id("Has").Params(jen.Id("o").Id("Caps")).Bool().Block(
		jen.Return(jen.Id("c").Op("&").Id("o").Op("==").Id("o")),
	)
	f.Comment("List names the capabilities in c in canonical order.")
	f.Func().Params(jen.Id("c").Id("Caps")).Id("List").Params().Index().Id(capability.GoName).Block(
		jen.Var().Id("out").Index().Id(capability.GoName),
		jen.For(jen.List(jen.Id("i"), jen.Id("n")).Op(":=").Range().Id(capability.GoName+"Values")).Block(
			jen.If(jen.Id("c").Op("&").Parens(jen.Lit(1).Op("<<").Id("i")).Op("!=").Lit(0)).Block(
				jen.Id("out").Op("=").Append(jen.Id("out"), jen.Id("n")),
			),
		),
		jen.Return(jen.Id("out")),
	)
	f.Comment("CapsOf parses capability names; unknown names are ignored (the decoder")
	f.Comment("refused them already).")
	f.Func().Id("CapsOf").Params(jen.Id("names").Index().String()).Id("Caps").Block(
		jen.Var().Id("c").Id("Caps"),
		jen.For(jen.List(jen.Id("_"), jen.Id("n")).Op(":=").Range().Id("names")).Block(
			jen.For(jen.List(jen.Id("i"), jen.Id("v")).Op(":=").Range().Id(capability.GoName+"Values")).Block(
				jen.If(jen.String().Call(jen.Id("v")).Op("==").Id("n")).Block(
					jen.Id("c").Op("|=").Lit(1).Op("<<").Id("i"),
				),
			),
		),
		jen.Return(jen.Id("c")),
	)
	f.Comment("Restrictions are a call's own narrowing of authority.")
	f.Type().Id("Restrictions").Struct(
		jen.Id("Hosts").Index().String(),
		jen.Id("Capabilities").Index().String(),
	)
	f.Comment("Args is every tool's decoded arguments, whatever its surface.")
	f.Type().Id("Args").Interface(
		jen.Id("ToolName").Params().String(),
		jen.Id("Needs").Params().Id("Needs"),
		jen.Id("Restrictions").Params().Id("Restrictions"),
		jen.Id("TabHandle").Params().String(),
		jen.Id("Handles").Params().Index().String(),
		jen.Id("SetTab").Params(jen.Id("tab").String()),
		jen.Id("Branch").Params().String(),
		jen.Id("Timeout").Params().Params(jen.Int(), jen.Bool()),
		jen.Id("SetTimeout").Params(jen.Id("ms").Int()),
		jen.Id("TargetHint").Params().String(),
	)
	f.Comment("Image is one bounded image content block.")
	f.Type().Id("Image").Struct(
		jen.Id("MIME").String(),
		jen.Id("Data").Index().Byte(),
	)
	enumType := func(name string) jen.Code { return jen.Id(g.spec.EnumOf(name).GoName) }
	f.Comment("Outcome is everything of an envelope but its facts and invocation: what a")
	f.Comment("handler reports beside its typed facts.")
	f.Type().Id("Outcome").Struct(
		jen.Id("Status").Add(enumType("status")),
		jen.Id("Effect").Add(enumType("effect")),
		jen.Id("Readiness").Add(enumType("readiness")),
		jen.Id("RepeatSafe").Bool(),
		jen.Id("Summary").String(),
		jen.Id("NextSteps").Index().String(),
		jen.Id("Refusal").Op("*").Id("Refusal"),
		jen.Id("Image").Op("*").Id("Image"),
	)
	f.Comment("Annotations are a tool's MCP hints.")
	f.Type().Id("Annotations").Struct(jen.List(jen.Id("ReadOnly"), jen.Id("Destructive"), jen.Id("Idempotent"), jen.Id("OpenWorld")).Bool())
	f.Comment("Tool is one catalog entry: what the runtime iterates to serve a surface.")
	f.Type().Id("Tool").Struct(
		jen.Id("Name").String(),
		jen.Id("Title").String(),
		jen.Id("Composite").Bool(),
		jen.Id("Annotations").Id("Annotations"),
		jen.Comment("Definition is the MCP tool JSON, served byte for byte."),
		jen.Id("Definition").Index().Byte(),
		jen.Comment("MinCaps holds, for each way of calling the tool (each branch, and each"),
		jen.Comment("field that sets the capabilities), the least it needs: an authority"),
		jen.Comment("that admits none of them admits no call of the tool."),
		jen.Id("MinCaps").Index().Id("Caps"),
		jen.Id("Decode").Func().Params(jen.Id("data").Index().Byte()).Params(jen.Id("Args"), jen.Op("*").Id("DecodeError")),
		jen.Comment("DecodeStep decodes the tool's arguments inside a composite step: no tab"),
		jen.Comment("and no restrictions of its own."),
		jen.Id("DecodeStep").Func().Params(jen.Id("data").Index().Byte()).Params(jen.Id("Args"), jen.Op("*").Id("DecodeError")),
		jen.Comment("Invoke calls the tool's method on h, the Handler of its surface's package."),
		jen.Id("Invoke").Func().Params(jen.Id("ctx").Qual("context", "Context"), jen.Id("h").Any(), jen.Id("a").Id("Args")).Params(jen.Any(), jen.Id("Outcome")),
	)
	return f
}

// decodeFile renders the decode error every surface's decoders return,
// built from the support package's error at their public boundary.
func (g *goGen) decodeFile() *jen.File {
	f := g.file()
	rule, reason := g.spec.EnumOf("rule"), g.spec.EnumOf("reason")
	f.Comment("DecodeError says which field broke which rule.")
	f.Type().Id("DecodeError").Struct(
		jen.Id("Pointer").String().Comment("JSON Pointer of the field (\"\" is the whole object)"),
		jen.Id("Rule").Id(rule.GoName),
		jen.Id("Limit").String().Comment("the limit of that rule, when it has one"),
		jen.Id("Message").String(),
	)
	f.Func().Params(jen.Id("e").Op("*").Id("DecodeError")).Id("Error").Params().String().Block(
		jen.Id("p").Op(":=").Id("e").Dot("Pointer"),
		jen.If(jen.Id("p").Op("==").Lit("")).Block(jen.Id("p").Op("=").Lit("/")),
		jen.Return(jen.Id("p").Op("+").Lit(": ").Op("+").Id("e").Dot("Message")),
	)
	f.Comment("Refusal turns a decode error into the refusal the envelope carries.")
	f.Func().Params(jen.Id("e").Op("*").Id("DecodeError")).Id("Refusal").Params().Op("*").Id("Refusal").Block(
		jen.Return(jen.Op("&").Id("Refusal").Values(jen.Dict{
			jen.Id("Reason"): jen.Id(reason.Value("invalid_arguments").GoName), jen.Id("Pointer"): jen.Id("e").Dot("Pointer"),
			jen.Id("Rule"): jen.Id("e").Dot("Rule"), jen.Id("Limit"): jen.Id("e").Dot("Limit"), jen.Id("Message"): jen.Id("e").Dot("Message"),
		})),
	)
	f.Comment("NewDecodeError types a decoder's error (its rule is one of RuleValues:")
	f.Comment("gen/ checks that every rule the support package names is).")
	f.Func().Id("NewDecodeError").Params(jen.Id("e").Op("*").Add(g.sup("Error"))).Op("*").Id("DecodeError").Block(
		jen.Return(jen.Op("&").Id("DecodeError").Values(jen.Dict{
			jen.Id("Pointer"): jen.Id("e").Dot("Pointer"), jen.Id("Rule"): jen.Id(rule.GoName).Call(jen.Id("e").Dot("Rule")),
			jen.Id("Limit"): jen.Id("e").Dot("Limit"), jen.Id("Message"): jen.Id("e").Dot("Message"),
		})),
	)
	if g.uses(func(f *ir.Field) bool { return f.Type == ir.TypeScalar }) {
		f.Comment("Scalar is a string, boolean or number input (the support package).")
		f.Type().Id("Scalar").Op("=").Add(g.sup("Scalar"))
		f.Comment("Which kind a Scalar holds.")
		f.Const().Defs(
			jen.Id("ScalarNone").Op("=").Add(g.sup("ScalarNone")),
			jen.Id("ScalarString").Op("=").Add(g.sup("ScalarString")),
			jen.Id("ScalarBool").Op("=").Add(g.sup("ScalarBool")),
			jen.Id("ScalarNumber").Op("=").Add(g.sup("ScalarNumber")),
		)
	}
	if g.uses(func(f *ir.Field) bool { return f.Format == "base64" }) {
		f.Comment("Base64Size is the decoded size of standard base64 text the decoder checked.")
		f.Func().Id("Base64Size").Params(jen.Id("s").String()).Int64().Block(jen.Return(g.sup("Base64Size").Call(jen.Id("s"))))
	}
	return f
}

// uses reports whether any tool input, at any depth, satisfies pred.
func (g *goGen) uses(pred func(*ir.Field) bool) bool {
	var walk func(fs []*ir.Field) bool
	walk = func(fs []*ir.Field) bool {
		for _, f := range fs {
			if f == nil {
				continue
			}
			if pred(f) || (f.Items != nil && walk([]*ir.Field{f.Items})) || walk(f.Fields) {
				return true
			}
		}
		return false
	}
	for _, t := range g.spec.Tools {
		if walk(t.Inputs) {
			return true
		}
		for _, b := range t.Branches {
			if walk(b.Override) {
				return true
			}
		}
	}
	return false
}

// readinessFrom renders a claim's readiness mapping: Ghostlight's readiness
// onto the profile's, as the runtime reports it.
func (g *goGen) readinessFrom(f *jen.File) {
	c := g.surface.Claim
	var to *ir.Enum
	for _, e := range g.surface.Enums {
		if e.Name == "readiness" {
			to = e
		}
	}
	from := g.spec.EnumOf("readiness")
	if c == nil || to == nil || from == nil || len(c.Readiness) == 0 {
		return
	}
	f.Comment("ReadinessFrom maps Ghostlight's readiness onto the profile's (the claim's readiness table).")
	f.Var().Id("ReadinessFrom").Op("=").Map(g.named(from, from.GoName)).Id(to.GoName).Values(jen.DictFunc(func(d jen.Dict) {
		for _, m := range c.Readiness {
			d[g.named(from, from.Value(m[0]).GoName)] = jen.Id(to.Value(m[1]).GoName)
		}
	}))
}

// credentialClasses emits spec/credentials.cue's table: the type of a row
// and the rows. The JSON names are what the page code reads (pagejs
// declares the table ahead of it).
func (g *goGen) credentialClasses(f *jen.File) {
	f.Comment("CredentialClass is one class of credential field (spec/credentials.cue): a field is")
	f.Comment("of the class when its input type, one of its autocomplete tokens or a word of its names")
	f.Comment("is listed, or, for a Numeric class, when it takes a short run of digits with one of")
	f.Comment("ContextWords in the text around it.")
	f.Type().Id("CredentialClass").Struct(
		jen.Id("Name").String().Tag(map[string]string{"json": "name"}),
		jen.Id("InputTypes").Index().String().Tag(map[string]string{"json": "inputTypes"}),
		jen.Id("Autocomplete").Index().String().Tag(map[string]string{"json": "autocomplete"}),
		jen.Id("Words").Index().String().Tag(map[string]string{"json": "words"}),
		jen.Id("ContextWords").Index().String().Tag(map[string]string{"json": "contextWords"}),
		jen.Id("Numeric").Bool().Tag(map[string]string{"json": "numeric"}),
	)
	var rows []jen.Code
	for _, c := range g.spec.CredentialClasses {
		d := jen.Dict{jen.Id("Name"): jen.Lit(c.Name)}
		if len(c.InputTypes) > 0 {
			d[jen.Id("InputTypes")] = stringsLit(c.InputTypes)
		}
		if len(c.Autocomplete) > 0 {
			d[jen.Id("Autocomplete")] = stringsLit(c.Autocomplete)
		}
		if len(c.Words) > 0 {
			d[jen.Id("Words")] = stringsLit(c.Words)
		}
		if len(c.ContextWords) > 0 {
			d[jen.Id("ContextWords")] = stringsLit(c.ContextWords)
		}
		if c.Numeric {
			d[jen.Id("Numeric")] = jen.True()
		}
		rows = append(rows, jen.Line().Values(d))
	}
	f.Comment("CredentialClasses is the table, in name order.")
	f.Var().Id("CredentialClasses").Op("=").Index().Id("CredentialClass").Values(append(rows, jen.Line())...)
}

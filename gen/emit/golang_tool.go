package emit

import (
	"strings"

	"github.com/dave/jennifer/jen"

	"github.com/ghostlight-dev/ghostlight/gen/ir"
)

// toolFile renders one tool: arguments, decoder, classification, facts and
// the glue binding it to its Handler method.
func (g *goGen) toolFile(t *ir.Tool) *jen.File {
	f := g.file()
	g.tool = t
	defer func() { g.tool = nil }()
	name := Camel(t.Name)
	args := name + "Args"
	facts := name + "Facts"

	f.Commentf("%s are the decoded arguments of %s.", args, t.Name)
	fields := g.structFields(name, t.Inputs, true)
	fields = append(fields, jen.Id("branch").String())
	f.Type().Id(args).Struct(fields...)

	if len(t.Branches) > 0 {
		var consts []jen.Code
		for _, b := range t.Branches {
			consts = append(consts, jen.Id(name+"Branch"+Camel(b.Name)).Op("=").Lit(b.Name).Comment(b.Doc))
		}
		f.Commentf("Branches of %s, as Branch() reports them.", t.Name)
		f.Const().Defs(consts...)
	}

	g.enumConsts(f, name, t.Inputs)
	keys := g.keys(t)
	keysVar := lowerFirst(name) + "Keys"
	var keyLits []jen.Code
	for _, k := range keys {
		keyLits = append(keyLits, jen.Lit(k))
	}
	f.Var().Id(keysVar).Op("=").Index().String().Values(keyLits...)

	f.Commentf("Decode%s decodes and validates %s arguments, filling defaults.", name, t.Name)
	f.Func().Id("Decode"+name).Params(jen.Id("d").Index().Byte()).Params(jen.Op("*").Id(args), jen.Op("*").Id("DecodeError")).Block(
		jen.Id("o").Op(":=").New(jen.Id(args)),
		jen.If(jen.Err().Op(":=").Id("o").Dot("decode").Call(jen.Id("d"), jen.Nil(), jen.False(), jen.Lit("")), jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Nil(), jen.Err())),
		jen.Return(jen.Id("o"), jen.Nil()),
	)
	f.Comment("decode decodes into o; step forbids tab and restrictions, extra names a")
	f.Comment("composite step's discriminator to pass over.")
	f.Func().Params(jen.Id("o").Op("*").Id(args)).Id("decode").Params(jen.Id("d").Index().Byte(), jen.Id("p").Op("*").Id("path"), jen.Id("step").Bool(), jen.Id("extra").String()).Op("*").Id("DecodeError").Block(g.decodeBody(t, keys, keysVar)...)
	var defs []jen.Code
	for _, fl := range t.Inputs {
		if hasDefault(fl) && !t.BranchOwned(fl.Name) {
			defs = append(defs, jen.Id("o").Dot(goName(fl)).Op("=").Add(defaultValue(fl)))
		}
	}
	f.Comment("setDefaults fills every default that does not depend on a branch.")
	f.Func().Params(jen.Id("o").Op("*").Id(args)).Id("setDefaults").Params().Block(defs...)

	g.methods(f, t, args)

	f.Commentf("%s are the canonical facts of a %s result.", facts, t.Name)
	f.Type().Id(facts).Struct(g.structFields(name, t.Facts, false)...)
	var norm []jen.Code
	for _, fl := range t.Facts {
		if fl.Type == "array" && fl.Always {
			norm = append(norm, jen.If(jen.Id("f").Dot(goName(fl)).Op("==").Nil()).Block(
				jen.Id("f").Dot(goName(fl)).Op("=").Add(g.goType(name, fl, false)).Values()))
		}
	}
	f.Comment("normalize renders always-present lists as [] rather than null.")
	f.Func().Params(jen.Id("f").Op("*").Id(facts)).Id("normalize").Params().Block(norm...)

	f.Func().Id("invoke"+name).Params(jen.Id("ctx").Qual("context", "Context"), jen.Id("h").Id("Handler"), jen.Id("a").Id("Args")).Params(jen.Any(), jen.Id("Outcome")).Block(
		jen.List(jen.Id("f"), jen.Id("o")).Op(":=").Id("h").Dot(name).Call(jen.Id("ctx"), jen.Id("a").Assert(jen.Op("*").Id(args))),
		jen.If(jen.Id("f").Op("==").Nil()).Block(jen.Return(jen.Nil(), jen.Id("o"))),
		jen.Id("f").Dot("normalize").Call(),
		jen.Return(jen.Id("f"), jen.Id("o")),
	)

	f.Anon("embed")
	f.Comment("//go:embed tools/" + t.Name + ".json")
	f.Var().Id("definition" + name).Index().Byte()

	decodeStep := jen.Func().Params(jen.Id("d").Index().Byte()).Params(jen.Id("Args"), jen.Op("*").Id("DecodeError")).Block(
		jen.Id("o").Op(":=").New(jen.Id(args)),
		jen.If(jen.Err().Op(":=").Id("o").Dot("decode").Call(jen.Id("d"), jen.Nil(), jen.True(), jen.Lit("")), jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Nil(), jen.Err())),
		jen.Return(jen.Id("o"), jen.Nil()),
	)
	f.Var().Id("tool" + name).Op("=").Op("&").Id("Tool").Values(jen.Dict{
		jen.Id("Name"):      jen.Lit(t.Name),
		jen.Id("Title"):     jen.Lit(t.Title),
		jen.Id("Composite"): jen.Lit(t.Composite),
		jen.Id("Annotations"): jen.Id("Annotations").Values(jen.Dict{
			jen.Id("ReadOnly"): jen.Lit(t.Annotations.ReadOnly), jen.Id("Destructive"): jen.Lit(t.Annotations.Destructive),
			jen.Id("Idempotent"): jen.Lit(t.Annotations.Idempotent), jen.Id("OpenWorld"): jen.Lit(t.Annotations.OpenWorld),
		}),
		jen.Id("Definition"): jen.Id("definition" + name),
		jen.Id("Decode"): jen.Func().Params(jen.Id("d").Index().Byte()).Params(jen.Id("Args"), jen.Op("*").Id("DecodeError")).Block(
			jen.List(jen.Id("o"), jen.Err()).Op(":=").Id("Decode"+name).Call(jen.Id("d")),
			jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Nil(), jen.Err())),
			jen.Return(jen.Id("o"), jen.Nil()),
		),
		jen.Id("DecodeStep"): decodeStep,
		jen.Id("Invoke"):     jen.Id("invoke" + name),
	})
	return f
}

// keys are the member names the decoder accepts, in declaration order; a tool
// used as a composite step also knows its variant key.
func (g *goGen) keys(t *ir.Tool) []string {
	var keys []string
	for _, fl := range t.Inputs {
		keys = append(keys, fl.Name)
	}
	return keys
}

func rawSet(i int) *jen.Statement { return jen.Id("raw").Index(jen.Lit(i)).Dot("set").Call() }

func (g *goGen) decodeBody(t *ir.Tool, keys []string, keysVar string) []jen.Code {
	idx := func(n string) int {
		for i, k := range keys {
			if k == n {
				return i
			}
		}
		panic("no field " + n + " in " + t.Name)
	}
	body := []jen.Code{
		jen.Var().Id("raw").Index(jen.Lit(len(keys))).Id("span"),
		jen.If(jen.Err().Op(":=").Id("members").Call(jen.Id("d"), jen.Id("p"), jen.Id(keysVar), jen.Id("raw").Index(jen.Empty(), jen.Empty()), jen.Id("extra")), jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err())),
	}
	var stepChecks []jen.Code
	for _, n := range []string{"tab", "restrict_hosts", "restrict_capabilities"} {
		if t.Input(n) != nil {
			stepChecks = append(stepChecks, jen.If(rawSet(idx(n))).Block(jen.Return(jen.Id("stepForbidden").Call(jen.Id("p"), jen.Lit(n)))))
		}
	}
	body = append(body, jen.If(jen.Id("step")).Block(stepChecks...))
	for _, fl := range t.Inputs {
		if fl.Required {
			body = append(body, jen.If(jen.Op("!").Add(rawSet(idx(fl.Name)))).Block(jen.Return(jen.Id("required").Call(jen.Id("p"), jen.Lit(fl.Name)))))
		}
	}
	body = append(body, g.branchSelect(t, idx)...)
	body = append(body, g.fieldDecodes(Camel(t.Name), t.Inputs, func(fl *ir.Field) []jen.Code {
		if fl.Name == t.Discriminator {
			return []jen.Code{} // decoded with the branch selection
		}
		var cases []jen.Code
		for _, b := range t.Branches {
			if o := b.OverrideOf(fl.Name); o != nil {
				cases = append(cases, jen.Case(jen.Lit(b.Name)).Block(g.fieldStmts(t, o, fl)...))
			}
		}
		if cases == nil {
			return nil
		}
		cases = append(cases, jen.Default().Block(g.fieldStmts(t, fl, fl)...))
		return []jen.Code{jen.Switch(jen.Id("o").Dot("branch")).Block(cases...)}
	})...)
	for _, c := range t.Conflicts {
		cond := rawSet(idx(c.A)).Op("&&").Add(rawSet(idx(c.B)))
		if c.Value != nil {
			cond = cond.Op("&&").Id("o").Dot(goName(t.Input(c.B))).Op("==").Lit(*c.Value)
		}
		body = append(body, jen.If(cond).Block(jen.Return(jen.Id("conflictError").Call(jen.Id("p"), jen.Lit(c.A), jen.Lit(c.B), jen.Lit(c.Doc)))))
	}
	for _, g := range t.Together {
		var any *jen.Statement
		for _, n := range g {
			if any == nil {
				any = rawSet(idx(n))
			} else {
				any = any.Op("||").Add(rawSet(idx(n)))
			}
		}
		var checks []jen.Code
		for _, n := range g {
			checks = append(checks, jen.If(jen.Op("!").Add(rawSet(idx(n)))).Block(jen.Return(jen.Id("branchRequired").Call(jen.Id("p"), jen.Lit(n), jen.Lit(strings.Join(g, ", "))))))
		}
		body = append(body, jen.If(any).Block(checks...))
	}
	for _, e := range t.EmptyNeeds {
		fl := t.Input(e.Field)
		val := jen.Id("o").Dot(goName(fl))
		if pointerField(fl) {
			val = jen.Op("*").Id("o").Dot(goName(fl))
		}
		body = append(body, jen.If(rawSet(idx(e.Field)).Op("&&").Add(val).Op("==").Lit("").Op("&&").Op("!").Id("o").Dot(goName(t.Input(e.Needs)))).Block(
			jen.Return(jen.Id("emptyText").Call(jen.Id("p"), jen.Lit(e.Field), jen.Lit(e.Needs)))))
	}
	body = append(body, jen.Return(jen.Nil()))
	return body
}

// fieldStmts decodes one field using def (possibly a branch's narrowing)
// into the Go field of fl.
func (g *goGen) fieldStmts(t *ir.Tool, def, fl *ir.Field) []jen.Code {
	return append([]jen.Code{jen.Id("p").Op(":=").Op("&").Id("path").Values(jen.Dict{jen.Id("parent"): jen.Id("p"), jen.Id("key"): jen.Lit(fl.Name), jen.Id("index"): jen.Lit(-1)})},
		g.decodeValue(Camel(t.Name), def, jen.Id("d").Index(jen.Id("r").Dot("start"), jen.Id("r").Dot("end")), jen.Id("p"), jen.Id("o").Dot(goName(fl)), pointerField(fl))...)
}

// branchSelect emits the choice of branch and its required/forbidden checks.
func (g *goGen) branchSelect(t *ir.Tool, idx func(string) int) []jen.Code {
	if len(t.Branches) == 0 {
		return nil
	}
	var out []jen.Code
	label := func(b *ir.Branch) string {
		if t.Discriminator != "" {
			return t.Discriminator + " " + b.When
		}
		return b.Name
	}
	checks := func(b *ir.Branch) []jen.Code {
		stmts := []jen.Code{jen.Id("o").Dot("branch").Op("=").Lit(b.Name)}
		for _, r := range b.Required {
			stmts = append(stmts, jen.If(jen.Op("!").Add(rawSet(idx(r)))).Block(jen.Return(jen.Id("branchRequired").Call(jen.Id("p"), jen.Lit(r), jen.Lit(label(b))))))
		}
		for _, fl := range t.Inputs {
			if t.BranchOwned(fl.Name) && !b.Lists(fl.Name) {
				stmts = append(stmts, jen.If(rawSet(idx(fl.Name))).Block(jen.Return(jen.Id("branchForbidden").Call(jen.Id("p"), jen.Lit(fl.Name), jen.Lit(label(b))))))
			}
		}
		return stmts
	}
	if t.Discriminator != "" {
		disc := t.Input(t.Discriminator)
		i := idx(disc.Name)
		decode := g.fieldStmts(t, disc, disc)
		stmt := jen.If(jen.Id("r").Op(":=").Id("raw").Index(jen.Lit(i)), jen.Id("r").Dot("set").Call()).Block(decode...)
		if hasDefault(disc) {
			stmt = stmt.Else().Block(jen.Id("o").Dot(goName(disc)).Op("=").Add(defaultValue(disc)))
		}
		out = append(out, stmt)
		var cases []jen.Code
		for _, b := range t.Branches {
			cases = append(cases, jen.Case(jen.Lit(b.When)).Block(checks(b)...))
		}
		out = append(out, jen.Switch(jen.Id("o").Dot(goName(disc))).Block(cases...))
		return out
	}
	// Presence: the first branch whose key is present wins; a second is a conflict.
	out = append(out, jen.Var().Id("sel").Op(",").Id("selKey").String())
	var alternatives []string
	var def *ir.Branch
	for _, b := range t.Branches {
		if b.IsDefault {
			def = b
			continue
		}
		alternatives = append(alternatives, b.Keys[0])
		// key := first present key of b
		var chain *jen.Statement
		for j := len(b.Keys) - 1; j >= 0; j-- {
			k := b.Keys[j]
			if chain == nil {
				chain = jen.If(rawSet(idx(k))).Block(jen.Id("key").Op("=").Lit(k))
			} else {
				chain = jen.If(rawSet(idx(k))).Block(jen.Id("key").Op("=").Lit(k)).Else().Add(chain)
			}
		}
		out = append(out, jen.Block(
			jen.Id("key").Op(":=").Lit(""),
			chain,
			jen.If(jen.Id("key").Op("!=").Lit("")).Block(
				jen.If(jen.Id("sel").Op("!=").Lit("")).Block(jen.Return(jen.Id("conflictError").Call(jen.Id("p"), jen.Id("selKey"), jen.Id("key"), jen.Lit("choose one of "+strings.Join(alternativesAll(t), ", "))))),
				jen.Id("sel").Op(",").Id("selKey").Op("=").List(jen.Lit(b.Name), jen.Id("key")),
			),
		))
	}
	if def != nil {
		out = append(out, jen.If(jen.Id("sel").Op("==").Lit("")).Block(jen.Id("sel").Op("=").Lit(def.Name)))
	} else {
		out = append(out, jen.If(jen.Id("sel").Op("==").Lit("")).Block(jen.Return(jen.Id("branchMissing").Call(jen.Id("p"), jen.Lit(strings.Join(alternatives, ", "))))))
	}
	var cases []jen.Code
	for _, b := range t.Branches {
		cases = append(cases, jen.Case(jen.Lit(b.Name)).Block(checks(b)...))
	}
	out = append(out, jen.Switch(jen.Id("sel")).Block(cases...))
	return out
}

// alternativesAll names the first key of every keyed branch.
func alternativesAll(t *ir.Tool) []string {
	var out []string
	for _, b := range t.Branches {
		if !b.IsDefault {
			out = append(out, b.Keys[0])
		}
	}
	return out
}

func capsExpr(caps []string) jen.Code {
	if len(caps) == 0 {
		return jen.Lit(0)
	}
	var e *jen.Statement
	for _, c := range caps {
		if e == nil {
			e = jen.Id("Cap" + Camel(c))
		} else {
			e = e.Op("|").Id("Cap" + Camel(c))
		}
	}
	return e
}

func stringsLit(l []string) jen.Code {
	var v []jen.Code
	for _, s := range l {
		v = append(v, jen.Lit(s))
	}
	return jen.Index().String().Values(v...)
}

func (g *goGen) whenPresent(t *ir.Tool, wps []*ir.WhenPresent) []jen.Code {
	var out []jen.Code
	for _, w := range wps {
		fl := t.Input(w.Field)
		var st jen.Code
		if w.Set != nil {
			st = jen.Id("n").Dot("Caps").Op("=").Add(capsExpr(w.Set))
		} else {
			st = jen.Id("n").Dot("Caps").Op("|=").Add(capsExpr(w.Add))
		}
		out = append(out, jen.If(present(fl, jen.Id("o").Dot(goName(fl)))).Block(st))
	}
	return out
}

// methods emits the Args interface methods.
func (g *goGen) methods(f *jen.File, t *ir.Tool, args string) {
	recv := jen.Id("o").Op("*").Id(args)
	f.Comment("ToolName names the tool.")
	f.Func().Params(recv).Id("ToolName").Params().String().Block(jen.Return(jen.Lit(t.Name)))
	f.Comment("Branch names the input branch the decoder chose (\"\" when the tool has none).")
	f.Func().Params(jen.Id("o").Op("*").Id(args)).Id("Branch").Params().String().Block(jen.Return(jen.Id("o").Dot("branch")))

	body := []jen.Code{jen.Id("n").Op(":=").Id("Needs").Values(jen.Dict{jen.Id("Caps"): capsExpr(t.Capabilities)})}
	if len(t.Constraints) > 0 {
		body = append(body, jen.Id("n").Dot("Constraints").Op("=").Add(stringsLit(t.Constraints)))
	}
	var cases []jen.Code
	for _, b := range t.Branches {
		var st []jen.Code
		if b.HasCaps {
			st = append(st, jen.Id("n").Dot("Caps").Op("=").Add(capsExpr(b.Capabilities)))
		}
		if len(b.Constraints) > 0 {
			st = append(st, jen.Id("n").Dot("Constraints").Op("=").Add(stringsLit(b.Constraints)))
		}
		st = append(st, g.whenPresent(t, b.WhenPresent)...)
		if len(st) > 0 {
			cases = append(cases, jen.Case(jen.Lit(b.Name)).Block(st...))
		}
	}
	if len(cases) > 0 {
		body = append(body, jen.Switch(jen.Id("o").Dot("branch")).Block(cases...))
	}
	body = append(body, g.whenPresent(t, t.WhenPresent)...)
	for _, fl := range t.Inputs {
		if fl.Format == "url" && fl.Type == "string" {
			body = append(body, jen.If(present(fl, jen.Id("o").Dot(goName(fl)))).Block(jen.Id("n").Dot("URLs").Op("=").Append(jen.Id("n").Dot("URLs"), jen.Id("o").Dot(goName(fl)))))
		}
	}
	body = append(body, jen.Return(jen.Id("n")))
	f.Comment("Needs classifies the call: capabilities, constraints and hosts it needs.")
	f.Func().Params(jen.Id("o").Op("*").Id(args)).Id("Needs").Params().Id("Needs").Block(body...)

	f.Comment("Restrictions returns the call's own narrowing of authority.")
	f.Func().Params(jen.Id("o").Op("*").Id(args)).Id("Restrictions").Params().Id("Restrictions").Block(
		jen.Return(jen.Id("Restrictions").Values(jen.Dict{jen.Id("Hosts"): jen.Id("o").Dot("RestrictHosts"), jen.Id("Capabilities"): jen.Id("o").Dot("RestrictCapabilities")})))
	tab := jen.Lit("")
	if t.Input("tab") != nil {
		tab = jen.Id("o").Dot("Tab")
	}
	f.Comment("TabHandle returns the tab the call names, or \"\".")
	f.Func().Params(jen.Id("o").Op("*").Id(args)).Id("TabHandle").Params().String().Block(jen.Return(tab))
	set := []jen.Code{}
	if t.Input("tab") != nil {
		set = append(set, jen.Id("o").Dot("Tab").Op("=").Id("tab"))
	}
	f.Comment("SetTab points the call at a tab (a composite's tab for its steps); a no-op for tools without one.")
	f.Func().Params(jen.Id("o").Op("*").Id(args)).Id("SetTab").Params(jen.Id("tab").String()).Block(set...)
}

// enumConsts names every value of the tool's own string enums
// (<Tool><Field><Value>), so the executor never types them again. Enums that
// are one of the spec's named sets already have typed constants.
func (g *goGen) enumConsts(f *jen.File, name string, fields []*ir.Field) {
	var defs []jen.Code
	for _, fl := range fields {
		if fl.Type != "string" || len(fl.Enum) == 0 || g.namedEnum(fl.Enum) {
			continue
		}
		for _, v := range fl.Enum {
			defs = append(defs, jen.Id(name+Camel(fl.Name)+Camel(v)).Op("=").Lit(v))
		}
	}
	if len(defs) > 0 {
		f.Commentf("Values of %s's enums.", name)
		f.Const().Defs(defs...)
	}
}

func (g *goGen) namedEnum(values []string) bool {
	for _, e := range g.spec.Enums {
		if strings.Join(e.Values, ",") == strings.Join(values, ",") {
			return true
		}
	}
	return false
}

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
	name := t.GoName
	args := name + "Args"
	facts := name + "Facts"

	f.Commentf("%s are the decoded arguments of %s.", args, t.Name)
	fields := g.structFields(t.Inputs, true)
	fields = append(fields, jen.Id("branch").String())
	f.Type().Id(args).Struct(fields...)

	if len(t.Branches) > 0 {
		var consts []jen.Code
		for _, b := range t.Branches {
			consts = append(consts, jen.Id(b.GoName).Op("=").Lit(b.Name).Comment(b.Doc))
		}
		f.Commentf("Branches of %s, as Branch() reports them.", t.Name)
		f.Const().Defs(consts...)
	}
	// The tool's own inline enums are named up front; nested ones follow
	// the decoders that name them.
	for _, fl := range t.Inputs {
		if fl.Type == ir.TypeString && fl.Enum != nil {
			g.anonConsts(fl.Enum)
		}
	}
	g.flushConsts(f)
	keysVar := lowerFirst(name) + "Keys"
	var keyLits []jen.Code
	for _, fl := range t.Inputs {
		keyLits = append(keyLits, jen.Lit(fl.Name))
	}
	f.Var().Id(keysVar).Op("=").Index().String().Values(keyLits...)

	decErr := jen.Op("*").Add(g.core("DecodeError"))
	f.Commentf("Decode%s decodes and validates %s arguments, filling defaults.", name, t.Name)
	f.Func().Id("Decode"+name).Params(jen.Id("d").Index().Byte()).Params(jen.Op("*").Id(args), decErr.Clone()).Block(
		jen.Id("o").Op(":=").New(jen.Id(args)),
		jen.If(jen.Err().Op(":=").Id("o").Dot("decode").Call(jen.Id("d"), jen.Nil(), jen.False(), jen.Lit("")), jen.Err().Op("!=").Nil()).Block(
			jen.Return(jen.Nil(), g.core("NewDecodeError").Call(jen.Err()))),
		jen.Return(jen.Id("o"), jen.Nil()),
	)
	f.Comment("decode decodes into o; step forbids tab and restrictions, extra names a")
	f.Comment("composite step's discriminator to pass over.")
	g.decodeSig(f, args, []jen.Code{jen.Id("d").Index().Byte(), g.pathParam(), jen.Id("step").Bool(), jen.Id("extra").String()}, g.decodeBody(t, keysVar))
	var defs []jen.Code
	for _, fl := range t.Inputs {
		if hasDefault(fl) && !t.BranchOwned(fl.Name) {
			defs = append(defs, jen.Id("o").Dot(fl.GoName).Op("=").Add(g.defaultValue(fl)))
		}
	}
	f.Comment("setDefaults fills every default that does not depend on a branch.")
	f.Func().Params(jen.Id("o").Op("*").Id(args)).Id("setDefaults").Params().Block(defs...)

	g.methods(f, t, args)

	f.Commentf("%s are the canonical facts of a %s result.", facts, t.Name)
	f.Type().Id(facts).Struct(g.structFields(t.Facts, false)...)
	var norm []jen.Code
	for _, fl := range t.Facts {
		if fl.Type == ir.TypeArray && fl.Always {
			norm = append(norm, jen.If(jen.Id("f").Dot(fl.GoName).Op("==").Nil()).Block(
				jen.Id("f").Dot(fl.GoName).Op("=").Add(g.goType(fl, false)).Values()))
		}
	}
	f.Comment("normalize renders always-present lists as [] rather than null.")
	f.Func().Params(jen.Id("f").Op("*").Id(facts)).Id("normalize").Params().Block(norm...)

	f.Func().Id("invoke"+name).Params(jen.Id("ctx").Qual("context", "Context"), jen.Id("h").Any(), jen.Id("a").Add(g.core("Args"))).Params(jen.Any(), g.core("Outcome")).Block(
		jen.List(jen.Id("f"), jen.Id("o")).Op(":=").Id("h").Assert(jen.Id("Handler")).Dot(name).Call(jen.Id("ctx"), jen.Id("a").Assert(jen.Op("*").Id(args))),
		jen.If(jen.Id("f").Op("==").Nil()).Block(jen.Return(jen.Nil(), jen.Id("o"))),
		jen.Id("f").Dot("normalize").Call(),
		jen.Return(jen.Id("f"), jen.Id("o")),
	)

	f.Anon("embed")
	f.Comment("//go:embed tools/" + t.Name + ".json")
	f.Var().Id("definition" + name).Index().Byte()

	decoder := func(step bool) jen.Code {
		return jen.Func().Params(jen.Id("d").Index().Byte()).Params(g.core("Args"), decErr.Clone()).Block(
			jen.Id("o").Op(":=").New(jen.Id(args)),
			jen.If(jen.Err().Op(":=").Id("o").Dot("decode").Call(jen.Id("d"), jen.Nil(), jen.Lit(step), jen.Lit("")), jen.Err().Op("!=").Nil()).Block(
				jen.Return(jen.Nil(), g.core("NewDecodeError").Call(jen.Err()))),
			jen.Return(jen.Id("o"), jen.Nil()),
		)
	}
	f.Var().Id("tool" + name).Op("=").Op("&").Add(g.core("Tool")).Values(jen.Dict{
		jen.Id("Name"):      jen.Lit(t.Name),
		jen.Id("Title"):     jen.Lit(t.Title),
		jen.Id("Composite"): jen.Lit(t.Composite),
		jen.Id("Annotations"): g.core("Annotations").Values(jen.Dict{
			jen.Id("ReadOnly"): jen.Lit(t.Annotations.ReadOnly), jen.Id("Destructive"): jen.Lit(t.Annotations.Destructive),
			jen.Id("Idempotent"): jen.Lit(t.Annotations.Idempotent), jen.Id("OpenWorld"): jen.Lit(t.Annotations.OpenWorld),
		}),
		jen.Id("Definition"): jen.Id("definition" + name),
		jen.Id("MinCaps"):    g.minCapsExpr(t),
		jen.Id("Decode"):     decoder(false),
		jen.Id("DecodeStep"): decoder(true),
		jen.Id("Invoke"):     jen.Id("invoke" + name),
	})
	g.flushConsts(f)
	return f
}

func (g *goGen) decodeBody(t *ir.Tool, keysVar string) []jen.Code {
	idx := func(n string) int {
		if i := indexOf(t.Inputs, n); i >= 0 {
			return i
		}
		panic("no field " + n + " in " + t.Name)
	}
	// A tool's own arguments pass over the fields clients add on their own;
	// a composite's steps do not (no client adds them there).
	body := []jen.Code{jen.Var().Id("ignore").Index().String(), jen.If(jen.Op("!").Id("step")).Block(jen.Id("ignore").Op("=").Add(g.core("ClientAddedFields")))}
	body = append(body, g.scan(keysVar, t.Inputs, jen.Id("ignore"))...)
	var stepChecks []jen.Code
	for _, n := range []string{"tab", "restrict_hosts", "restrict_capabilities"} {
		if t.Input(n) != nil {
			stepChecks = append(stepChecks, jen.If(rawSet(idx(n))).Block(jen.Return(g.sup("StepForbidden").Call(jen.Id("p"), jen.Lit(n)))))
		}
	}
	if len(stepChecks) > 0 {
		body = append(body, jen.If(jen.Id("step")).Block(stepChecks...))
	}
	for _, fl := range t.Inputs {
		if fl.Required {
			body = append(body, jen.If(jen.Op("!").Add(rawSet(idx(fl.Name)))).Block(jen.Return(g.sup("Required").Call(jen.Id("p"), jen.Lit(fl.Name)))))
		}
	}
	body = append(body, g.branchSelect(t, idx)...)
	body = append(body, g.fieldDecodes(t.Inputs, func(fl *ir.Field) []jen.Code {
		if fl.Name == t.Discriminator {
			return []jen.Code{} // decoded with the branch selection
		}
		var cases []jen.Code
		for _, b := range t.Branches {
			if o := b.OverrideOf(fl.Name); o != nil {
				cases = append(cases, jen.Case(jen.Id(b.GoName)).Block(g.fieldStmts(o, fl)...))
			}
		}
		if cases == nil {
			return nil
		}
		cases = append(cases, jen.Default().Block(g.fieldStmts(fl, fl)...))
		return []jen.Code{jen.Switch(jen.Id("o").Dot("branch")).Block(cases...)}
	})...)
	for _, c := range t.Conflicts {
		cond := rawSet(idx(c.A)).Op("&&").Add(rawSet(idx(c.B)))
		if c.Value != nil {
			cond = cond.Op("&&").Id("o").Dot(t.Input(c.B).GoName).Op("==").Lit(*c.Value)
		}
		body = append(body, jen.If(cond).Block(jen.Return(g.sup("ConflictError").Call(jen.Id("p"), jen.Lit(c.A), jen.Lit(c.B), jen.Lit(c.Doc)))))
	}
	for _, grp := range t.Together {
		var any *jen.Statement
		for _, n := range grp {
			if any == nil {
				any = rawSet(idx(n))
			} else {
				any = any.Op("||").Add(rawSet(idx(n)))
			}
		}
		var checks []jen.Code
		for _, n := range grp {
			checks = append(checks, jen.If(jen.Op("!").Add(rawSet(idx(n)))).Block(jen.Return(g.sup("BranchRequired").Call(jen.Id("p"), jen.Lit(n), jen.Lit(strings.Join(grp, ", "))))))
		}
		body = append(body, jen.If(any).Block(checks...))
	}
	for _, e := range t.EmptyNeeds {
		fl := t.Input(e.Field)
		val := jen.Id("o").Dot(fl.GoName)
		if pointerField(fl) {
			val = jen.Op("*").Id("o").Dot(fl.GoName)
		}
		body = append(body, jen.If(rawSet(idx(e.Field)).Op("&&").Add(val).Op("==").Lit("").Op("&&").Op("!").Id("o").Dot(t.Input(e.Needs).GoName)).Block(
			jen.Return(g.sup("EmptyText").Call(jen.Id("p"), jen.Lit(e.Field), jen.Lit(e.Needs)))))
	}
	body = append(body, jen.Return(jen.Nil()))
	return body
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
		stmts := []jen.Code{jen.Id("o").Dot("branch").Op("=").Id(b.GoName)}
		for _, r := range b.Required {
			stmts = append(stmts, jen.If(jen.Op("!").Add(rawSet(idx(r)))).Block(jen.Return(g.sup("BranchRequired").Call(jen.Id("p"), jen.Lit(r), jen.Lit(label(b))))))
		}
		for _, grp := range b.OneOf {
			var none *jen.Statement
			for _, n := range grp {
				if none == nil {
					none = jen.Op("!").Add(rawSet(idx(n)))
				} else {
					none = none.Op("&&").Op("!").Add(rawSet(idx(n)))
				}
			}
			stmts = append(stmts, jen.If(none).Block(jen.Return(g.sup("OneRequired").Call(jen.Id("p"), jen.Lit(strings.Join(grp, ", ")), jen.Lit(label(b))))))
		}
		for _, fl := range t.Inputs {
			if t.BranchOwned(fl.Name) && !b.Lists(fl.Name) {
				stmts = append(stmts, jen.If(rawSet(idx(fl.Name))).Block(jen.Return(g.sup("BranchForbidden").Call(jen.Id("p"), jen.Lit(fl.Name), jen.Lit(label(b))))))
			}
		}
		return stmts
	}
	if t.Discriminator != "" {
		disc := t.Input(t.Discriminator)
		i := idx(disc.Name)
		stmt := jen.If(jen.Id("r").Op(":=").Id("raw").Index(jen.Lit(i)), jen.Id("r").Dot("Set").Call()).Block(g.fieldStmts(disc, disc)...)
		if hasDefault(disc) {
			stmt = stmt.Else().Block(jen.Id("o").Dot(disc.GoName).Op("=").Add(g.defaultValue(disc)))
		}
		out = append(out, stmt)
		var cases []jen.Code
		for _, b := range t.Branches {
			cases = append(cases, jen.Case(g.whenValue(disc, b.When)).Block(checks(b)...))
		}
		out = append(out, jen.Switch(jen.Id("o").Dot(disc.GoName)).Block(cases...))
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
				jen.If(jen.Id("sel").Op("!=").Lit("")).Block(jen.Return(g.sup("ConflictError").Call(jen.Id("p"), jen.Id("selKey"), jen.Id("key"), jen.Lit("choose one of "+strings.Join(alternativesAll(t), ", "))))),
				jen.Id("sel").Op(",").Id("selKey").Op("=").List(jen.Id(b.GoName), jen.Id("key")),
			),
		))
	}
	if def != nil {
		out = append(out, jen.If(jen.Id("sel").Op("==").Lit("")).Block(jen.Id("sel").Op("=").Id(def.GoName)))
	} else {
		out = append(out, jen.If(jen.Id("sel").Op("==").Lit("")).Block(jen.Return(g.sup("BranchMissing").Call(jen.Id("p"), jen.Lit(strings.Join(alternatives, ", "))))))
	}
	var cases []jen.Code
	for _, b := range t.Branches {
		cases = append(cases, jen.Case(jen.Id(b.GoName)).Block(checks(b)...))
	}
	out = append(out, jen.Switch(jen.Id("sel")).Block(cases...))
	return out
}

// whenValue is the discriminator constant that selects a branch.
func (g *goGen) whenValue(disc *ir.Field, when string) jen.Code {
	if disc.Enum == nil {
		return jen.Lit(when)
	}
	v := disc.Enum.Value(when)
	if disc.Enum.Named() {
		return g.named(disc.Enum, v.GoName)
	}
	return jen.Id(v.GoName)
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

func (g *goGen) capsExpr(caps []string) jen.Code {
	if len(caps) == 0 {
		return jen.Lit(0)
	}
	var e *jen.Statement
	for _, c := range caps {
		if e == nil {
			e = g.core("Cap" + ir.Camel(c))
		} else {
			e = e.Op("|").Add(g.core("Cap" + ir.Camel(c)))
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
			st = jen.Id("n").Dot("Caps").Op("=").Add(g.capsExpr(w.Set))
		} else {
			st = jen.Id("n").Dot("Caps").Op("|=").Add(g.capsExpr(w.Add))
		}
		out = append(out, jen.If(present(fl, jen.Id("o").Dot(fl.GoName))).Block(st))
	}
	return out
}

// methods emits the Args interface methods.
func (g *goGen) methods(f *jen.File, t *ir.Tool, args string) {
	recv := func() *jen.Statement { return jen.Id("o").Op("*").Id(args) }
	f.Comment("ToolName names the tool.")
	f.Func().Params(recv()).Id("ToolName").Params().String().Block(jen.Return(jen.Lit(t.Name)))
	f.Comment("Branch names the input branch the decoder chose (\"\" when the tool has none).")
	f.Func().Params(recv()).Id("Branch").Params().String().Block(jen.Return(jen.Id("o").Dot("branch")))

	body := []jen.Code{jen.Id("n").Op(":=").Add(g.core("Needs")).Values(jen.Dict{jen.Id("Caps"): g.capsExpr(t.Capabilities)})}
	if len(t.Constraints) > 0 {
		body = append(body, jen.Id("n").Dot("Constraints").Op("=").Add(stringsLit(t.Constraints)))
	}
	var cases []jen.Code
	for _, b := range t.Branches {
		var st []jen.Code
		if b.HasCaps {
			st = append(st, jen.Id("n").Dot("Caps").Op("=").Add(g.capsExpr(b.Capabilities)))
		}
		if len(b.Constraints) > 0 {
			st = append(st, jen.Id("n").Dot("Constraints").Op("=").Add(stringsLit(b.Constraints)))
		}
		st = append(st, g.whenPresent(t, b.WhenPresent)...)
		if len(st) > 0 {
			cases = append(cases, jen.Case(jen.Id(b.GoName)).Block(st...))
		}
	}
	if len(cases) > 0 {
		body = append(body, jen.Switch(jen.Id("o").Dot("branch")).Block(cases...))
	}
	body = append(body, g.whenPresent(t, t.WhenPresent)...)
	for _, fl := range t.Inputs {
		if fl.Format == "url" && fl.Type == ir.TypeString {
			body = append(body, jen.If(present(fl, jen.Id("o").Dot(fl.GoName))).Block(jen.Id("n").Dot("URLs").Op("=").Append(jen.Id("n").Dot("URLs"), jen.Id("o").Dot(fl.GoName))))
		}
	}
	body = append(body, jen.Return(jen.Id("n")))
	f.Comment("Needs classifies the call: capabilities, constraints and hosts it needs.")
	f.Func().Params(recv()).Id("Needs").Params().Add(g.core("Needs")).Block(body...)

	restrict := jen.Dict{}
	if t.Input("restrict_hosts") != nil {
		restrict[jen.Id("Hosts")] = jen.Id("o").Dot("RestrictHosts")
	}
	if fl := t.Input("restrict_capabilities"); fl != nil {
		var caps jen.Code = jen.Id("o").Dot(fl.GoName)
		if fl.Items.Enum.Named() {
			caps = g.sup("Strings").Call(caps)
		}
		restrict[jen.Id("Capabilities")] = caps
	}
	f.Comment("Restrictions returns the call's own narrowing of authority.")
	f.Func().Params(recv()).Id("Restrictions").Params().Add(g.core("Restrictions")).Block(jen.Return(g.core("Restrictions").Values(restrict)))
	tab := jen.Lit("")
	if t.Input("tab") != nil {
		tab = jen.Id("o").Dot("Tab")
	}
	var handles []jen.Code
	for _, in := range t.Inputs {
		if in.Handle == "" || in.Handle == "cursor" || in.Type != "string" {
			continue
		}
		handles = append(handles, jen.If(jen.Id("o").Dot(in.GoName).Op("!=").Lit("")).Block(
			jen.Id("h").Op("=").Append(jen.Id("h"), jen.Id("o").Dot(in.GoName))))
	}
	f.Comment("Handles returns the replica-minted handles the call names at its top level")
	f.Comment("(tab, target, view, snapshot, recording, image; never a cursor).")
	f.Func().Params(recv()).Id("Handles").Params().Params(jen.Id("h").Index().String()).Block(append(handles, jen.Return())...)
	f.Comment("TabHandle returns the tab the call names, or \"\".")
	f.Func().Params(recv()).Id("TabHandle").Params().String().Block(jen.Return(tab))
	set := []jen.Code{}
	if t.Input("tab") != nil {
		set = append(set, jen.Id("o").Dot("Tab").Op("=").Id("tab"))
	}
	f.Comment("SetTab points the call at a tab (a composite's tab for its steps); a no-op for tools without one.")
	f.Func().Params(recv()).Id("SetTab").Params(jen.Id("tab").String()).Block(set...)
	g.compositeAccessors(f, t, recv)
}

// compositeAccessors are what a composite (pipeline.Composite) reads and
// sets on a step, so no step is edited as raw JSON or a map and no switch
// over tools can forget one: its timeout_ms, and the target handle that
// names its tab.
func (g *goGen) compositeAccessors(f *jen.File, t *ir.Tool, recv func() *jen.Statement) {
	get := []jen.Code{jen.Return(jen.Lit(0), jen.False())}
	set := []jen.Code{}
	if fl := t.Input("timeout_ms"); fl != nil && fl.Type == ir.TypeInteger {
		get = []jen.Code{jen.Return(jen.Id("o").Dot(fl.GoName), jen.True())}
		set = []jen.Code{jen.Id("o").Dot(fl.GoName).Op("=").Id("ms")}
	}
	f.Comment("Timeout returns the call's timeout_ms (the default when it gave none); false for tools without one.")
	f.Func().Params(recv()).Id("Timeout").Params().Params(jen.Int(), jen.Bool()).Block(get...)
	f.Comment("SetTimeout sets the call's timeout_ms (a composite's bound for its steps); a no-op for tools without one.")
	f.Func().Params(recv()).Id("SetTimeout").Params(jen.Id("ms").Int()).Block(set...)
	hint := []jen.Code{}
	if fl := t.Input("target"); fl != nil && fl.Type == ir.TypeString {
		hint = append(hint, jen.Return(jen.Id("o").Dot(fl.GoName)))
	} else {
		for _, fl := range t.Inputs {
			if fl.Type != ir.TypeArray || fl.Items == nil || fl.Items.Type != ir.TypeObject {
				continue
			}
			for _, sub := range fl.Items.Fields {
				if sub.Name == "target" && sub.Type == ir.TypeString {
					hint = append(hint, jen.For(jen.List(jen.Id("_"), jen.Id("e")).Op(":=").Range().Id("o").Dot(fl.GoName)).Block(
						jen.If(jen.Id("e").Dot(sub.GoName).Op("!=").Lit("")).Block(jen.Return(jen.Id("e").Dot(sub.GoName))),
					))
				}
			}
		}
		hint = append(hint, jen.Return(jen.Lit("")))
	}
	f.Comment("TargetHint returns the first target handle the call names, which names its tab when a composite does not, or \"\".")
	f.Func().Params(recv()).Id("TargetHint").Params().String().Block(hint...)
}

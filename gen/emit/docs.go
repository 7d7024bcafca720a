package emit

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/ghostlight-dev/ghostlight/gen/ir"
)

// Markers around the README section the generator owns.
const (
	ReadmeBegin = "<!-- BEGIN GENERATED TOOLS -->"
	ReadmeEnd   = "<!-- END GENERATED TOOLS -->"
)

// Docs renders a surface's Markdown tool reference from the IR, so it
// cannot drift from the schemas and decoders.
func Docs(spec *ir.Spec, s *ir.Surface) ([]byte, error) {
	if s != spec.Core() {
		return surfaceDocs(spec, s), nil
	}
	var b bytes.Buffer
	w := func(format string, a ...any) { fmt.Fprintf(&b, format, a...) }
	w("<!-- %s -->\n\n# Ghostlight tool reference\n\n", Header)
	w("Every tool answers with one envelope (see [Envelope](#envelope)). Every tool also takes ")
	w("`restrict_hosts` and `restrict_capabilities`, which can only narrow the authority in force.\n\n")
	w("An optional field given as `null` reads as not given, and so do `\"\"` for a handle or other ")
	w("string that cannot be empty, `[]` for a list that cannot be empty and `false` for a `true`-only ")
	w("flag (strict-mode clients send them: [strict mode](../../docs/strict-mode.md)).")
	if len(spec.ClientAdded) > 0 {
		w(" Every tool also accepts and ignores, at the top level of its arguments, the fields clients add on their own: `%s`.", strings.Join(spec.ClientAdded, "`, `"))
	}
	w("\n\n")
	w("| tool | capability | summary |\n| --- | --- | --- |\n")
	for _, t := range s.Tools {
		w("| [`%s`](#%s) | %s | %s |\n", t.Name, t.Name, capsText(t), t.Doc)
	}
	for _, t := range s.Tools {
		toolDoc(&b, spec, t)
	}
	w("\n## Envelope\n\n| field | type | meaning |\n| --- | --- | --- |\n")
	for _, f := range spec.Envelope {
		w("| `%s` | %s | %s |\n", f.Name, typeText(f), f.Doc)
	}
	w("\nA refusal's facts carry `reason` and, as applicable:\n\n| fact | type | meaning |\n| --- | --- | --- |\n")
	for _, f := range spec.RefusalFacts {
		w("| `%s` | %s | %s |\n", f.Name, typeText(f), f.Doc)
	}
	for _, e := range spec.Enums {
		if e.Surface == s {
			w("\n**%s**: %s.\n", e.Name, "`"+strings.Join(e.Strings(), "`, `")+"`")
		}
	}
	w("\n## Named bounds\n\nEvery limit lives in `spec/bounds.cue` and reaches Go as constants (`<Name>Min`, `<Name>Max`, `<Name>Default`). ")
	w("Each says what its number is (`kind`): a contract limit, a budget, or a tuning value.\n")
	for _, k := range ir.BoundKinds {
		if !hasBounds(spec, k) {
			continue
		}
		w("\n### %s\n\n%s\n\n", boundKindTitles[k], boundKindDocs[k])
		w("| bound | min | max | default | unit | meaning |\n| --- | --- | --- | --- | --- | --- |\n")
		for _, bd := range spec.Bounds {
			if bd.Kind == k {
				w("| `%s` | %s | %s | %s | %s | %s |\n", bd.Name, num(bd.Min), num(bd.Max), num(bd.Def), bd.Unit, bd.Doc)
			}
		}
	}
	w("\n## Named keys\n\n`browser_press_key` takes one character or one of: %s.\n", namedKeys(spec))
	return b.Bytes(), nil
}

// boundKindTitles heads each kind's table of bounds in the docs.
var boundKindTitles = map[ir.BoundKind]string{
	ir.BoundLimit:  "Contract limits",
	ir.BoundBudget: "Budgets",
	ir.BoundTuning: "Tuning values",
}

// surfaceDocs renders the reference of a surface other than the core one:
// its tools, their inputs and the facts their results carry.
func surfaceDocs(spec *ir.Spec, s *ir.Surface) []byte {
	var b bytes.Buffer
	w := func(format string, a ...any) { fmt.Fprintf(&b, format, a...) }
	w("<!-- %s -->\n\n# Ghostlight %s surface reference\n\n", Header, s.Name)
	w("%s Served with `ghostlight serve --surface %s` (or `--surface all`, beside Ghostlight's own tools). ", s.Doc, s.Name)
	w("Each call runs through the same pipeline as Ghostlight's tools: it is decoded, classified and authorized ")
	w("like the tool it rests on, which then runs as its child, audited on its own.")
	if s.Claim != nil {
		w(" A result's `structuredContent` is the profile's contract; the claim is in [%s-profile.md](%s-profile.md).", s.Name, s.Name)
	}
	w("\n\n| tool | capability | summary |\n| --- | --- | --- |\n")
	for _, t := range s.Tools {
		w("| [`%s`](#%s) | %s | %s |\n", t.Name, t.Name, capsText(t), t.Doc)
	}
	for _, t := range s.Tools {
		toolDoc(&b, spec, t)
	}
	for _, e := range spec.Enums {
		if e.Surface == s {
			w("\n**%s**: %s.\n", e.Name, "`"+strings.Join(e.Strings(), "`, `")+"`")
		}
	}
	return b.Bytes()
}

func num(p *int64) string {
	if p == nil {
		return ""
	}
	return fmt.Sprint(*p)
}

func namedKeys(spec *ir.Spec) string {
	var n []string
	for _, k := range spec.NamedKeys {
		n = append(n, "`"+k.Name+"`")
	}
	return strings.Join(n, ", ")
}

func capsText(t *ir.Tool) string {
	base := "none"
	if len(t.Capabilities) > 0 {
		base = strings.Join(t.Capabilities, " + ")
	}
	var parts []string
	for _, b := range t.Branches {
		if b.HasCaps || len(b.Constraints) > 0 || len(b.WhenPresent) > 0 {
			c := base
			if b.HasCaps {
				c = "none"
				if len(b.Capabilities) > 0 {
					c = strings.Join(b.Capabilities, " + ")
				}
			}
			if len(b.Constraints) > 0 {
				c += " and " + strings.Join(b.Constraints, ", ")
			}
			for _, w := range b.WhenPresent {
				c += whenText(w)
			}
			parts = append(parts, b.Name+": "+c)
		}
	}
	for _, w := range t.WhenPresent {
		base += whenText(w)
	}
	if parts != nil {
		return base + " (" + strings.Join(parts, "; ") + ")"
	}
	return base
}

func whenText(w *ir.WhenPresent) string {
	if w.Set != nil {
		return ", " + strings.Join(w.Set, " + ") + " with `" + w.Field + "`"
	}
	return ", + " + strings.Join(w.Add, " + ") + " with `" + w.Field + "`"
}

func typeText(f *ir.Field) string {
	switch f.Type {
	case "array":
		return typeText(f.Items) + " array"
	case "scalar":
		return strings.Join(f.Kinds, " or ")
	case "open":
		return "object (any)"
	case "string":
		if f.Handle != "" {
			return f.Handle + " handle"
		}
		if f.Format != "" {
			return "string (" + f.Format + ")"
		}
	}
	return string(f.Type)
}

func boundText(f *ir.Field) string {
	var parts []string
	if f.Enum != nil {
		parts = append(parts, "`"+strings.Join(f.EnumValues(), "`, `")+"`")
	}
	if b := f.Bound; b != nil {
		unit := map[string]string{"string": "characters", "array": "items"}[string(f.Type)]
		switch {
		case b.Min != nil && b.Max != nil:
			parts = append(parts, fmt.Sprintf("%d–%d %s", *b.Min, *b.Max, unit))
		case b.Max != nil:
			parts = append(parts, fmt.Sprintf("at most %d %s", *b.Max, unit))
		}
	}
	if f.Unique {
		parts = append(parts, "unique")
	}
	if f.TrueOnly {
		parts = append(parts, "`true` only (`false` reads as not given)")
	}
	return strings.TrimSpace(strings.Join(parts, "; "))
}

func defaultText(f *ir.Field) string {
	switch {
	case f.DefBool != nil:
		return fmt.Sprint(*f.DefBool)
	case f.DefStr != nil:
		return "`" + *f.DefStr + "`"
	case f.Bound != nil && f.Bound.Def != nil:
		return fmt.Sprint(*f.Bound.Def)
	}
	return ""
}

func toolDoc(b *bytes.Buffer, spec *ir.Spec, t *ir.Tool) {
	w := func(format string, a ...any) { fmt.Fprintf(b, format, a...) }
	w("\n## %s\n\n**%s.** %s\n\n", t.Name, t.Title, t.Doc)
	a := t.Annotations
	w("Capability: %s. Hints: readOnly %v, destructive %v, idempotent %v, openWorld %v.\n\n", capsText(t), a.ReadOnly, a.Destructive, a.Idempotent, a.OpenWorld)
	w("| input | type | required | default | bounds | description |\n| --- | --- | --- | --- | --- | --- |\n")
	var rows func(prefix string, fs []*ir.Field)
	rows = func(prefix string, fs []*ir.Field) {
		for _, f := range fs {
			req := ""
			if f.Required {
				req = "yes"
			}
			w("| `%s%s` | %s | %s | %s | %s | %s |\n", prefix, f.Name, typeText(f), req, defaultText(f), boundText(f), f.Doc)
			switch {
			case f.Type == "object" && f.Fields != nil:
				rows(prefix+f.Name+".", f.Fields)
			case f.Type == "array" && f.Items.Type == "object" && f.Items.Fields != nil:
				rows(prefix+f.Name+"[].", f.Items.Fields)
			case f.Type == "array" && f.Items.Variants != nil:
				var cases []string
				for _, c := range f.Items.Variants.Cases {
					cases = append(cases, "`"+c.Name+"` ("+c.Doc+")")
				}
				w("| `%s%s[].%s` | string | yes | | %s | Step kind; the step's other fields are that tool's (no tab or restrictions). |\n", prefix, f.Name, f.Items.Variants.Key, strings.Join(cases, ", "))
			}
		}
	}
	rows("", t.Inputs)
	if len(t.Branches) > 0 {
		w("\nBranches")
		if t.Discriminator != "" {
			w(" (chosen by `%s`)", t.Discriminator)
		} else {
			w(" (chosen by which fields are present; giving two is refused)")
		}
		w(":\n\n")
		for _, br := range t.Branches {
			sel := ""
			switch {
			case br.When != "":
				sel = "`" + t.Discriminator + ": " + br.When + "`"
			case br.IsDefault:
				sel = "default"
			default:
				sel = "any of `" + strings.Join(br.Keys, "`, `") + "`"
			}
			w("- **%s** (%s): %s", br.Name, sel, br.Doc)
			if len(br.Required) > 0 {
				w(" Requires `%s`.", strings.Join(br.Required, "`, `"))
			}
			if len(br.Allowed) > 0 {
				w(" Also takes `%s`.", strings.Join(br.Allowed, "`, `"))
			}
			w(" Example: `%s`\n", br.Example)
		}
	}
	for _, c := range t.Conflicts {
		w("\n`%s` cannot be combined with `%s`", c.A, c.B)
		if c.Value != nil {
			w(" set to `%v`", *c.Value)
		}
		w(": %s.\n", c.Doc)
	}
	for _, e := range t.EmptyNeeds {
		w("\n`%s` may be empty only with `%s: true`.\n", e.Field, e.Needs)
	}
	for _, g := range t.Together {
		w("\n`%s` are given together or not at all.\n", strings.Join(g, "`, `"))
	}
	w("\nShortest call: `%s`\n\n", t.Example)
	w("| fact | type | always | description |\n| --- | --- | --- | --- |\n")
	var facts func(prefix string, fs []*ir.Field)
	facts = func(prefix string, fs []*ir.Field) {
		for _, f := range fs {
			al := ""
			if f.Always {
				al = "yes"
			}
			w("| `%s%s` | %s | %s | %s |\n", prefix, f.Name, typeText(f), al, f.Doc)
			if f.Type == "object" && f.Fields != nil {
				facts(prefix+f.Name+".", f.Fields)
			}
			if f.Type == "array" && f.Items.Fields != nil {
				facts(prefix+f.Name+"[].", f.Items.Fields)
			}
		}
	}
	facts("", t.Facts)
}

// ReadmeSection renders the README's tool table.
func ReadmeSection(spec *ir.Spec) ([]byte, error) {
	var b bytes.Buffer
	fmt.Fprintf(&b, "<!-- generated by ghostlight-gen from spec/; edit the CUE, not this table -->\n\n")
	fmt.Fprintf(&b, "| tool | capability | what it does |\n| --- | --- | --- |\n")
	for _, t := range spec.Core().Tools {
		fmt.Fprintf(&b, "| `%s` | %s | %s |\n", t.Name, capsText(t), t.Doc)
	}
	fmt.Fprintf(&b, "\nFull reference: [generated/docs/tools.md](generated/docs/tools.md).\n")
	return b.Bytes(), nil
}

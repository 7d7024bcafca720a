package emit

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/ghostlight-dev/ghostlight/gen/ir"
)

// A surface's claim to a class profile, rendered from spec/ and the
// vendored profile: claim.json for machines (conformance holds it to the
// profile file) and <surface>-profile.md for people.

// resolved renders a profile schema in the file's key order with every
// $ref to the profile's objects replaced by the object; implemented facet
// properties join the objects they attach to.
func resolved(c *ir.Claim, raw json.RawMessage) (any, error) {
	v, err := parseOrdered(raw)
	if err != nil {
		return nil, err
	}
	var walk func(any) (any, error)
	walk = func(v any) (any, error) {
		switch x := v.(type) {
		case *obj:
			if ref, ok := x.get("$ref"); ok && len(x.keys) == 1 {
				name, found := strings.CutPrefix(ref.(string), "#/objects/")
				def := c.Profile.Objects[name]
				if !found || def == nil {
					return nil, fmt.Errorf("unresolved $ref %v", ref)
				}
				o, err := resolved(c, def)
				if err != nil {
					return nil, err
				}
				attach(c, name, o.(*obj))
				return o, nil
			}
			for i := range x.vals {
				w, err := walk(x.vals[i])
				if err != nil {
					return nil, err
				}
				x.vals[i] = w
			}
		case []any:
			for i := range x {
				w, err := walk(x[i])
				if err != nil {
					return nil, err
				}
				x[i] = w
			}
		}
		return v, nil
	}
	return walk(v)
}

// attach adds the implemented properties that attach to object name.
func attach(c *ir.Claim, name string, o *obj) {
	props, ok := o.get("properties")
	if !ok {
		return
	}
	for _, pc := range c.Properties {
		if !pc.Implemented || !contains(pc.Property.AttachesTo, "objects/"+name) {
			continue
		}
		if v, err := parseOrdered(pc.Property.Contract); err == nil {
			props.(*obj).put(pc.Property.Name, v)
		}
	}
}

// verbOutput is a verb's outputSchema: its structuredContent contract with
// $refs resolved.
func verbOutput(c *ir.Claim, pv *ir.ProfileVerb) (any, error) {
	return resolved(c, pv.Contract.StructuredContent)
}

// effective fills MCP's default hints into stated ones.
func effective(stated map[string]bool) *obj {
	eff := map[string]bool{"readOnlyHint": false, "destructiveHint": true, "idempotentHint": false, "openWorldHint": true}
	for k, v := range stated {
		eff[k] = v
	}
	o := newObj()
	for _, k := range []string{"readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"} {
		o.set(k, eff[k])
	}
	return o
}

// hints are the hints a tool's definition states (annotations), so the
// claim's effective hints are what clients apply.
func hints(a ir.Annotations) map[string]bool {
	stated := annotations(a)
	out := map[string]bool{}
	for i, k := range stated.keys {
		out[k] = stated.vals[i].(bool)
	}
	return out
}

func rawOrNull(b json.RawMessage) any {
	if len(b) == 0 {
		return nil
	}
	v, err := parseOrdered(b)
	if err != nil {
		return nil
	}
	return v
}

// verbsOf lists the ids of the profile verbs since (or of) a part.
func verbsOf(p *ir.Profile, part string) []string {
	out := []string{}
	for _, v := range p.Verbs {
		if v.Since == part || v.Facet == part {
			out = append(out, v.ID)
		}
	}
	return out
}

func propertiesOf(p *ir.Profile, facet string) []string {
	out := []string{}
	for _, pr := range p.Properties {
		if pr.Facet == facet {
			out = append(out, pr.ID)
		}
	}
	return out
}

func toolOf(s *ir.Surface, verb string) *ir.Tool {
	for _, t := range s.Tools {
		if t.Verb != nil && t.Verb.ID == verb {
			return t
		}
	}
	return nil
}

func unsupportedOf(c *ir.Claim, verb string) *ir.UnsupportedVerb {
	for _, u := range c.Unsupported {
		if u.Verb.ID == verb {
			return u
		}
	}
	return nil
}

// capabilityMap says what each branch of a tool needs (a list: what the
// whole tool needs, when it has no branches).
func capabilityMap(t *ir.Tool) any {
	o := newObj()
	if len(t.Branches) == 0 {
		return orEmpty(t.Capabilities)
	}
	for _, b := range t.Branches {
		caps := t.Capabilities
		if b.HasCaps {
			caps = b.Capabilities
		}
		o.set(b.Name, orEmpty(caps))
	}
	return o
}

func orEmpty(l []string) []string {
	if l == nil {
		return []string{}
	}
	return l
}

// ClaimJSON renders the machine-readable claim.
func ClaimJSON(spec *ir.Spec, s *ir.Surface) ([]byte, error) {
	c := s.Claim
	p := c.Profile
	claim := newObj()
	claim.set("profile", newObj().set("id", p.ID).set("state", p.State).set("title", p.Title).set("file", "spec/"+c.ProfilePath))
	claim.set("implementation", newObj().set("name", "ghostlight").set("surface", s.Name).set("serve", "ghostlight serve --surface "+s.Name))
	claim.set("baseline", newObj().set("id", p.Baseline).set("implemented", true).set("verbs", verbsOf(p, p.Baseline)))
	var facets []*obj
	for _, fc := range c.Facets {
		o := newObj().set("id", fc.Facet.ID).set("implemented", fc.Implemented).set("doc", fc.Doc).
			set("verbs", verbsOf(p, fc.Facet.ID)).set("properties", propertiesOf(p, fc.Facet.ID))
		if !fc.Implemented {
			var deg []*obj
			for _, v := range p.Verbs {
				if v.Facet == fc.Facet.ID {
					deg = append(deg, newObj().set("of", v.ID).set("degrades_to", rawOrNull(v.DegradesTo)))
				}
			}
			for _, pr := range p.Properties {
				if pr.Facet == fc.Facet.ID {
					deg = append(deg, newObj().set("of", pr.ID).set("degrades_to", rawOrNull(pr.DegradesTo)))
				}
			}
			o.set("degradation", deg)
		}
		facets = append(facets, o)
	}
	claim.set("facets", facets)
	var verbs []*obj
	for _, pv := range p.Verbs {
		o := newObj().set("id", pv.ID).set("name", pv.Name).set("tier", pv.Tier).set("since", pv.Since)
		t := toolOf(s, pv.ID)
		if t == nil {
			u := unsupportedOf(c, pv.ID)
			o.set("implemented", false).set("facet", pv.Facet).set("doc", u.Doc).set("degrades_to", rawOrNull(pv.DegradesTo))
			verbs = append(verbs, o)
			continue
		}
		var rests []*obj
		for _, ro := range t.Verb.RestsOn {
			fields := newObj()
			for _, f := range ro.Fields {
				fields.set(f[0], f[1])
			}
			rests = append(rests, newObj().set("tool", ro.Tool.Name).set("when", ro.When).set("role", ro.Role).
				set("fields", fields).set("facts", orEmpty(ro.Facts)).set("doc", ro.Doc))
		}
		o.set("implemented", true).set("tool", t.Name).set("rests_on", rests).set("capabilities", capabilityMap(t)).
			set("annotations", effective(hints(t.Annotations))).set("profile_risk", effective(pv.Risk)).
			set("reissue", t.Verb.Reissue).set("profile_reissue", pv.Reissue).set("reissue_doc", t.Verb.ReissueDoc).
			set("socially_irreversible", pv.SociallyIrreversible).set("semantics", t.Verb.Semantics).
			set("unfixturable", orEmpty(t.Verb.Unfixturable))
		verbs = append(verbs, o)
	}
	claim.set("verbs", verbs)
	var props []*obj
	for _, pc := range c.Properties {
		o := newObj().set("id", pc.Property.ID).set("name", pc.Property.Name).set("implemented", pc.Implemented).
			set("attaches_to", pc.Property.AttachesTo).set("doc", pc.Doc)
		if pc.Implemented {
			o.set("rests_on", newObj().set("tool", pc.Tool.Name).set("facts", orEmpty(pc.Facts)))
		} else {
			o.set("degrades_to", rawOrNull(pc.Property.DegradesTo))
		}
		props = append(props, o)
	}
	claim.set("properties", props)
	var objects []*obj
	for _, oc := range c.Objects {
		schema, err := resolved(c, json.RawMessage(`{"$ref":"#/objects/`+oc.Name+`"}`))
		if err != nil {
			return nil, err
		}
		objects = append(objects, newObj().set("name", oc.Name).set("doc", oc.Doc).set("schema", schema))
	}
	claim.set("objects", objects)
	readiness := newObj()
	for _, m := range c.Readiness {
		readiness.set(m[0], m[1])
	}
	claim.set("readiness", readiness)
	claim.set("extensions", orEmpty(c.Extensions))
	claim.set("sandbox", newObj().set("contract", p.SandboxContract).set("reference", c.Sandbox.Reference).set("doc", c.Sandbox.Doc))
	b, err := json.MarshalIndent(claim, "", " ")
	if err != nil {
		return nil, err
	}
	return append(b, '\n'), nil
}

// ClaimDocs renders the claim for people.
func ClaimDocs(spec *ir.Spec, s *ir.Surface) []byte {
	c := s.Claim
	p := c.Profile
	var b bytes.Buffer
	w := func(format string, a ...any) { fmt.Fprintf(&b, format, a...) }
	w("<!-- %s -->\n\n# %s class profile: Ghostlight's claim\n\n", Header, p.Title)
	w("Ghostlight publishes to the **%s** class profile `%s` (state: %s; vendored in `spec/%s`). ", p.Title, p.ID, p.State, c.ProfilePath)
	w("`ghostlight serve --surface %s` serves its verbs (`--surface all` serves them beside Ghostlight's own tools); ", s.Name)
	w("every verb runs through Ghostlight's one pipeline, governance, audit and executor, as the Ghostlight tools it rests on. ")
	w("The machine-readable claim is [`generated/%s/claim.json`](../%s/claim.json); the tool reference is [%s.md](%s.md).\n\n", s.Package, s.Package, s.Name, s.Name)
	w("## What is implemented\n\n")
	w("- Baseline `%s`: implemented (%s).\n", p.Baseline, codeList(verbsOf(p, p.Baseline)))
	for _, fc := range c.Facets {
		state := "implemented"
		if !fc.Implemented {
			state = "**not implemented**"
		}
		parts := append(verbsOf(p, fc.Facet.ID), propertiesOf(p, fc.Facet.ID)...)
		w("- Facet `%s`: %s (%s). %s\n", fc.Facet.ID, state, codeList(parts), fc.Doc)
	}
	w("\n## Verbs\n\n| profile verb | Ghostlight tool | capability | rests on | reissue |\n| --- | --- | --- | --- | --- |\n")
	for _, pv := range p.Verbs {
		t := toolOf(s, pv.ID)
		if t == nil {
			w("| `%s` (`%s`) | not served | | | |\n", pv.Name, pv.ID)
			continue
		}
		var on []string
		for _, ro := range t.Verb.RestsOn {
			if !contains(on, "`"+ro.Tool.Name+"`") {
				on = append(on, "`"+ro.Tool.Name+"`")
			}
		}
		w("| `%s` (`%s`) | `%s` | %s | %s | `%s` |\n", pv.Name, pv.ID, t.Name, capsText(t), strings.Join(on, ", "), t.Verb.Reissue)
	}
	for _, pv := range p.Verbs {
		t := toolOf(s, pv.ID)
		if t == nil {
			u := unsupportedOf(c, pv.ID)
			w("\n### `%s`: not served\n\n%s Degradation, in the profile's words: %s\n", pv.Name, u.Doc, degradation(pv.DegradesTo))
			continue
		}
		w("\n### `%s` → `%s`\n\n%s\n\n", pv.Name, t.Name, t.Verb.Semantics)
		w("- Annotations: %s (profile risk: %s).\n", hintText(effective(hints(t.Annotations))), hintText(effective(pv.Risk)))
		w("- Reissue: `%s`. %s\n", t.Verb.Reissue, t.Verb.ReissueDoc)
		w("\n| when | Ghostlight tool | role | fields | facts | |\n| --- | --- | --- | --- | --- | --- |\n")
		for _, ro := range t.Verb.RestsOn {
			var fields []string
			for _, f := range ro.Fields {
				fields = append(fields, "`"+f[0]+"` ← "+f[1])
			}
			when := ro.When
			if when == "" {
				when = "every call"
			}
			w("| %s | `%s` | %s | %s | %s | %s |\n", when, ro.Tool.Name, ro.Role, strings.Join(fields, "; "), codeList(ro.Facts), ro.Doc)
		}
		if len(t.Verb.Unfixturable) > 0 {
			w("\nUnfixturable under the sandbox contract:\n\n")
			for _, u := range t.Verb.Unfixturable {
				w("- %s\n", u)
			}
		}
	}
	w("\n## Properties\n\n")
	for _, pc := range c.Properties {
		if pc.Implemented {
			w("- `%s` (`%s`, on %s): implemented. %s Rests on `%s` (%s).\n", pc.Property.Name, pc.Property.ID, codeList(pc.Property.AttachesTo), pc.Doc, pc.Tool.Name, codeList(pc.Facts))
		} else {
			w("- `%s` (`%s`): not implemented. %s Degradation: %s\n", pc.Property.Name, pc.Property.ID, pc.Doc, degradation(pc.Property.DegradesTo))
		}
	}
	w("\n## Objects\n\n")
	for _, oc := range c.Objects {
		w("- `%s`: %s\n", oc.Name, oc.Doc)
	}
	w("\n## Readiness\n\n| Ghostlight | profile |\n| --- | --- |\n")
	for _, m := range c.Readiness {
		w("| `%s` | `%s` |\n", m[0], m[1])
	}
	w("\n## Beyond the profile's schemas\n\n")
	for _, e := range c.Extensions {
		w("- %s\n", e)
	}
	w("\n## Sandbox\n\nThe profile's contract: %s\n\nGhostlight's reference surface (`%s`): %s\n", p.SandboxContract, c.Sandbox.Reference, c.Sandbox.Doc)
	return b.Bytes()
}

func codeList(l []string) string {
	if len(l) == 0 {
		return "none"
	}
	return "`" + strings.Join(l, "`, `") + "`"
}

func hintText(o *obj) string {
	var parts []string
	for i, k := range o.keys {
		parts = append(parts, fmt.Sprintf("%s %v", strings.TrimSuffix(k, "Hint"), o.vals[i]))
	}
	return strings.Join(parts, ", ")
}

func degradation(raw json.RawMessage) string {
	var d struct {
		Target *string `json:"target"`
		Loss   string  `json:"loss"`
		Mode   string  `json:"mode"`
	}
	if json.Unmarshal(raw, &d) != nil {
		return ""
	}
	to := "nothing"
	if d.Target != nil {
		to = "`" + *d.Target + "`"
	}
	return fmt.Sprintf("%s (%s, to %s).", d.Loss, d.Mode, to)
}

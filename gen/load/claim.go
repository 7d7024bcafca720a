package load

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"cuelang.org/go/cue"

	"github.com/ghostlight-dev/ghostlight/gen/ir"
)

// pendingRest is a rests_on entry whose tool resolves once every tool is read.
type pendingRest struct {
	r    *ir.RestsOn
	tool string
}

func (r *reader) verbClaim(v cue.Value) *ir.VerbClaim {
	c := &ir.VerbClaim{
		ID:           r.str(v.LookupPath(cue.ParsePath("id"))),
		Reissue:      r.str(v.LookupPath(cue.ParsePath("reissue"))),
		ReissueDoc:   r.str(v.LookupPath(cue.ParsePath("reissue_doc"))),
		Semantics:    r.str(v.LookupPath(cue.ParsePath("semantics"))),
		Unfixturable: r.strings(v.LookupPath(cue.ParsePath("unfixturable"))),
	}
	it, err := v.LookupPath(cue.ParsePath("rests_on")).List()
	r.fail(v, err)
	for err == nil && it.Next() {
		e := it.Value()
		ro := &ir.RestsOn{When: r.str(e.LookupPath(cue.ParsePath("when"))), Role: r.str(e.LookupPath(cue.ParsePath("role"))),
			Facts: r.strings(e.LookupPath(cue.ParsePath("facts"))), Doc: r.str(e.LookupPath(cue.ParsePath("doc")))}
		eachField(e.LookupPath(cue.ParsePath("fields")), func(name string, x cue.Value) {
			ro.Fields = append(ro.Fields, [2]string{name, r.str(x)})
		})
		r.rests = append(r.rests, pendingRest{r: ro, tool: r.str(e.LookupPath(cue.ParsePath("tool")))})
		c.RestsOn = append(c.RestsOn, ro)
	}
	return c
}

// readClaims reads each surface's claim and its vendored profile, and holds
// the claim and the surface's tools to the profile: every facet, property,
// object and verb accounted for, ids exact, annotations never weaker, input
// schemas the profile's (tightened only), facts the profile's contracts.
func (r *reader) readClaims(v cue.Value) {
	for _, p := range r.rests {
		if p.r.Tool = r.spec.Tool(p.tool); p.r.Tool == nil {
			r.setErr(fmt.Errorf("rests_on names unknown tool %q", p.tool))
		}
	}
	for _, s := range r.spec.Surfaces {
		cv, ok := r.opt(v, "surfaces."+s.Name+".claim")
		if !ok {
			for _, t := range s.Tools {
				if t.Verb != nil {
					r.setErr(fmt.Errorf("tool %s declares a profile verb, but surface %s claims no profile", t.Name, s.Name))
				}
			}
			continue
		}
		c := &ir.Claim{ProfilePath: r.str(cv.LookupPath(cue.ParsePath("profile")))}
		if r.err != nil {
			return
		}
		c.ProfileJSON, c.Profile = r.readProfile(c.ProfilePath)
		if c.Profile == nil {
			return
		}
		s.Claim = c
		r.claim(s, c, cv)
	}
}

func (r *reader) readProfile(rel string) ([]byte, *ir.Profile) {
	b, err := os.ReadFile(filepath.Join(r.dir, filepath.FromSlash(rel)))
	if src, ok := r.overlay[rel]; ok {
		b, err = []byte(src), nil
	}
	if err != nil {
		r.setErr(fmt.Errorf("claim profile: %w", err))
		return nil, nil
	}
	p := &ir.Profile{}
	if err := json.Unmarshal(b, p); err != nil {
		r.setErr(fmt.Errorf("claim profile %s: %w", rel, err))
		return nil, nil
	}
	// The objects' file order, which the claim and docs keep.
	var raw struct {
		Objects json.RawMessage `json:"objects"`
	}
	_ = json.Unmarshal(b, &raw)
	p.ObjectNames = objectKeys(raw.Objects)
	return b, p
}

// objectKeys lists a JSON object's keys in order.
func objectKeys(raw json.RawMessage) []string {
	d := json.NewDecoder(bytes.NewReader(raw))
	var keys []string
	if t, err := d.Token(); err != nil || t != json.Delim('{') {
		return nil
	}
	for d.More() {
		t, err := d.Token()
		if err != nil {
			return keys
		}
		keys = append(keys, t.(string))
		var skip json.RawMessage
		if d.Decode(&skip) != nil {
			return keys
		}
	}
	return keys
}

func (r *reader) claim(s *ir.Surface, c *ir.Claim, cv cue.Value) {
	p := c.Profile
	bad := func(format string, a ...any) {
		r.setErr(fmt.Errorf("surface %s claim: "+format, append([]any{s.Name}, a...)...))
	}
	facets := map[string]*ir.FacetClaim{}
	declared := map[string]bool{}
	eachField(cv.LookupPath(cue.ParsePath("facets")), func(id string, e cue.Value) { declared[id] = true })
	for _, f := range p.Facets {
		e, ok := r.opt(cv, "facets."+quote(f.ID))
		if !ok {
			bad("facet %s of the profile is not accounted for", f.ID)
			continue
		}
		fc := &ir.FacetClaim{Facet: f, Implemented: r.bool(e.LookupPath(cue.ParsePath("implemented"))), Doc: r.str(e.LookupPath(cue.ParsePath("doc")))}
		facets[f.ID] = fc
		c.Facets = append(c.Facets, fc)
		delete(declared, f.ID)
	}
	for id := range declared {
		bad("facet %s is not one of the profile's", id)
	}
	implemented := func(since, facet string) bool {
		if facet == "" {
			return since == p.Baseline
		}
		return facets[facet] != nil && facets[facet].Implemented
	}
	declared = map[string]bool{}
	eachField(cv.LookupPath(cue.ParsePath("properties")), func(id string, e cue.Value) { declared[id] = true })
	for _, pr := range p.Properties {
		e, ok := r.opt(cv, "properties."+quote(pr.ID))
		if !ok {
			bad("property %s of the profile is not accounted for", pr.ID)
			continue
		}
		delete(declared, pr.ID)
		pc := &ir.PropertyClaim{Property: pr, Implemented: r.bool(e.LookupPath(cue.ParsePath("implemented"))), Doc: r.str(e.LookupPath(cue.ParsePath("doc")))}
		if pc.Implemented != implemented(pr.Since, pr.Facet) {
			bad("property %s: implemented %v, but its facet %s is implemented %v", pr.ID, pc.Implemented, pr.Facet, !pc.Implemented)
		}
		if x, ok := r.opt(e, "rests_on"); ok {
			tn := r.str(x.LookupPath(cue.ParsePath("tool")))
			if pc.Tool = r.spec.Tool(tn); pc.Tool == nil {
				bad("property %s rests on unknown tool %q", pr.ID, tn)
			}
			pc.Facts = r.strings(x.LookupPath(cue.ParsePath("facts")))
		}
		if pc.Implemented && pc.Tool == nil {
			bad("property %s is implemented but rests on no tool", pr.ID)
		}
		c.Properties = append(c.Properties, pc)
	}
	for id := range declared {
		bad("property %s is not one of the profile's", id)
	}
	declared = map[string]bool{}
	eachField(cv.LookupPath(cue.ParsePath("objects")), func(n string, e cue.Value) { declared[n] = true })
	for _, n := range p.ObjectNames {
		e, ok := r.opt(cv, "objects."+quote(n))
		if !ok {
			bad("object %s of the profile is not accounted for", n)
			continue
		}
		delete(declared, n)
		c.Objects = append(c.Objects, &ir.ObjectClaim{Name: n, Doc: r.str(e.LookupPath(cue.ParsePath("doc")))})
	}
	for n := range declared {
		bad("object %s is not one of the profile's", n)
	}
	byVerb := map[string]*ir.Tool{}
	for _, t := range s.Tools {
		if t.Verb == nil {
			bad("tool %s publishes no profile verb", t.Name)
			continue
		}
		if byVerb[t.Verb.ID] != nil {
			bad("tools %s and %s both claim %s", byVerb[t.Verb.ID].Name, t.Name, t.Verb.ID)
		}
		byVerb[t.Verb.ID] = t
		if t.Verb.Verb = p.Verb(t.Verb.ID); t.Verb.Verb == nil {
			bad("tool %s claims %s, which is not a verb of the profile", t.Name, t.Verb.ID)
		}
	}
	declared = map[string]bool{}
	eachField(cv.LookupPath(cue.ParsePath("unsupported_verbs")), func(id string, e cue.Value) { declared[id] = true })
	for _, pv := range p.Verbs {
		t := byVerb[pv.ID]
		e, unsupported := r.opt(cv, "unsupported_verbs."+quote(pv.ID))
		delete(declared, pv.ID)
		switch want := implemented(pv.Since, pv.Facet); {
		case t != nil && unsupported:
			bad("verb %s is both served (%s) and declared unsupported", pv.ID, t.Name)
		case t == nil && !unsupported:
			bad("verb %s of the profile is not accounted for", pv.ID)
		case t != nil && !want:
			bad("verb %s is served, but its facet %s is not implemented", pv.ID, pv.Facet)
		case t == nil && want:
			bad("verb %s belongs to an implemented part (%s%s) but is not served", pv.ID, pv.Since, "")
		case unsupported:
			c.Unsupported = append(c.Unsupported, &ir.UnsupportedVerb{Verb: pv, Doc: r.str(e.LookupPath(cue.ParsePath("doc")))})
		}
		if t != nil {
			r.checkVerb(s, c, t, pv)
		}
	}
	for id := range declared {
		bad("unsupported verb %s is not one of the profile's", id)
	}
	eachField(cv.LookupPath(cue.ParsePath("readiness")), func(n string, e cue.Value) {
		c.Readiness = append(c.Readiness, [2]string{n, r.str(e)})
	})
	c.Extensions = r.strings(cv.LookupPath(cue.ParsePath("extensions")))
	c.Sandbox = ir.Sandbox{Reference: r.str(cv.LookupPath(cue.ParsePath("sandbox.reference"))), Doc: r.str(cv.LookupPath(cue.ParsePath("sandbox.doc")))}
	var own *ir.Enum
	for _, e := range s.Enums {
		if e.Name == "readiness" {
			own = e
		}
	}
	for _, m := range c.Readiness {
		if core := r.spec.EnumOf("readiness"); core == nil || core.Value(m[0]) == nil || own == nil || own.Value(m[1]) == nil {
			bad("readiness %s → %s maps no readiness of Ghostlight onto one of the surface's", m[0], m[1])
		}
	}
	if e := r.spec.EnumOf("readiness"); e != nil {
		for _, g := range e.Strings() {
			found := false
			for _, m := range c.Readiness {
				found = found || m[0] == g
			}
			if !found {
				bad("readiness %q has no mapping onto the profile's", g)
			}
		}
	}
}

// quote makes a CUE selector of an id ("operator/browser@1").
func quote(s string) string { b, _ := json.Marshal(s); return string(b) }

// checkVerb holds one verb's tool to the profile verb.
func (r *reader) checkVerb(s *ir.Surface, c *ir.Claim, t *ir.Tool, pv *ir.ProfileVerb) {
	p := c.Profile
	bad := func(format string, a ...any) {
		r.setErr(fmt.Errorf("%s (%s): "+format, append([]any{t.Name, pv.ID}, a...)...))
	}
	if want := s.Name + "_" + strings.TrimPrefix(pv.Name, p.ID[strings.LastIndex(p.ID, ".")+1:]+"."); t.Name != want {
		bad("the tool of profile verb %s is named %s", pv.Name, want)
	}
	// Annotations: the profile's risk with MCP's defaults filled; ours may
	// only be more cautious.
	risk := map[string]bool{"readOnlyHint": false, "destructiveHint": true, "idempotentHint": false, "openWorldHint": true}
	for k, v := range pv.Risk {
		risk[k] = v
	}
	a := t.Annotations
	if a.ReadOnly && !risk["readOnlyHint"] || a.Idempotent && !risk["idempotentHint"] ||
		!a.ReadOnly && !a.Destructive && risk["destructiveHint"] && !risk["readOnlyHint"] || !a.OpenWorld && risk["openWorldHint"] {
		bad("annotations %+v are weaker than the profile's risk %v", a, risk)
	}
	if pv.Reissue != "" && t.Verb.Reissue != pv.Reissue {
		bad("reissue %q, the profile says %q", t.Verb.Reissue, pv.Reissue)
	}
	for _, ro := range t.Verb.RestsOn {
		if ro.Tool == nil {
			continue
		}
		if ro.Tool.Surface != r.spec.Core() {
			bad("rests on %s, which is not a tool of the core surface", ro.Tool.Name)
		}
		if ro.When != "" && !hasBranch(t, ro.When) {
			bad("rests_on names branch %q, which %s lacks", ro.When, t.Name)
		}
		for _, f := range ro.Fields {
			if ro.Tool.Input(f[0]) == nil {
				bad("rests_on sets %s.%s, which does not exist", ro.Tool.Name, f[0])
			}
		}
		for _, f := range ro.Facts {
			if factPath(ro.Tool.Facts, f) == nil {
				bad("rests_on reads fact %s of %s, which does not exist", f, ro.Tool.Name)
			}
		}
	}
	r.checkInputs(t, pv, bad)
	r.checkFacts(t, c, resolve(p, pv.Contract.StructuredContent), bad)
}

func hasBranch(t *ir.Tool, name string) bool {
	for _, b := range t.Branches {
		if b.Name == name {
			return true
		}
	}
	return false
}

// factPath finds a fact by dotted path ("tabs[].url", "landing.url").
func factPath(fields []*ir.Field, path string) *ir.Field {
	head, rest, more := strings.Cut(path, ".")
	name := strings.TrimSuffix(head, "[]")
	for _, f := range fields {
		if f.Name != name {
			continue
		}
		if !more {
			return f
		}
		if f.Items != nil {
			return factPath(f.Items.Fields, rest)
		}
		return factPath(f.Fields, rest)
	}
	return nil
}

// jsonSchema is the part of a JSON Schema the checks read.
type jsonSchema struct {
	Ref        string                 `json:"$ref"`
	Type       string                 `json:"type"`
	Enum       []string               `json:"enum"`
	Properties map[string]*jsonSchema `json:"properties"`
	Required   []string               `json:"required"`
	Items      *jsonSchema            `json:"items"`
	Minimum    *int64                 `json:"minimum"`
	Maximum    *int64                 `json:"maximum"`
	Default    json.RawMessage        `json:"default"`
}

func parseSchema(raw json.RawMessage) *jsonSchema {
	s := &jsonSchema{}
	_ = json.Unmarshal(raw, s)
	return s
}

// resolve parses a contract, replacing $refs to the profile's objects.
func resolve(p *ir.Profile, raw json.RawMessage) *jsonSchema {
	s := parseSchema(raw)
	var walk func(*jsonSchema) *jsonSchema
	walk = func(s *jsonSchema) *jsonSchema {
		if s == nil {
			return nil
		}
		if name, ok := strings.CutPrefix(s.Ref, "#/objects/"); ok && p.Objects[name] != nil {
			s = parseSchema(p.Objects[name])
		}
		for k, c := range s.Properties {
			s.Properties[k] = walk(c)
		}
		s.Items = walk(s.Items)
		return s
	}
	return walk(s)
}

// checkInputs: the tool's inputs are the profile's input schema, tightened
// only: every profile property with its type, enum and default, limits
// within the profile's, the same required set; an extra input is optional.
func (r *reader) checkInputs(t *ir.Tool, pv *ir.ProfileVerb, bad func(string, ...any)) {
	ps := parseSchema(pv.Tool.InputSchema)
	for name, want := range ps.Properties {
		f := t.Input(name)
		if f == nil {
			bad("input %s of the profile's schema is missing", name)
			continue
		}
		if string(f.Type) != want.Type {
			bad("input %s is %s, the profile says %s", name, f.Type, want.Type)
		}
		if want.Enum != nil && strings.Join(f.EnumValues(), ",") != strings.Join(want.Enum, ",") {
			bad("input %s enumerates %v, the profile %v", name, f.EnumValues(), want.Enum)
		}
		if f.Type == ir.TypeInteger {
			b := f.Bound
			if want.Minimum != nil && (b == nil || b.Min == nil || *b.Min < *want.Minimum) || want.Maximum != nil && (b == nil || b.Max == nil || *b.Max > *want.Maximum) {
				bad("input %s's bounds are wider than the profile's", name)
			}
			if want.Default != nil && (b == nil || b.Def == nil || string(want.Default) != fmt.Sprint(*b.Def)) {
				bad("input %s's default differs from the profile's %s", name, want.Default)
			}
		}
	}
	var req []string
	for _, f := range t.Inputs {
		if f.Required {
			req = append(req, f.Name)
		}
		if ps.Properties[f.Name] == nil && f.Required {
			bad("input %s is not in the profile's schema and may not be required", f.Name)
		}
	}
	want := append([]string(nil), ps.Required...)
	sort.Strings(req)
	sort.Strings(want)
	if strings.Join(req, ",") != strings.Join(want, ",") {
		bad("required inputs %v, the profile's %v", req, want)
	}
}

// checkFacts: the tool's facts are exactly the contract's properties, with
// its types and enums; always exactly where the contract requires.
func (r *reader) checkFacts(t *ir.Tool, c *ir.Claim, contract *jsonSchema, bad func(string, ...any)) {
	var check func(at string, fields []*ir.Field, s *jsonSchema)
	check = func(at string, fields []*ir.Field, s *jsonSchema) {
		req := map[string]bool{}
		for _, n := range s.Required {
			req[n] = true
		}
		seen := map[string]bool{}
		for _, f := range fields {
			seen[f.Name] = true
			want := s.Properties[f.Name]
			if want == nil {
				// Properties of an implemented facet attach to objects.
				if !attached(c, f.Name) {
					bad("fact %s%s is not in the profile's contract", at, f.Name)
				}
				continue
			}
			if string(f.Type) != want.Type {
				bad("fact %s%s is %s, the contract says %s", at, f.Name, f.Type, want.Type)
			}
			if want.Enum != nil && strings.Join(f.EnumValues(), ",") != strings.Join(want.Enum, ",") {
				bad("fact %s%s enumerates %v, the contract %v", at, f.Name, f.EnumValues(), want.Enum)
			}
			if f.Always != req[f.Name] {
				bad("fact %s%s: always %v, but the contract requires it %v", at, f.Name, f.Always, req[f.Name])
			}
			if f.Type == ir.TypeArray && want.Items != nil && f.Items.Type == ir.TypeObject {
				check(at+f.Name+"[].", f.Items.Fields, want.Items)
			}
		}
		for n := range s.Properties {
			if !seen[n] {
				bad("the contract's %s%s has no fact", at, n)
			}
		}
	}
	check("", t.Facts, contract)
}

// attached reports whether name is an implemented profile property (a
// facet's property attaches to the objects a verb returns).
func attached(c *ir.Claim, name string) bool {
	for _, pc := range c.Properties {
		if pc.Property.Name == name && pc.Implemented {
			return true
		}
	}
	return false
}

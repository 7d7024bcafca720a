package conformance

import (
	"encoding/json"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/ghostlight-dev/ghostlight/generated/operator"
)

// The Operator class profile as vendored in spec/, read here without the
// generator: this test holds the generated claim and the served tools to
// the profile file itself.
type profileFile struct {
	ID         string                     `json:"id"`
	Baseline   string                     `json:"baseline"`
	Objects    map[string]json.RawMessage `json:"objects"`
	Facets     []struct{ ID string }      `json:"facets"`
	Properties []struct {
		ID, Name, Facet string
		AttachesTo      []string        `json:"attaches_to"`
		DegradesTo      json.RawMessage `json:"degrades_to"`
		Contract        json.RawMessage `json:"contract"`
	} `json:"properties"`
	Verbs []struct {
		ID, Name, Tier, Since, Facet, Reissue string
		Risk                                  map[string]bool `json:"risk"`
		DegradesTo                            json.RawMessage `json:"degrades_to"`
		Tool                                  struct {
			InputSchema json.RawMessage `json:"inputSchema"`
		} `json:"tool"`
		Contract struct {
			StructuredContent json.RawMessage `json:"structuredContent"`
		} `json:"contract"`
	} `json:"verbs"`
}

type claimFile struct {
	Profile  struct{ ID, File string } `json:"profile"`
	Baseline struct {
		ID          string   `json:"id"`
		Implemented bool     `json:"implemented"`
		Verbs       []string `json:"verbs"`
	} `json:"baseline"`
	Facets []struct {
		ID          string `json:"id"`
		Implemented bool   `json:"implemented"`
		Degradation []struct {
			Of         string          `json:"of"`
			DegradesTo json.RawMessage `json:"degrades_to"`
		} `json:"degradation"`
	} `json:"facets"`
	Verbs []struct {
		ID, Name, Tier, Since, Tool, Reissue, Semantics string
		Implemented                                     bool            `json:"implemented"`
		Annotations                                     map[string]bool `json:"annotations"`
		DegradesTo                                      json.RawMessage `json:"degrades_to"`
		RestsOn                                         []struct {
			Tool, Role string
			Fields     map[string]string
			Facts      []string
		} `json:"rests_on"`
		Unfixturable []string `json:"unfixturable"`
	} `json:"verbs"`
	Properties []struct {
		ID          string          `json:"id"`
		Implemented bool            `json:"implemented"`
		DegradesTo  json.RawMessage `json:"degrades_to"`
	} `json:"properties"`
	Objects []struct {
		Name string `json:"name"`
	} `json:"objects"`
	Extensions []string `json:"extensions"`
}

func readJSON(t *testing.T, path string, v any) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
}

func sameJSON(a, b json.RawMessage) bool {
	var x, y any
	return json.Unmarshal(a, &x) == nil && json.Unmarshal(b, &y) == nil && reflect.DeepEqual(x, y)
}

// TestOperatorClaimAccountsForTheProfile: every verb, property, facet and
// object of the profile is in the claim, with exact ids and versions; the
// baseline and the facets Ghostlight implements are served, the facet it
// does not is declared with the profile's own degradation.
func TestOperatorClaimAccountsForTheProfile(t *testing.T) {
	var p profileFile
	var c claimFile
	readJSON(t, "../spec/operator/profile.json", &p)
	readJSON(t, "../generated/operator/claim.json", &c)
	if c.Profile.ID != p.ID || c.Profile.File != "spec/operator/profile.json" {
		t.Errorf("claim names profile %q in %q", c.Profile.ID, c.Profile.File)
	}
	if c.Baseline.ID != p.Baseline || !c.Baseline.Implemented || c.Baseline.ID != "org.classprofiles.operator/core@1" {
		t.Errorf("baseline %+v, the profile's is %s", c.Baseline, p.Baseline)
	}
	wantFacets := map[string]bool{"operator/browser@1": true, "operator/screenshot@1": true, "operator/desktop@1": false}
	if len(c.Facets) != len(p.Facets) {
		t.Errorf("claim has %d facets, the profile %d", len(c.Facets), len(p.Facets))
	}
	for i, f := range p.Facets {
		if i >= len(c.Facets) || c.Facets[i].ID != f.ID {
			t.Errorf("facet %d: the profile's %s is not in the claim", i, f.ID)
			continue
		}
		cf := c.Facets[i]
		if want, ok := wantFacets[f.ID]; !ok || cf.Implemented != want {
			t.Errorf("facet %s implemented %v", f.ID, cf.Implemented)
		}
		if !cf.Implemented {
			// The profile's own degradation, for each of the facet's verbs and properties.
			deg := map[string]json.RawMessage{}
			for _, d := range cf.Degradation {
				deg[d.Of] = d.DegradesTo
			}
			for _, v := range p.Verbs {
				if v.Facet == f.ID && !sameJSON(deg[v.ID], v.DegradesTo) {
					t.Errorf("facet %s: %s degrades to %s, the profile says %s", f.ID, v.ID, deg[v.ID], v.DegradesTo)
				}
			}
			for _, pr := range p.Properties {
				if pr.Facet == f.ID && !sameJSON(deg[pr.ID], pr.DegradesTo) {
					t.Errorf("facet %s: %s degrades to %s, the profile says %s", f.ID, pr.ID, deg[pr.ID], pr.DegradesTo)
				}
			}
		}
	}
	if len(c.Verbs) != len(p.Verbs) {
		t.Fatalf("claim has %d verbs, the profile %d", len(c.Verbs), len(p.Verbs))
	}
	served := 0
	for i, v := range p.Verbs {
		cv := c.Verbs[i]
		if cv.ID != v.ID || cv.Name != v.Name || cv.Tier != v.Tier || cv.Since != v.Since {
			t.Errorf("verb %d: claim %s %s %s %s, profile %s %s %s %s", i, cv.ID, cv.Name, cv.Tier, cv.Since, v.ID, v.Name, v.Tier, v.Since)
		}
		implementedPart := v.Since == p.Baseline || wantFacets[v.Facet]
		if cv.Implemented != implementedPart {
			t.Errorf("%s: implemented %v", v.ID, cv.Implemented)
		}
		if !cv.Implemented {
			if cv.Tool != "" || !sameJSON(cv.DegradesTo, v.DegradesTo) {
				t.Errorf("%s: unsupported verb must name no tool and keep the profile's degradation", v.ID)
			}
			continue
		}
		served++
		want := "operator_" + strings.TrimPrefix(v.Name, "operator.")
		if cv.Tool != want || operator.Lookup(want) == nil {
			t.Errorf("%s: claim says tool %q, want %q on the operator surface", v.ID, cv.Tool, want)
		}
		if v.Reissue != "" && cv.Reissue != v.Reissue {
			t.Errorf("%s: reissue %q, the profile says %q", v.ID, cv.Reissue, v.Reissue)
		}
		if cv.Reissue == "" || cv.Semantics == "" || len(cv.RestsOn) == 0 {
			t.Errorf("%s: reissue, semantics and rests_on are required", v.ID)
		}
		for _, r := range cv.RestsOn {
			if r.Tool == "" || r.Role == "" || len(r.Fields) == 0 {
				t.Errorf("%s: rests_on entry %+v says too little", v.ID, r)
			}
		}
	}
	if served != len(operator.Catalog) {
		t.Errorf("claim serves %d verbs, the operator surface has %d tools", served, len(operator.Catalog))
	}
	wantProps := map[string]bool{"org.classprofiles.operator/address@1": true, "org.classprofiles.operator/application@1": false}
	if len(c.Properties) != len(p.Properties) {
		t.Errorf("claim has %d properties, the profile %d", len(c.Properties), len(p.Properties))
	}
	for i, pr := range p.Properties {
		if i >= len(c.Properties) || c.Properties[i].ID != pr.ID || c.Properties[i].Implemented != wantProps[pr.ID] {
			t.Errorf("property %s is not accounted for as implemented %v", pr.ID, wantProps[pr.ID])
			continue
		}
		if !c.Properties[i].Implemented && !sameJSON(c.Properties[i].DegradesTo, pr.DegradesTo) {
			t.Errorf("property %s: degradation differs from the profile's", pr.ID)
		}
	}
	var names []string
	for _, o := range c.Objects {
		names = append(names, o.Name)
	}
	if len(names) != len(p.Objects) {
		t.Errorf("claim objects %v, profile has %d", names, len(p.Objects))
	}
	for _, n := range names {
		if p.Objects[n] == nil {
			t.Errorf("claim object %s is not the profile's", n)
		}
	}
}

// effectiveHints applies MCP's defaults to stated hints.
func effectiveHints(stated map[string]bool) map[string]bool {
	eff := map[string]bool{"readOnlyHint": false, "destructiveHint": true, "idempotentHint": false, "openWorldHint": true}
	for k, v := range stated {
		eff[k] = v
	}
	return eff
}

// TestOperatorToolsKeepTheProfilesContracts holds each served verb to its
// profile verb: annotations never weaker than the profile's risk, the input
// schema the profile's tightened only, the output schema the profile's
// structuredContent contract with its $refs resolved.
func TestOperatorToolsKeepTheProfilesContracts(t *testing.T) {
	var p profileFile
	readJSON(t, "../spec/operator/profile.json", &p)
	for _, v := range p.Verbs {
		tool := operator.Lookup("operator_" + strings.TrimPrefix(v.Name, "operator."))
		if tool == nil {
			continue // an unsupported verb (checked against the claim above)
		}
		d := definitionOf(t, tool)
		ours, theirs := effectiveHints(d.Annotations), effectiveHints(v.Risk)
		if ours["readOnlyHint"] && !theirs["readOnlyHint"] || ours["idempotentHint"] && !theirs["idempotentHint"] ||
			!ours["openWorldHint"] && theirs["openWorldHint"] || !ours["readOnlyHint"] && !ours["destructiveHint"] && theirs["destructiveHint"] {
			t.Errorf("%s: hints %v are weaker than the profile's %v", tool.Name, ours, theirs)
		}
		checkTightened(t, tool.Name, v.Tool.InputSchema, d.InputSchema)
		want := resolveContract(t, p, v.Contract.StructuredContent)
		var got any
		if err := json.Unmarshal(d.OutputSchema, &got); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: outputSchema\n got %s\nwant %s", tool.Name, d.OutputSchema, mustMarshal(want))
		}
	}
}

func mustMarshal(v any) []byte { b, _ := json.Marshal(v); return b }

func listHas(l []string, s string) bool {
	for _, x := range l {
		if x == s {
			return true
		}
	}
	return false
}

// resolveContract replaces $refs to the profile's objects; the properties
// of implemented facets (address, operator/browser@1) join the objects they
// attach to.
func resolveContract(t *testing.T, p profileFile, raw json.RawMessage) any {
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		t.Fatal(err)
	}
	var walk func(any) any
	walk = func(v any) any {
		switch x := v.(type) {
		case map[string]any:
			if ref, ok := x["$ref"].(string); ok {
				name := strings.TrimPrefix(ref, "#/objects/")
				var o map[string]any
				if err := json.Unmarshal(p.Objects[name], &o); err != nil {
					t.Fatalf("$ref %s: %v", ref, err)
				}
				for _, pr := range p.Properties {
					if pr.Facet == "operator/browser@1" && listHas(pr.AttachesTo, "objects/"+name) {
						var c any
						_ = json.Unmarshal(pr.Contract, &c)
						o["properties"].(map[string]any)[pr.Name] = c
					}
				}
				return walk(o)
			}
			for k, c := range x {
				x[k] = walk(c)
			}
		case []any:
			for i := range x {
				x[i] = walk(x[i])
			}
		}
		return v
	}
	return walk(v)
}

// checkTightened: every property of the profile's input schema is ours with
// the same type, enum and default, any limit within the profile's; the
// required set is the same; our object is closed, and a property the
// profile lacks is optional and said in the claim's extensions.
func checkTightened(t *testing.T, tool string, profile, ours json.RawMessage) {
	type schema struct {
		Type                 string                    `json:"type"`
		Properties           map[string]map[string]any `json:"properties"`
		Required             []string                  `json:"required"`
		AdditionalProperties *bool                     `json:"additionalProperties"`
	}
	var want, got schema
	if json.Unmarshal(profile, &want) != nil || json.Unmarshal(ours, &got) != nil {
		t.Fatalf("%s: schemas do not parse", tool)
	}
	if got.AdditionalProperties == nil || *got.AdditionalProperties {
		t.Errorf("%s: input object not closed", tool)
	}
	for name, w := range want.Properties {
		g := got.Properties[name]
		if g == nil {
			t.Errorf("%s: input %s of the profile is missing", tool, name)
			continue
		}
		for _, k := range []string{"type", "enum", "default"} {
			if w[k] != nil && !reflect.DeepEqual(w[k], g[k]) {
				t.Errorf("%s: input %s %s is %v, the profile's %v", tool, name, k, g[k], w[k])
			}
		}
		if m, ok := w["minimum"].(float64); ok && (g["minimum"] == nil || g["minimum"].(float64) < m) {
			t.Errorf("%s: input %s minimum %v below the profile's %v", tool, name, g["minimum"], m)
		}
		if m, ok := w["maximum"].(float64); ok && (g["maximum"] == nil || g["maximum"].(float64) > m) {
			t.Errorf("%s: input %s maximum %v above the profile's %v", tool, name, g["maximum"], m)
		}
	}
	if strings.Join(sorted(got.Required), ",") != strings.Join(sorted(want.Required), ",") {
		t.Errorf("%s: required %v, the profile's %v", tool, got.Required, want.Required)
	}
	var c claimFile
	readJSON(t, "../generated/operator/claim.json", &c)
	for name := range got.Properties {
		if want.Properties[name] != nil {
			continue
		}
		said := false
		for _, e := range c.Extensions {
			said = said || strings.Contains(e, tool+" takes "+name)
		}
		if !said || listHas(got.Required, name) {
			t.Errorf("%s: input %s is beyond the profile's schema; it must be optional and named in the claim's extensions", tool, name)
		}
	}
}

func sorted(l []string) []string {
	out := append([]string(nil), l...)
	for i := range out {
		for j := i + 1; j < len(out); j++ {
			if out[j] < out[i] {
				out[i], out[j] = out[j], out[i]
			}
		}
	}
	return out
}

// TestOperatorClaimIsPublished: the Markdown claim states the profile, the
// baseline and each facet, and the README links it.
func TestOperatorClaimIsPublished(t *testing.T) {
	doc, err := os.ReadFile("../generated/docs/operator-profile.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"org.classprofiles.operator", "org.classprofiles.operator/core@1", "operator/browser@1", "operator/screenshot@1", "operator/desktop@1", "**not implemented**"} {
		if !strings.Contains(string(doc), s) {
			t.Errorf("operator-profile.md does not state %q", s)
		}
	}
	readme, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(readme), "(generated/docs/operator-profile.md)") {
		t.Error("README.md does not link generated/docs/operator-profile.md")
	}
}

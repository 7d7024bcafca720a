package gen

import (
	"os"
	"strings"
	"testing"

	"github.com/ghostlight-dev/ghostlight/gen/load"
)

// TestClaimIsHeldToTheProfile: a claim that drops or misstates a part of
// the vendored profile, or a verb that departs from its profile verb, is a
// load error naming what is wrong, not a silently weaker claim.
func TestClaimIsHeldToTheProfile(t *testing.T) {
	surfaceSrc, err := os.ReadFile("../spec/operator_surface.cue")
	if err != nil {
		t.Fatal(err)
	}
	verbsSrc, err := os.ReadFile("../spec/operator_verbs.cue")
	if err != nil {
		t.Fatal(err)
	}
	profile, err := os.ReadFile("../spec/operator/profile.json")
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		file, old, new, want string
	}{
		{"operator_surface.cue", `"operator/desktop@1": {implemented: false,`, `"operator/desktop@9": {implemented: false,`, "facet operator/desktop@1 of the profile is not accounted for"},
		{"operator_surface.cue", `"org.classprofiles.operator/focus_app@1": {doc:`, `"org.classprofiles.operator/focus_app@2": {doc:`, "verb org.classprofiles.operator/focus_app@1 of the profile is not accounted for"},
		{"operator_surface.cue", `Receipt: {doc:`, `Receit: {doc:`, "object Receipt of the profile is not accounted for"},
		{"operator_surface.cue", `"org.classprofiles.operator/application@1": {implemented: false,`, `"org.classprofiles.operator/application@1": {implemented: true,`, "property org.classprofiles.operator/application@1: implemented true"},
		{"operator_surface.cue", `perceive_limit: {doc: "Targets one operator_perceive returns.", min: 1, max: 200,`, `perceive_limit: {doc: "Targets one operator_perceive returns.", min: 1, max: 300,`, "input limit's bounds are wider than the profile's"},
		{"operator_surface.cue", `settle_wait_ms: {doc: "Longest operator_settle waits.", min: 0, max: 30000, default: 5000,`, `settle_wait_ms: {doc: "Longest operator_settle waits.", min: 0, max: 30000, default: 4000,`, "input wait_ms's default differs"},
		{"operator_verbs.cue", `	annotations: {read_only: false, destructive: true, idempotent: false, open_world: true}
	capabilities: ["action"]`, `	annotations: {read_only: false, destructive: false, idempotent: false, open_world: true}
	capabilities: ["action"]`, "weaker than the profile's risk"},
		{"operator_verbs.cue", `reissue:     "at_most_once_unenforced"
		reissue_doc: "Ghostlight does not de-duplicate inputs`, `reissue:     "idempotent"
		reissue_doc: "Ghostlight does not de-duplicate inputs`, `reissue "idempotent", the profile says "at_most_once_unenforced"`},
		{"operator_verbs.cue", `		width: {type: "integer", doc: "Image width px.", always: true}
`, ``, "the contract's width has no fact"},
		{"operator_verbs.cue", `		next_cursor: {type: "string", doc: "Continues the reading (pass it as cursor)."}`, `		next_cursor: {type: "string", doc: "Continues the reading (pass it as cursor)."}
		page: {type: "integer", doc: "Page."}`, "fact page is not in the profile's contract"},
		{"operator_verbs.cue", `{tool: "browser_click", when: "press", role: "performs", fields: {tab: "surface_id", target: "target"}`, `{tool: "browser_click", when: "press", role: "performs", fields: {tab: "surface_id", aim: "target"}`, "rests_on sets browser_click.aim"},
		{"operator/profile.json", `"name": "operator.capture"`, `"name": "operator.snapshot"`, "is named operator_snapshot"},
	}
	for _, c := range cases {
		src := map[string]string{"operator_surface.cue": string(surfaceSrc), "operator_verbs.cue": string(verbsSrc), "operator/profile.json": string(profile)}[c.file]
		if !strings.Contains(src, c.old) {
			t.Fatalf("%s no longer holds %q", c.file, c.old)
		}
		_, err := load.Dir("../spec", map[string]string{c.file: strings.Replace(src, c.old, c.new, 1)})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %q → %q: got %v, want %q", c.file, c.old, c.new, err, c.want)
		}
	}
}

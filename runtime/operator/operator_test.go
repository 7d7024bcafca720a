package operator

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/ghostlight-dev/ghostlight/generated/operator"
	"github.com/ghostlight-dev/ghostlight/generated/surface"
	"github.com/ghostlight-dev/ghostlight/runtime/pipeline"
)

func TestCursorRoundTrip(t *testing.T) {
	c := cursor{generation: 3, offset: 50, query: queryHash("submit")}
	s := c.String()
	if !strings.HasPrefix(s, surface.HandlePrefixCursor+"_") || len(s) > surface.CursorCharsMax {
		t.Fatalf("cursor %q is not a cursor handle within bounds", s)
	}
	for _, ch := range s[len(surface.HandlePrefixCursor)+1:] {
		if !(ch >= 'a' && ch <= 'z' || ch >= 'A' && ch <= 'Z' || ch >= '0' && ch <= '9') {
			t.Fatalf("cursor %q holds %q, which the decoder's handle rule refuses", s, ch)
		}
	}
	got, ok := parseCursor(s)
	if !ok || got != c {
		t.Fatalf("parse(%q) = %+v, %v", s, got, ok)
	}
	for _, bad := range []string{"cur_G3O0Qx", "cur_GxO5Qx", "cur_G3O5Q", "cur_3O5Qx", "tab_G3O5Qx", "cur_G-1O5Qx"} {
		if _, ok := parseCursor(bad); ok {
			t.Errorf("parse(%q) accepted", bad)
		}
	}
	if queryHash("a") == queryHash("b") || queryHash("") == queryHash("a") {
		t.Error("query hashes collide on trivial inputs")
	}
}

// TestStructuredBeforeTheHandler: a call refused before its handler ran
// still answers the contract's required members, with refusal beside them.
func TestStructuredBeforeTheHandler(t *testing.T) {
	cases := map[string]string{
		"operator_act":           `{"changed":false,"readiness":"changing","blocked_by":"capability_denied","refusal":{"reason":"capability_denied","capability":"action"}}`,
		"operator_navigate":      `{"changed":false,"readiness":"changing","blocked_by":"capability_denied","refusal":{"reason":"capability_denied","capability":"action"}}`,
		"operator_perceive":      `{"targets":[],"readiness":"changing","refusal":{"reason":"capability_denied","capability":"action"}}`,
		"operator_list_surfaces": `{"surfaces":[],"refusal":{"reason":"capability_denied","capability":"action"}}`,
		"operator_settle":        `{"readiness":"changing","refusal":{"reason":"capability_denied","capability":"action"}}`,
		"operator_capture":       `{"width":0,"height":0,"refusal":{"reason":"capability_denied","capability":"action"}}`,
	}
	r := pipeline.Result{Envelope: surface.Envelope{Readiness: surface.ReadinessNotApplicable, Status: surface.StatusBlocked},
		Refusal: &surface.Refusal{Reason: surface.ReasonCapabilityDenied, Capability: surface.CapabilityAction, Message: "never a fact"}}
	for tool, want := range cases {
		if got := string(Structured(tool, r)); got != want {
			t.Errorf("%s:\n got %s\nwant %s", tool, got, want)
		}
	}
	// Facts are the contract itself; refusal joins them.
	r.Facts = &operator.OperatorActFacts{Changed: true, Readiness: operator.ReadinessSettled}
	var v map[string]any
	if err := json.Unmarshal(Structured("operator_act", r), &v); err != nil || v["changed"] != true || v["refusal"] == nil {
		t.Errorf("facts with a refusal: %v %v", v, err)
	}
	r.Refusal = nil
	if got := string(Structured("operator_act", r)); got != `{"changed":true,"readiness":"settled"}` {
		t.Errorf("facts alone: %s", got)
	}
}

func TestBlockedByNamesDialogsAndGovernanceOnly(t *testing.T) {
	for reason, want := range map[surface.Reason]string{
		surface.ReasonDialogBlocking:    "dialog_blocking",
		surface.ReasonHostDenied:        "host_denied",
		surface.ReasonCapabilityDenied:  "capability_denied",
		surface.ReasonCredentialHandoff: "credential_handoff",
		surface.ReasonStaleTarget:       "",
		surface.ReasonTimeout:           "",
		surface.ReasonInvalidArguments:  "",
	} {
		if got := blockedBy(&surface.Refusal{Reason: reason}); got != want {
			t.Errorf("%s: blocked_by %q, want %q", reason, got, want)
		}
	}
}

// TestNextStepsNameOperatorTools: a refusal's next step never sends a model
// served only the operator verbs to a Ghostlight tool.
func TestNextStepsNameOperatorTools(t *testing.T) {
	for _, reason := range surface.ReasonValues {
		for _, s := range nextFor(&surface.Refusal{Reason: reason}, []string{"Call browser_inspect or browser_find for fresh targets.", "Call policy_explain to see what this session may do."}) {
			if strings.Contains(s, "browser_") || strings.Contains(s, "policy_explain") {
				t.Errorf("%s: next step %q names a tool of another surface", reason, s)
			}
		}
	}
	if got := nextFor(&surface.Refusal{Reason: surface.ReasonCredentialHandoff}, []string{"When the user says it is done, continue."}); len(got) != 1 || got[0] != "When the user says it is done, continue." {
		t.Errorf("a step naming no tool is kept: %v", got)
	}
}

func TestReadinessMapping(t *testing.T) {
	for _, r := range surface.ReadinessValues {
		if _, ok := operator.ReadinessFrom[r]; !ok {
			t.Errorf("readiness %s has no mapping", r)
		}
	}
	if readiness(surface.ReadinessComplete) != operator.ReadinessSettled || readiness("bogus") != operator.ReadinessChanging {
		t.Error("complete is settled; anything unknown is changing")
	}
}

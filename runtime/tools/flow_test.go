package tools

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
)

func TestFlowPassesResultsForward(t *testing.T) {
	h := newHarness(t)
	srv := site(t, map[string]string{"/": `<title>Flow</title><button onclick="document.title='clicked'">Save</button>`})
	r := h.must("browser_flow", `{"steps":[
		{"id":"open","tool":"browser_navigate","arguments":{"url":`+quote(srv.URL+"/")+`,"reuse":"never"}},
		{"id":"find","tool":"browser_find","arguments":{"text":"Save"}},
		{"id":"press","tool":"browser_click","arguments":{"target":{"flow_ref":{"step":"find","pointer":"/facts/matches/0/target"}}}},
		{"id":"title","tool":"browser_execute","arguments":{"script":"document.title"}}]}`)
	var f surface.BrowserFlowFacts
	h.facts(r, &f)
	if f.Completed != 4 || f.Total != 4 || f.Stopped || r.Envelope.Effect != surface.EffectApplied {
		t.Fatalf("flow: %s", r.JSON)
	}
	var last surface.Envelope
	json.Unmarshal(f.Steps[3].Envelope, &last)
	if !strings.Contains(string(last.Facts), `clicked`) {
		t.Fatalf("the click through a flow_ref did not land: %s", f.Steps[3].Envelope)
	}
	// Each step was audited on its own, linked to the flow.
	auditMu <- struct{}{}
	children := 0
	for _, a := range audited {
		if a.Parent == r.Envelope.Invocation {
			children++
		}
	}
	<-auditMu
	if children != 4 {
		t.Fatalf("%d child audit records, want 4", children)
	}
}

func TestFlowRefusalsAndDryRun(t *testing.T) {
	h := newHarness(t)
	// An unresolved reference fails its step without effect and stops the flow.
	r := h.call("browser_flow", `{"steps":[
		{"id":"a","tool":"browser_read","arguments":{"target":{"flow_ref":{"step":"nope","pointer":"/facts/x"}}}},
		{"id":"b","tool":"policy_explain"}]}`)
	var f surface.BrowserFlowFacts
	h.facts(r, &f)
	if r.Envelope.Status != surface.StatusFailed || f.Completed != 0 || !f.Stopped || f.Steps[0].Status != "failed" || len(f.Steps) != 1 {
		t.Fatalf("unresolved ref: %s", r.JSON)
	}
	if r.Envelope.RepeatSafe {
		t.Fatal("a failed flow is repeat-safe")
	}
	// Steps carry no restrictions of their own.
	r = h.call("browser_flow", `{"steps":[{"id":"a","tool":"policy_explain","arguments":{"restrict_hosts":["x.com"]}}]}`)
	h.facts(r, &f)
	if r.Envelope.Status != surface.StatusFailed || !strings.Contains(string(f.Steps[0].Envelope), "restrict_hosts") {
		t.Fatalf("step restrictions accepted: %s", r.JSON)
	}
	// on_error continue runs the rest; dry_run dispatches nothing.
	r = h.call("browser_flow", `{"on_error":"continue","steps":[{"id":"a","tool":"browser_read","arguments":{"max_chars":1}},{"id":"b","tool":"policy_explain"}]}`)
	f = surface.BrowserFlowFacts{}
	h.facts(r, &f)
	if f.Completed != 1 || len(f.Steps) != 2 || f.Stopped {
		t.Fatalf("continue: %s", r.JSON)
	}
	r = h.must("browser_flow", `{"dry_run":true,"steps":[{"id":"a","tool":"browser_navigate","arguments":{"url":"https://example.com"}}]}`)
	f = surface.BrowserFlowFacts{}
	h.facts(r, &f)
	if !f.DryRun || r.Envelope.Effect != surface.EffectNone || f.Steps[0].Status != "succeeded" {
		t.Fatalf("dry run: %s", r.JSON)
	}
	// The parent's restrictions bind every child.
	r = h.call("browser_flow", `{"restrict_capabilities":["read"],"steps":[{"id":"a","tool":"browser_execute","arguments":{"script":"1"}}]}`)
	f = surface.BrowserFlowFacts{}
	h.facts(r, &f)
	if f.Steps[0].Status != "blocked" {
		t.Fatalf("child escaped the parent's restriction: %s", r.JSON)
	}
}

package tools

import (
	"encoding/json"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
)

// flowCarried are the facts a flow carries beside its own.
type flowCarried struct {
	CaptureStoppedAt    string   `json:"capture_stopped_at"`
	CaptureOmittedBytes int      `json:"capture_omitted_bytes"`
	RunTimeChecks       []string `json:"run_time_checks"`
}

// Past the capture budget nothing more is recorded, even small envelopes
// that would fit; the aggregate says from which step on and how many bytes
// were left out, and references into unrecorded steps still resolve.
func TestFlowCaptureBudgetStopsRecording(t *testing.T) {
	h := newHarness(t)
	srv := site(t, map[string]string{"/": `<title>Budget</title><p>page</p>`})
	big := `"x".repeat(19000)`
	r := h.must("browser_flow", `{"steps":[
		{"id":"open","tool":"browser_navigate","arguments":{"url":`+quote(srv.URL+"/")+`,"reuse":"never"}},
		{"id":"big1","tool":"browser_execute","arguments":{"script":`+quote(big)+`,"max_result_chars":20000}},
		{"id":"big2","tool":"browser_execute","arguments":{"script":`+quote(big)+`,"max_result_chars":20000}},
		{"id":"small","tool":"browser_execute","arguments":{"script":"document.title"}},
		{"id":"again","tool":"browser_execute","arguments":{"script":{"flow_ref":{"step":"small","pointer":"/facts/value"}}}}]}`)
	var f surface.BrowserFlowFacts
	h.facts(r, &f)
	var c flowCarried
	h.facts(r, &c)
	if f.Completed != 5 {
		t.Fatalf("flow: %s", r.JSON)
	}
	for i, want := range []bool{true, true, false, false, false} {
		if got := len(f.Steps[i].Envelope) > 0; got != want {
			t.Fatalf("step %s recorded=%v, want %v", f.Steps[i].ID, got, want)
		}
	}
	if c.CaptureStoppedAt != "big2" || c.CaptureOmittedBytes < 19000 {
		t.Fatalf("capture facts: %+v in %s", c, r.Envelope.Facts)
	}
	if !strings.Contains(r.Envelope.Summary, "big2") || !strings.Contains(r.Envelope.Summary, strconv.Itoa(c.CaptureOmittedBytes)) {
		t.Fatalf("summary does not say what was left out: %s", r.Envelope.Summary)
	}
	if f.Steps[4].Status != surface.StatusSucceeded {
		t.Fatalf("a reference into an unrecorded step did not resolve: %s", r.JSON)
	}
}

// A composite's timeout_ms bounds each step: three waits that together
// outlast it all run.
func TestFlowTimeoutBoundsEachStep(t *testing.T) {
	h := newHarness(t)
	srv := site(t, map[string]string{"/": `<title>Waits</title>`})
	wait := `{"condition":"duration","value":700}`
	r := h.must("browser_flow", `{"timeout_ms":1000,"steps":[
		{"id":"open","tool":"browser_navigate","arguments":{"url":`+quote(srv.URL+"/")+`,"reuse":"never"}},
		{"id":"w1","tool":"browser_wait","arguments":`+wait+`},
		{"id":"w2","tool":"browser_wait","arguments":`+wait+`},
		{"id":"w3","tool":"browser_wait","arguments":`+wait+`}]}`)
	var f surface.BrowserFlowFacts
	h.facts(r, &f)
	if f.Completed != 4 {
		t.Fatalf("waits past the flow's timeout_ms did not run: %s", r.JSON)
	}
	// The same in a sequence.
	r = h.must("browser_sequence", `{"timeout_ms":1000,"steps":[
		{"action":"wait","condition":"duration","value":700},
		{"action":"wait","condition":"duration","value":700}]}`)
	var sf surface.BrowserSequenceFacts
	h.facts(r, &sf)
	if sf.CompletedSteps != 2 {
		t.Fatalf("sequence: %s", r.JSON)
	}
}

// The whole call is bounded by the ceiling; a step given what was left says
// the bound it met (failed with that limit, not cancelled under its own),
// and a step with nothing left is refused naming the ceiling.
func TestFlowCeilingIsSaidTruthfully(t *testing.T) {
	old := callCeiling
	callCeiling = 2500 * time.Millisecond
	t.Cleanup(func() { callCeiling = old })
	h := newHarness(t)
	srv := site(t, map[string]string{"/": `<title>Ceiling</title>`})
	r := h.call("browser_flow", `{"on_error":"continue","steps":[
		{"id":"open","tool":"browser_navigate","arguments":{"url":`+quote(srv.URL+"/")+`,"reuse":"never"}},
		{"id":"w1","tool":"browser_wait","arguments":{"condition":"text_present","value":"never there","timeout_ms":1000}},
		{"id":"w2","tool":"browser_wait","arguments":{"condition":"text_present","value":"never there"}},
		{"id":"w3","tool":"browser_wait","arguments":{"condition":"text_present","value":"never there"}}]}`)
	var f surface.BrowserFlowFacts
	h.facts(r, &f)
	if len(f.Steps) != 4 || r.Envelope.Status != surface.StatusFailed {
		t.Fatalf("flow: %s", r.JSON)
	}
	var w2 surface.Envelope
	if err := json.Unmarshal(f.Steps[2].Envelope, &w2); err != nil {
		t.Fatal(err)
	}
	var ref struct {
		Reason string `json:"reason"`
		Limit  string `json:"limit"`
	}
	json.Unmarshal(w2.Facts, &ref)
	limit, _ := strconv.Atoi(ref.Limit)
	if w2.Status != surface.StatusFailed || ref.Reason != "timeout" || limit <= 0 || limit >= 2500 ||
		!strings.Contains(w2.Summary, "within "+ref.Limit+" ms") {
		t.Fatalf("the clipped step does not say the bound it met: %s", f.Steps[2].Envelope)
	}
	if !strings.Contains(r.Envelope.Summary, "w2") || !strings.Contains(r.Envelope.Summary, "2500 ms ceiling") {
		t.Fatalf("flow summary: %s", r.Envelope.Summary)
	}
	var w3 surface.Envelope
	json.Unmarshal(f.Steps[3].Envelope, &w3)
	json.Unmarshal(w3.Facts, &ref)
	if w3.Status != surface.StatusFailed || ref.Reason != "timeout" || ref.Limit != "2500" || !strings.Contains(w3.Summary, "ceiling") {
		t.Fatalf("a step with nothing left: %s", f.Steps[3].Envelope)
	}
}

// dry_run decodes and classifies steps holding references, the reference
// standing in for a value of its field's type: branches, the other fields'
// bounds and capabilities are checked, and the report lists what is left to
// run time.
func TestFlowDryRunDecodesReferences(t *testing.T) {
	h := newHarness(t)
	ref := func(step, ptr string) string { return `{"flow_ref":{"step":"` + step + `","pointer":"` + ptr + `"}}` }
	r := h.must("browser_flow", `{"dry_run":true,"steps":[
		{"id":"find","tool":"browser_find","arguments":{"text":"Save"}},
		{"id":"press","tool":"browser_click","arguments":{"target":`+ref("find", "/facts/matches/0/target")+`,"click_count":2}},
		{"id":"go","tool":"browser_navigate","arguments":{"url":`+ref("find", "/facts/url")+`}},
		{"id":"typed","tool":"browser_type_text","arguments":{"target":`+ref("find", "/facts/matches/0/target")+`,"text":`+ref("find", "/facts/query")+`}},
		{"id":"waited","tool":"browser_wait","arguments":{"condition":"duration","value":`+ref("find", "/facts/count")+`}}]}`)
	var f surface.BrowserFlowFacts
	h.facts(r, &f)
	var c flowCarried
	h.facts(r, &c)
	for _, s := range f.Steps {
		if s.Status != surface.StatusSucceeded {
			t.Fatalf("step %s not decoded: %s", s.ID, r.JSON)
		}
	}
	for _, want := range []string{"press/target", "go/url", "typed/target", "typed/text", "waited/value"} {
		if !slices.Contains(c.RunTimeChecks, want) {
			t.Fatalf("run_time_checks %v lack %s", c.RunTimeChecks, want)
		}
	}
	if !strings.Contains(r.Envelope.Summary, "run time") {
		t.Fatalf("summary: %s", r.Envelope.Summary)
	}
	// The other fields are still checked: a bound, a branch, a reference to
	// no earlier step, and capabilities.
	cases := []struct{ args, status, reason string }{
		{`{"target":` + ref("find", "/x") + `,"click_count":9}`, "failed", "invalid_arguments"},
		{`{"target":` + ref("find", "/x") + `,"x":3}`, "failed", "invalid_arguments"},
		{`{"target":` + ref("later", "/x") + `}`, "failed", "flow_ref_unresolved"},
	}
	for _, tc := range cases {
		r = h.call("browser_flow", `{"dry_run":true,"steps":[{"id":"find","tool":"browser_find","arguments":{"text":"Save"}},
			{"id":"press","tool":"browser_click","arguments":`+tc.args+`},{"id":"later","tool":"policy_explain"}]}`)
		f = surface.BrowserFlowFacts{}
		h.facts(r, &f)
		var env surface.Envelope
		json.Unmarshal(f.Steps[1].Envelope, &env)
		if env.Status != surface.Status(tc.status) || !strings.Contains(string(env.Facts), `"reason":"`+tc.reason+`"`) || r.Envelope.Status != surface.StatusFailed {
			t.Fatalf("%s: %s", tc.args, r.JSON)
		}
	}
	r = h.call("browser_flow", `{"dry_run":true,"restrict_capabilities":["read"],"steps":[{"id":"find","tool":"browser_find","arguments":{"text":"Save"}},
		{"id":"press","tool":"browser_click","arguments":{"target":`+ref("find", "/facts/matches/0/target")+`}}]}`)
	f = surface.BrowserFlowFacts{}
	h.facts(r, &f)
	if f.Steps[1].Status != surface.StatusBlocked {
		t.Fatalf("a referenced step escaped the capability check: %s", r.JSON)
	}
}

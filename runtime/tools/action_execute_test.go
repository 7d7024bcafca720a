package tools

import (
	"strings"
	"testing"
	"time"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
)

func TestExecute(t *testing.T) {
	h := newHarness(t)
	srv := actSite(t, map[string]string{"/": `<title>Exec</title><p>hi</p>`, "/next": `<title>Next</title>`}, nil)
	tab := h.actOpen(srv.URL + "/")
	r := h.must("browser_execute", `{"script":"({sum: 1 + 2, title: document.title, secretish: 'zq-result-zq'})"}`)
	var f surface.BrowserExecuteFacts
	h.facts(r, &f)
	if f.Value != `{"sum":3,"title":"Exec","secretish":"zq-result-zq"}` || f.Truncated || f.Threw || r.Envelope.RepeatSafe || r.Envelope.Effect != surface.EffectApplied {
		t.Fatalf("execute: %s", r.JSON)
	}
	if strings.Contains(r.Envelope.Summary, "zq-result") || strings.Contains(r.Envelope.Summary, "sum") {
		t.Fatalf("script or result in the summary: %q", r.Envelope.Summary)
	}
	actNoReplay(t, r)
	// Bounded result.
	r = h.must("browser_execute", `{"script":"'x'.repeat(5000)","max_result_chars":100}`)
	f = surface.BrowserExecuteFacts{}
	h.facts(r, &f)
	if !f.Truncated || len([]rune(f.Value)) > 100 {
		t.Fatalf("truncation: %d chars, %s", len(f.Value), r.Envelope.Summary)
	}
	// A throw is a script error with the message in value.
	r = h.call("browser_execute", `{"script":"throw new Error('boom')"}`)
	actExpect(t, r, surface.StatusFailed, surface.EffectUnknown, surface.ReasonScriptError)
	f = surface.BrowserExecuteFacts{}
	h.facts(r, &f)
	if !f.Threw || !strings.Contains(f.Value, "boom") {
		t.Fatalf("throw: %s", r.JSON)
	}
	// timeout_ms holds for a script that never yields, and the page survives.
	start := time.Now()
	r = h.call("browser_execute", `{"script":"while(true){}","timeout_ms":600}`)
	actExpect(t, r, surface.StatusUnknown, surface.EffectUnknown, surface.ReasonTimeout)
	if el := time.Since(start); el > 600*time.Millisecond+3*time.Second {
		t.Fatalf("while(true) held the call %v", el)
	}
	actNoReplay(t, r)
	r = h.must("browser_execute", `{"script":"document.title"}`)
	h.facts(r, &f)
	if f.Value != `"Exec"` {
		t.Fatalf("page unusable after the loop: %s", r.JSON)
	}
	// A navigation the script causes is a landing.
	r = h.must("browser_execute", `{"script":"location.href = '/next'; 1"}`)
	f = surface.BrowserExecuteFacts{}
	h.facts(r, &f)
	if f.Landing == nil || f.Landing.Title != "Next" || !strings.Contains(r.Envelope.Summary, "landed on") {
		t.Fatalf("navigating script: %s", r.JSON)
	}
	// A dialog the script opens ends the call with the dialog reported.
	r = h.call("browser_execute", `{"script":"confirm('really?')"}`)
	actExpect(t, r, surface.StatusBlocked, surface.EffectApplied, surface.ReasonDialogBlocking)
	h.must("browser_dialog", `{"action":"accept"}`)
	_ = tab
	// Neither script nor result is audited.
	auditMu <- struct{}{}
	defer func() { <-auditMu }()
	for _, a := range audited {
		if strings.Contains(a.Tool+string(a.Reason)+strings.Join(a.Hosts, ","), "zq-result") {
			t.Fatalf("audit carries the result: %+v", a)
		}
	}
}

package tools

import (
	"strings"
	"testing"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
	"github.com/ghostlight-dev/ghostlight/runtime/handoff"
)

// TestHandoffLifecycle: a credential stop opens the tab's handoff; calls on
// the tab say it is still open until the person hands the tab back, and the
// next call after that says, once, that they completed it. Without a
// workbench the sentence names the browser window.
func TestHandoffLifecycle(t *testing.T) {
	h := newHarness(t)
	tab := h.actOpen(actFormSite(t) + "/")
	r := h.call("browser_fill_form", `{"tab":"`+tab+`","fields":[{"selector":{"name":"Password"},"value":"hunter2-secret"}]}`)
	actExpect(t, r, surface.StatusAttentionRequired, surface.EffectNone, surface.ReasonCredentialHandoff)
	if !strings.Contains(r.Envelope.Summary, "ask the user to type it themselves in the browser window showing the tab") ||
		strings.Contains(string(r.JSON), "handoff_url") || strings.Contains(string(r.JSON), "hunter2") {
		t.Fatalf("stop: %s", r.JSON)
	}
	var open []handoff.Handoff
	for _, ho := range testHandler.Handoffs() {
		if ho.Session == h.session {
			open = append(open, ho)
		}
	}
	if len(open) != 1 || open[0].Tab != tab || !strings.Contains(open[0].Field, "Password") || open[0].Host == "" {
		t.Fatalf("handoffs %+v", open)
	}
	if r := h.must("browser_read", `{"tab":"`+tab+`"}`); !strings.Contains(r.Envelope.Summary, "still open") {
		t.Fatalf("read while open: %q", r.Envelope.Summary)
	}
	if testHandler.Person().HandBack("another-session", tab) {
		t.Fatal("another session's tab was handed back")
	}
	if !testHandler.Person().HandBack(h.session, tab) || testHandler.Person().HandBack(h.session, tab) {
		t.Fatal("hand back: want true once")
	}
	r = h.must("browser_read", `{"tab":"`+tab+`"}`)
	if !strings.Contains(r.Envelope.Summary, "The user completed the credential handoff on "+tab) {
		t.Fatalf("read after: %q", r.Envelope.Summary)
	}
	if r := h.must("browser_read", `{"tab":"`+tab+`"}`); strings.Contains(r.Envelope.Summary, "handoff") {
		t.Fatalf("said twice: %q", r.Envelope.Summary)
	}
	for _, ho := range testHandler.Handoffs() {
		if ho.Session == h.session {
			t.Fatalf("still listed: %+v", ho)
		}
	}
}

package language

import (
	"strings"
	"testing"
	"time"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
)

// TestStatelessRefusals: a stateless client missing a tab is told to pass
// the handle from its navigate result, never to open one; one whose tabs
// were released for idleness is told so, with the bound; a session client
// keeps the plain words.
func TestStatelessRefusals(t *testing.T) {
	words := func(x Text) string { return x.Summary + " | " + strings.Join(x.NextSteps, " | ") }
	noTab := &surface.Refusal{Reason: surface.ReasonNoTab}
	if w := words(RefusalOver("browser_inspect", noTab, Stateless{})); !strings.Contains(w, "Open one with browser_navigate") {
		t.Errorf("session client: %s", w)
	}
	st := words(RefusalOver("browser_inspect", noTab, Stateless{On: true}))
	if !strings.Contains(st, "browser_navigate result") || strings.Contains(st, "Open one") {
		t.Errorf("stateless client without a tab: %s", st)
	}
	rel := Stateless{On: true, ReleasedIdle: 15 * time.Minute}
	for _, r := range []*surface.Refusal{noTab, {Reason: surface.ReasonUnknownTab}, {Reason: surface.ReasonUnknownHandle, Pointer: "/target"}} {
		if w := words(RefusalOver("browser_click", r, rel)); !strings.Contains(w, "released after 15 minutes without a call") {
			t.Errorf("%s after an idle release: %s", r.Reason, w)
		}
	}
	// A tab that closed is said as for any client.
	gone := &surface.Refusal{Reason: surface.ReasonUnknownTab, Message: "that tab has closed"}
	if RefusalOver("browser_click", gone, rel).Summary != Refusal("browser_click", gone).Summary {
		t.Error("a closed tab was worded as released")
	}
	if got := idleWords(1500 * time.Millisecond); got != "1 second" {
		t.Errorf("idleWords(1.5s) = %q", got)
	}
}

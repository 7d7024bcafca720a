package tools

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
	"github.com/ghostlight-dev/ghostlight/runtime/pipeline"
)

// An action by selector waits for its control to appear, as it waits for
// a cover to leave: the menu item below exists only once the test server
// answers the page's /gate request, which it does only after the click by
// selector is on its way. Before the gate opens the item cannot exist, so
// a click that did not wait could only fail; no timing decides the result.
func TestClickSelectorWaitsForItsControl(t *testing.T) {
	h := newHarness(t)
	gate := make(chan struct{})
	asked := make(chan struct{}, 1)
	srv := actSite(t, map[string]string{"/": `<title>Menu</title><button onclick="fetch('/gate').then(() => {
  const b = document.createElement('button'); b.textContent = 'Duplicate';
  b.onclick = () => { window.dup = (window.dup || 0) + 1 }; document.body.append(b) })">Options</button>`},
		map[string]http.HandlerFunc{"/gate": func(w http.ResponseWriter, r *http.Request) {
			asked <- struct{}{}
			select {
			case <-gate:
			case <-r.Context().Done():
			}
		}})
	t.Cleanup(func() {
		select {
		case <-gate:
		default:
			close(gate)
		}
	})
	tab := h.actOpen(srv.URL + "/")
	h.must("browser_click", `{"selector":{"name":"Options","role":"button"}}`)
	<-asked // the page is waiting on the gate: no Duplicate yet

	done := make(chan pipeline.Result, 1)
	go func() {
		done <- testPipe.Call(context.Background(), h.session, "browser_click", []byte(`{"selector":{"name":"Duplicate","role":"button"},"timeout_ms":20000}`), nil)
	}()
	select {
	case r := <-done:
		t.Fatalf("the click answered before its control existed: %s", r.JSON)
	default:
	}
	close(gate)
	r := <-done
	checkEnvelope(t, "browser_click", r)
	if r.Envelope.Status != surface.StatusSucceeded || !strings.Contains(r.Envelope.Summary, `"Duplicate" button`) {
		t.Fatalf("click on the control that appeared: %s", r.JSON)
	}
	var n int
	h.actEval(tab, `window.dup`, &n)
	if n != 1 {
		t.Fatalf("the page saw %d clicks on Duplicate", n)
	}

	// A selector that never matches is refused at the call's deadline,
	// saying how long it looked.
	r = h.call("browser_click", `{"selector":{"name":"No such control anywhere"},"timeout_ms":400}`)
	actExpect(t, r, surface.StatusFailed, surface.EffectNone, surface.ReasonTargetNotFound)
	if !strings.Contains(r.Envelope.Summary+string(r.Envelope.Facts), "still after") {
		t.Fatalf("the refusal does not say it waited: %s", r.JSON)
	}
}

package tools

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
	"github.com/ghostlight-dev/ghostlight/runtime/browser"
	"github.com/ghostlight-dev/ghostlight/runtime/browser/action"
)

// waitChecks counts the executor's checks that found a condition not yet
// holding (action.WaitChecks).
var waitChecks = &action.WaitChecks

// waitPage changes once its /go request answers: the test holds that answer
// until the wait is under way, so the change never races the test.
const waitPage = `<title>Later</title>
<p id="loading">Loading…</p><button id="gone">Vanishing</button>
<script>
fetch('/go').then(() => {
  document.getElementById('loading').remove();
  document.getElementById('gone').remove();
  document.body.insertAdjacentHTML('beforeend', '<p>Saved</p><button>Done later</button>');
  history.pushState({}, '', '/finished');
});
</script>`

func TestWaitConditions(t *testing.T) {
	h := newHarness(t)
	gate := make(chan struct{})
	srv := actSite(t, map[string]string{"/": waitPage}, map[string]http.HandlerFunc{"/go": func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-gate:
		case <-r.Context().Done():
		}
		w.WriteHeader(http.StatusNoContent)
	}})
	tab := h.actOpen(srv.URL + "/")
	gone := h.actTarget(tab, "Vanishing")
	present := h.actTarget(tab, "Loading")
	// Release the page's change once a check of the wait has found nothing.
	before := waitChecks.Load()
	go func() {
		for waitChecks.Load() == before {
			time.Sleep(time.Millisecond)
		}
		close(gate)
	}()
	r := h.must("browser_wait", `{"condition":"text_present","value":"saved"}`)
	var f surface.BrowserWaitFacts
	h.facts(r, &f)
	if !f.Satisfied || f.Condition != "text_present" || f.ElapsedMs < 0 || !r.Envelope.RepeatSafe || r.Envelope.Effect != surface.EffectNone {
		t.Fatalf("text_present: %s", r.JSON)
	}
	if waitChecks.Load() == before {
		t.Fatalf("the wait never found the text missing, though the page changed only after that: %s", r.JSON)
	}
	if !strings.Contains(r.Envelope.Summary, itoa(f.ElapsedMs)+" ms") {
		t.Fatalf("summary does not carry elapsed_ms: %q", r.Envelope.Summary)
	}
	for _, args := range []string{
		`{"condition":"text_absent","value":"Loading"}`,
		`{"condition":"url_contains","value":"/finished"}`,
		`{"condition":"selector_present","selector":{"name":"Done later","role":"button"}}`,
		`{"condition":"target_absent","target":"` + gone + `"}`,
		`{"condition":"load_ready"}`,
	} {
		r := h.must("browser_wait", args)
		h.facts(r, &f)
		if !f.Satisfied {
			t.Fatalf("%s: %s", args, r.JSON)
		}
	}
	// A present target; then the removed one times out as present.
	r = h.must("browser_wait", `{"condition":"target_present","target":"`+h.actTarget(tab, "Done later")+`"}`)
	start := time.Now()
	r = h.call("browser_wait", `{"condition":"target_present","target":"`+present+`","timeout_ms":300}`)
	actExpect(t, r, surface.StatusFailed, surface.EffectNone, surface.ReasonTimeout)
	f = surface.BrowserWaitFacts{}
	h.facts(r, &f)
	if f.Satisfied || f.ElapsedMs < 300 || !r.Envelope.RepeatSafe || time.Since(start) > 300*time.Millisecond+3*time.Second {
		t.Fatalf("unsatisfied wait: %s", r.JSON)
	}
	// Duration waits executor-side and may not exceed the call's bound.
	r = h.must("browser_wait", `{"condition":"duration","value":150}`)
	h.facts(r, &f)
	if f.ElapsedMs < 150 || !f.Satisfied {
		t.Fatalf("duration: %s", r.JSON)
	}
	r = h.call("browser_wait", `{"condition":"duration","value":5000,"timeout_ms":1000}`)
	actExpect(t, r, surface.StatusFailed, surface.EffectNone, surface.ReasonInvalidArguments)
	// A target of an older document can never be present again.
	h.must("browser_navigate", `{"url":`+quote(srv.URL+"/")+`,"tab":"`+tab+`"}`)
	actExpect(t, h.call("browser_wait", `{"condition":"target_present","target":"`+present+`"}`), surface.StatusFailed, surface.EffectNone, surface.ReasonStaleTarget)
	h.must("browser_wait", `{"condition":"target_absent","target":"`+present+`"}`)
}

func TestWaitProgressAndSlowPage(t *testing.T) {
	h := newHarness(t)
	srv := actSite(t, map[string]string{"/": `<title>Start</title><a href="/slow">Slow link</a><img src="/slow.png">`},
		map[string]http.HandlerFunc{
			"/slow": func(w http.ResponseWriter, r *http.Request) {
				time.Sleep(700 * time.Millisecond)
				w.Header().Set("Content-Type", "text/html")
				w.Write([]byte(`<title>Finally</title><p>slow content</p>`))
			},
			"/slow.png": func(w http.ResponseWriter, r *http.Request) {
				time.Sleep(300 * time.Millisecond)
				w.WriteHeader(http.StatusNotFound)
			},
		})
	tab := h.actOpen(srv.URL + "/")
	// The click waits for the slow answer and reports the landing.
	r := h.must("browser_click", `{"target":"`+h.actTarget(tab, "Slow link")+`"}`)
	var cf surface.BrowserClickFacts
	h.facts(r, &cf)
	if cf.Landing == nil || cf.Landing.Title != "Finally" || r.Envelope.Readiness != surface.ReadinessComplete {
		t.Fatalf("slow landing: %s", r.JSON)
	}
	// A wait past ProgressAfterMsMax notifies progress.
	var mu sync.Mutex
	var notes []string
	wait := surface.ProgressAfterMsMax + surface.ProgressAfterMsMax/2
	r = h.actCallP("browser_wait", `{"condition":"duration","value":`+itoa(wait)+`}`, func(p, total float64, msg string) {
		mu.Lock()
		notes = append(notes, msg)
		mu.Unlock()
	})
	if r.Envelope.Status != surface.StatusSucceeded {
		t.Fatalf("long wait: %s", r.JSON)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(notes) == 0 || !strings.Contains(notes[0], "duration") {
		t.Fatalf("no progress on a %d ms wait: %v", wait, notes)
	}
}

// TestWaitIgnoresNetworkEvents: only the tab's own state changes (loads,
// commits, dialogs) wake a check before the next poll. A page streaming
// requests while a wait runs costs one check per poll, not one per event.
func TestWaitIgnoresNetworkEvents(t *testing.T) {
	h := newHarness(t)
	// data: fetches are served in the renderer: a steady stream of Network
	// events whatever the machine's load.
	srv := actSite(t, map[string]string{"/": `<title>Busy net</title><p>here</p>
<script>setInterval(function () { for (var i = 0; i < 10; i++) fetch('data:text/plain,' + Math.random()); }, 4);</script>`}, nil)
	tab := h.actOpen(srv.URL + "/")
	h.diagnose(`{}`) // Network events flow on this tab from now on
	var events atomic.Int64
	h.actOnTab(tab, func(ctx context.Context, bt *browser.Tab) {
		o, err := bt.Observe(func(method string, _ json.RawMessage) {
			if strings.HasPrefix(method, "Network.") {
				events.Add(1)
			}
		})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(o.Stop)
	})
	const limit = 600
	before := waitChecks.Load()
	events.Store(0)
	r := h.call("browser_wait", `{"condition":"text_present","value":"never on this page","timeout_ms":`+itoa(limit)+`}`)
	actExpect(t, r, surface.StatusFailed, surface.EffectNone, surface.ReasonTimeout)
	checks, seen := waitChecks.Load()-before, events.Load()
	// Polls, plus room for the tab's own changes; one check per network
	// event would be far more.
	most := 2*int64(limit/surface.PollMsMax) + 10
	if checks > most {
		t.Fatalf("%d checks in %d ms: network events woke them (polling makes at most %d)", checks, limit, most)
	}
	if seen <= 2*most {
		t.Fatalf("the tab had only %d network events during the wait: the test proves nothing", seen)
	}
	t.Logf("%d checks while the tab had %d network events", checks, seen)
}

package tools

import (
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
)

const waitPage = `<title>Later</title>
<p id="loading">Loading…</p><button id="gone">Vanishing</button>
<script>
setTimeout(() => {
  document.getElementById('loading').remove();
  document.getElementById('gone').remove();
  document.body.insertAdjacentHTML('beforeend', '<p>Saved</p><button>Done later</button>');
  history.pushState({}, '', '/finished');
}, 400);
</script>`

func TestWaitConditions(t *testing.T) {
	h := newHarness(t)
	srv := actSite(t, map[string]string{"/": waitPage}, nil)
	tab := h.actOpen(srv.URL + "/")
	gone := h.actTarget(tab, "Vanishing")
	present := h.actTarget(tab, "Loading")
	r := h.must("browser_wait", `{"condition":"text_present","value":"saved"}`)
	var f surface.BrowserWaitFacts
	h.facts(r, &f)
	if !f.Satisfied || f.Condition != "text_present" || f.ElapsedMs <= 0 || !r.Envelope.RepeatSafe || r.Envelope.Effect != surface.EffectNone {
		t.Fatalf("text_present: %s", r.JSON)
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

package tools

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
)

func TestHistoryBackForwardReload(t *testing.T) {
	h := newHarness(t)
	srv := site(t, map[string]string{"/a": `<title>Page A</title><p>A</p>`, "/b": `<title>Page B</title><p>B</p>`})
	a := h.open(srv.URL + "/a")
	b := h.open(srv.URL + "/b")
	host := strings.TrimPrefix(srv.URL, "http://")

	back := h.must("browser_history", `{"action":"back"}`)
	var f surface.BrowserHistoryFacts
	h.facts(back, &f)
	if f.Tab != a.Tab || f.Action != "back" || f.URL != srv.URL+"/a" || f.Title != "Page A" || f.DocumentGeneration <= b.DocumentGeneration {
		t.Fatalf("back facts: %s", back.Envelope.Facts)
	}
	if back.Envelope.Readiness != surface.ReadinessComplete || back.Envelope.Effect != surface.EffectApplied || back.Envelope.RepeatSafe {
		t.Fatalf("back envelope: %s", back.JSON)
	}
	if !strings.Contains(back.Envelope.Summary, host) {
		t.Fatalf("summary %q does not name host %s", back.Envelope.Summary, host)
	}

	fwd := h.must("browser_history", `{"action":"forward","tab":"`+a.Tab+`"}`)
	var ff surface.BrowserHistoryFacts
	h.facts(fwd, &ff)
	if ff.URL != srv.URL+"/b" || ff.Title != "Page B" || ff.DocumentGeneration <= f.DocumentGeneration {
		t.Fatalf("forward facts: %s", fwd.Envelope.Facts)
	}
	// At the newest entry there is nothing forward: refused, nothing moved.
	r := h.refuse("browser_history", `{"action":"forward"}`, surface.ReasonNoHistoryEntry)
	if r.Envelope.Effect != surface.EffectNone || !strings.Contains(r.Envelope.Summary, "forward") {
		t.Fatalf("no forward entry: %s", r.JSON)
	}

	rl := h.must("browser_history", `{"action":"reload"}`)
	var rf surface.BrowserHistoryFacts
	h.facts(rl, &rf)
	if rf.Action != "reload" || rf.URL != srv.URL+"/b" || rf.DocumentGeneration <= ff.DocumentGeneration || rl.Envelope.Readiness != surface.ReadinessComplete {
		t.Fatalf("reload: %s", rl.JSON)
	}
}

func TestHistoryNoEntryOnFreshTab(t *testing.T) {
	h := newHarness(t)
	srv := site(t, map[string]string{"/": `<title>Only</title>`})
	h.open(srv.URL + "/")
	r := h.refuse("browser_history", `{"action":"back"}`, surface.ReasonNoHistoryEntry)
	if !strings.Contains(r.Envelope.Summary, "back") {
		t.Fatalf("summary: %s", r.Envelope.Summary)
	}
	// Without any tab, the call points to navigation.
	h2 := &harness{t: t, session: h.session + "_empty"}
	t.Cleanup(func() { testHandler.Release(context.Background(), h2.session) })
	h2.refuse("browser_history", `{"action":"reload"}`, surface.ReasonNoTab)
	// bypass_cache is refused outside reload by the decoder.
	h.refuse("browser_history", `{"action":"back","bypass_cache":true}`, surface.ReasonInvalidArguments)
}

// A cacheable script is served from the cache by a plain reload and fetched
// again by a reload that bypasses the cache.
func TestHistoryReloadBypassCache(t *testing.T) {
	h := newHarness(t)
	var fetched atomic.Int32
	mux := http.NewServeMux()
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprint(w, `<title>Cached</title><script src="/app.js"></script>`)
	})
	mux.HandleFunc("/app.js", func(w http.ResponseWriter, r *http.Request) {
		fetched.Add(1)
		w.Header().Set("Content-Type", "text/javascript")
		w.Header().Set("Cache-Control", "public, max-age=3600")
		fmt.Fprint(w, `window.loaded = true;`)
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	h.open(srv.URL + "/")
	if n := fetched.Load(); n != 1 {
		t.Fatalf("script fetched %d times on first load", n)
	}
	h.must("browser_history", `{"action":"reload"}`)
	if n := fetched.Load(); n != 1 {
		t.Fatalf("a plain reload fetched the cached script again (%d fetches)", n)
	}
	h.must("browser_history", `{"action":"reload","bypass_cache":true}`)
	if n := fetched.Load(); n != 2 {
		t.Fatalf("a cache-bypassing reload did not fetch the script (%d fetches)", n)
	}
}

// A reload whose page opens a dialog reports where it landed and that the
// dialog now blocks the page; perception then refuses until it is handled.
func TestHistoryReloadIntoDialog(t *testing.T) {
	h := newHarness(t)
	srv := site(t, map[string]string{"/": `<title>Again</title><script>
		if (sessionStorage.getItem('seen')) alert('welcome back'); sessionStorage.setItem('seen', '1');</script><p>hi</p>`})
	nav := h.open(srv.URL + "/")
	r := h.call("browser_history", `{"action":"reload"}`)
	var f struct {
		surface.BrowserHistoryFacts
		Reason     surface.Reason `json:"reason"`
		DialogType string         `json:"dialog_type"`
	}
	h.facts(r, &f)
	if r.Envelope.Status != surface.StatusSucceeded || r.Envelope.Effect != surface.EffectApplied || f.Reason != "" || f.DialogType != "alert" || f.Tab != nav.Tab || f.URL != srv.URL+"/" {
		t.Fatalf("reload into a dialog: %s", r.JSON)
	}
	if !strings.Contains(r.Envelope.Summary, "An alert dialog") || len(r.Envelope.NextSteps) != 1 || !strings.Contains(r.Envelope.NextSteps[0], "browser_dialog") {
		t.Fatalf("dialog sentence: %s", r.JSON)
	}
	h.refuse("browser_read", `{}`, surface.ReasonDialogBlocking)
	h.refuse("browser_screenshot", `{}`, surface.ReasonDialogBlocking)
}

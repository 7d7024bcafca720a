package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
	"github.com/ghostlight-dev/ghostlight/runtime/browser"
	"github.com/ghostlight-dev/ghostlight/runtime/browser/capture"
	"github.com/ghostlight-dev/ghostlight/runtime/browser/pagejs"
	"github.com/ghostlight-dev/ghostlight/runtime/pipeline"
)

// Test helpers for the action tools: targets come from pagejs directly (the
// perception tools are tested elsewhere), page state is read in the main
// world, and views are captured into the session's registry as
// browser_screenshot would.

// open navigates the session to url and returns its tab handle.
func (h *harness) actOpen(url string) string {
	h.t.Helper()
	r := h.must("browser_navigate", `{"url":`+quote(url)+`,"new_tab":true,"timeout_ms":30000}`)
	var f surface.BrowserNavigateFacts
	h.facts(r, &f)
	return f.Tab
}

func (h *harness) actSess() *session {
	testHandler.mu.Lock()
	defer testHandler.mu.Unlock()
	return testHandler.sessions[h.session]
}

// onTab runs fn holding the tab.
func (h *harness) actOnTab(tab string, fn func(ctx context.Context, t *browser.Tab)) {
	h.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	s := h.actSess()
	t, err := s.ws.Resolve(ctx, tab)
	if err != nil {
		h.t.Fatalf("resolve %s: %v", tab, err)
	}
	if err := t.Do(ctx, func(ctx context.Context) error { fn(ctx, t); return nil }); err != nil {
		h.t.Fatalf("hold %s: %v", tab, err)
	}
}

// target returns a fresh handle for the best match of text on the tab.
func (h *harness) actTarget(tab, text string) string {
	h.t.Helper()
	var out string
	h.actOnTab(tab, func(ctx context.Context, t *browser.Tab) {
		res, err := pagejs.Find(ctx, h.actSess().World(t), pagejs.FindRequest{Text: text, Scope: pagejs.FindAny, Max: 1})
		if err != nil || len(res.Matches) == 0 {
			h.t.Fatalf("no target for %q: %v", text, err)
		}
		out = h.actSess().targetHandle(t, t.Generation(), res.Matches[0].ID)
	})
	return out
}

// eval evaluates js in the page's main world and decodes its JSON value.
func (h *harness) actEval(tab, js string, v any) {
	h.t.Helper()
	h.actOnTab(tab, func(ctx context.Context, t *browser.Tab) {
		res, err := t.Page().Context(ctx).Eval(`() => JSON.stringify((` + js + `) ?? null)`)
		if err != nil {
			h.t.Fatalf("eval %s: %v", js, err)
		}
		if err := json.Unmarshal([]byte(res.Value.Str()), v); err != nil {
			h.t.Fatalf("eval %s: %v", js, err)
		}
	})
}

func (h *harness) actEvalString(tab, js string) string {
	var s string
	h.actEval(tab, js, &s)
	return s
}

// view captures the tab's viewport and registers it as a view.
func (h *harness) actView(tab string) (string, capture.View) {
	h.t.Helper()
	var handle string
	var v capture.View
	h.actOnTab(tab, func(ctx context.Context, t *browser.Tab) {
		shot, err := capture.Capture(ctx, t.Page(), capture.Request{Kind: capture.Viewport, MaxEdge: surface.ImageEdgePxMax, MaxBytes: surface.ImageBytesMax,
			Binding: actBinding(h.t, ctx, t)})
		if err != nil {
			h.t.Fatalf("capture: %v", err)
		}
		e := h.actSess().views.add(tab, shot.View, shot.MIME, shot.Data)
		handle, v = e.handle, shot.View
	})
	return handle, v
}

func actBinding(t testing.TB, ctx context.Context, tab *browser.Tab) capture.Binding {
	b, err := capture.ReadBinding(ctx, tab.Page(), tab.Generation())
	if err != nil {
		t.Fatalf("binding: %v", err)
	}
	return b
}

// imagePoint is the view pixel over the centre of the element with id.
func (h *harness) actImagePoint(tab string, v capture.View, id string) (int, int) {
	h.t.Helper()
	var c [2]float64
	h.actEval(tab, `(() => { const r = document.getElementById(`+quote(id)+`).getBoundingClientRect(); return [r.left + r.width/2 + scrollX, r.top + r.height/2 + scrollY] })()`, &c)
	x, y := v.FromCSS(c[0], c[1])
	return int(x), int(y)
}

// callP runs a call with a progress sink.
func (h *harness) actCallP(tool, args string, p pipeline.Progress) pipeline.Result {
	h.t.Helper()
	r := testPipe.Call(context.Background(), h.session, tool, []byte(args), p)
	checkEnvelope(h.t, tool, r)
	return r
}

// expect fails unless the result has the status, effect and reason given
// (reason "" = none).
func actExpect(t testing.TB, r pipeline.Result, status surface.Status, effect surface.Effect, reason surface.Reason) {
	t.Helper()
	var f struct {
		Reason surface.Reason `json:"reason"`
	}
	_ = json.Unmarshal(r.Envelope.Facts, &f)
	if r.Envelope.Status != status || r.Envelope.Effect != effect || f.Reason != reason {
		t.Fatalf("want %s/%s/%q, got %s/%s/%q: %s", status, effect, reason, r.Envelope.Status, r.Envelope.Effect, f.Reason, r.JSON)
	}
}

// noReplay fails when a result that is not repeat-safe suggests repeating.
func actNoReplay(t testing.TB, r pipeline.Result) {
	t.Helper()
	if r.Envelope.RepeatSafe {
		return
	}
	for _, s := range r.Envelope.NextSteps {
		l := strings.ToLower(s)
		if strings.Contains(l, "again") && !strings.Contains(l, "before acting again") || strings.Contains(l, "repeat") || strings.Contains(l, "retry") {
			t.Fatalf("a result that is not repeat-safe suggests replay: %q", s)
		}
	}
}

// actSite serves exact paths only: HTML pages, plus handlers for the paths
// that need more (a 204, a slow or hanging answer).
func actSite(t testing.TB, pages map[string]string, handlers map[string]http.HandlerFunc) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if hf, ok := handlers[r.URL.Path]; ok {
			hf(w, r)
			return
		}
		body, ok := pages[r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, body)
	}))
	t.Cleanup(func() { srv.CloseClientConnections(); srv.Close() })
	return srv
}

func hostOf(url string) string { return strings.TrimPrefix(url, "http://") }

func itoa(n int) string { return fmt.Sprint(n) }

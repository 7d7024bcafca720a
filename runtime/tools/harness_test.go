package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/ghostlight-dev/ghostlight/conformance/schemacheck"
	"github.com/ghostlight-dev/ghostlight/generated/surface"
	"github.com/ghostlight-dev/ghostlight/runtime/browser"
	"github.com/ghostlight-dev/ghostlight/runtime/governance"
	"github.com/ghostlight-dev/ghostlight/runtime/pipeline"
)

// One real headless Chromium for the package; every test gets its own
// session (workspace) in it.
var (
	testBrowser *browser.Browser
	testHandler *Handler
	testPipe    *pipeline.Pipeline
	audited     []pipeline.AuditRecord
)

func TestMain(m *testing.M) {
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	testBrowser = browser.New(browser.Config{Startup: browser.StartupAuto, Headless: true, Logger: log, Path: os.Getenv("GHOSTLIGHT_BROWSER")})
	var err error
	testHandler, err = New(Options{Browser: testBrowser, Logger: log, WorkDir: os.TempDir()}) // uploads read the tests' temp dirs
	if err != nil {
		panic(err)
	}
	testPipe = pipeline.New(pipeline.Options{Handler: testHandler, Authority: func() *governance.Authority { return governance.AllOpen("auto") }, Logger: log,
		Audit: func(r pipeline.AuditRecord) { auditMu <- struct{}{}; audited = append(audited, r); <-auditMu }})
	code := m.Run()
	testHandler.Close()
	testBrowser.Close()
	os.Exit(code)
}

var auditMu = make(chan struct{}, 1)

// harness drives the real pipeline for one session.
type harness struct {
	t       testing.TB
	session string
}

func newHarness(t testing.TB) *harness {
	h := &harness{t: t, session: strings.ReplaceAll(t.Name(), "/", "_")}
	t.Cleanup(func() { testHandler.Release(context.Background(), h.session) })
	return h
}

// call runs one tool call through the pipeline and holds its envelope to the
// tool's generated output schema and the envelope bounds.
func (h *harness) call(tool string, args string) pipeline.Result {
	h.t.Helper()
	r := testPipe.Call(context.Background(), h.session, tool, []byte(args), nil)
	checkEnvelope(h.t, tool, r)
	return r
}

// facts decodes a result's facts into v.
func (h *harness) facts(r pipeline.Result, v any) {
	h.t.Helper()
	if err := json.Unmarshal(r.Envelope.Facts, v); err != nil {
		h.t.Fatalf("facts: %v", err)
	}
}

// must calls and fails the test unless the call succeeded.
func (h *harness) must(tool, args string) pipeline.Result {
	h.t.Helper()
	r := h.call(tool, args)
	if r.Envelope.Status != surface.StatusSucceeded {
		h.t.Fatalf("%s %s: %s", tool, args, r.JSON)
	}
	return r
}

func checkEnvelope(t testing.TB, tool string, r pipeline.Result) {
	t.Helper()
	if err := schemacheck.Envelope(tool, r.JSON); err != nil {
		t.Fatalf("%s envelope does not validate against its output schema: %v\n%s", tool, err, r.JSON)
	}
	if n := utf8.RuneCountInString(r.Envelope.Summary); n == 0 || n > surface.SummaryCharsMax {
		t.Fatalf("%s summary of %d characters", tool, n)
	}
	if len(r.Envelope.NextSteps) > surface.NextStepsMax {
		t.Fatalf("%s: %d next steps", tool, len(r.Envelope.NextSteps))
	}
	if (r.Envelope.Effect == surface.EffectPartial || r.Envelope.Effect == surface.EffectUnknown) && r.Envelope.RepeatSafe {
		t.Fatalf("%s: %s effect marked repeat-safe", tool, r.Envelope.Effect)
	}
}

// site serves pages on 127.0.0.1: path → HTML.
func site(t testing.TB, pages map[string]string) *httptest.Server {
	t.Helper()
	mux := http.NewServeMux()
	for path, html := range pages {
		body := html
		mux.HandleFunc(path, func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			fmt.Fprint(w, body)
		})
	}
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv
}

func quote(s string) string { b, _ := json.Marshal(s); return string(b) }

func TestHarnessNavigateAndTabs(t *testing.T) {
	h := newHarness(t)
	srv := site(t, map[string]string{"/": `<title>Home</title><h1>Hello</h1><a href="/b">B</a>`})
	r := h.must("browser_navigate", `{"url":`+quote(srv.URL+"/")+`}`)
	var nav surface.BrowserNavigateFacts
	h.facts(r, &nav)
	host := strings.TrimPrefix(srv.URL, "http://")
	if !nav.Created || nav.Reused || nav.Title != "Home" || nav.DocumentGeneration < 1 || !strings.HasPrefix(nav.Tab, "tab_") {
		t.Fatalf("navigate facts: %+v", nav)
	}
	if r.Envelope.Summary != "Opened "+host+"." {
		t.Fatalf("summary %q does not name the host fact %q", r.Envelope.Summary, host)
	}
	if len(r.JSON) > 1024 {
		t.Fatalf("navigate receipt is %d bytes (budget 1 KB)", len(r.JSON))
	}
	l := h.must("browser_tabs", `{"action":"list"}`)
	var tabs surface.BrowserTabsFacts
	h.facts(l, &tabs)
	if len(tabs.Tabs) != 1 || tabs.Tabs[0].Tab != nav.Tab || tabs.Tabs[0].Title != "Home" {
		t.Fatalf("tabs: %s", l.Envelope.Facts)
	}
	// Another session does not see this one's tab.
	other := &harness{t: t, session: h.session + "_other"}
	t.Cleanup(func() { testHandler.Release(context.Background(), other.session) })
	ol := other.must("browser_tabs", `{"action":"list"}`)
	if strings.Contains(string(ol.Envelope.Facts), nav.Tab) {
		t.Fatal("another session lists this session's tab")
	}
	// Closing twice: the second succeeds without touching the browser.
	c := h.must("browser_tabs", `{"action":"close","tab":"`+nav.Tab+`"}`)
	var cf surface.BrowserTabsFacts
	h.facts(c, &cf)
	if !cf.Closed {
		t.Fatalf("close: %s", c.JSON)
	}
	c2 := h.must("browser_tabs", `{"action":"close","tab":"`+nav.Tab+`"}`)
	cf = surface.BrowserTabsFacts{}
	h.facts(c2, &cf)
	if cf.Closed || c2.Envelope.Effect != surface.EffectNone {
		t.Fatalf("second close: %s", c2.JSON)
	}
	// Navigating by the closed handle recreates it under the same handle.
	re := h.must("browser_navigate", `{"url":`+quote(srv.URL+"/")+`,"tab":"`+nav.Tab+`"}`)
	var rf surface.BrowserNavigateFacts
	h.facts(re, &rf)
	if rf.Tab != nav.Tab || !rf.Recreated || !strings.Contains(re.Envelope.Summary, nav.Tab) {
		t.Fatalf("recreate: %s", re.JSON)
	}
}

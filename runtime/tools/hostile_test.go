package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/go-rod/rod/lib/proto"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
	"github.com/ghostlight-dev/ghostlight/runtime/browser"
	"github.com/ghostlight-dev/ghostlight/runtime/pipeline"
)

// Hostile pages driven through the real pipeline (issue 8): a 100-million-character
// result, an image that never loads, a page that never sends headers, a dialog in the
// way of a capture, a page too tall to capture whole, a renderer that dies, a browser
// killed mid-wait, a popup storm.

// hostile serves the pages; /hang and /never never answer until the test ends.
func hostile(t *testing.T, pages map[string]string, extra map[string]http.HandlerFunc) string {
	t.Helper()
	release := make(chan struct{})
	hang := func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-release:
		case <-r.Context().Done():
		}
	}
	handlers := map[string]http.HandlerFunc{"/hang": hang, "/never.png": hang}
	for k, v := range extra {
		handlers[k] = v
	}
	u := actSite(t, pages, handlers).URL
	t.Cleanup(func() { close(release) }) // before the server's Close, which waits for handlers
	return u
}

func (h *harness) tabOf(handle string) *browser.Tab {
	h.t.Helper()
	t, err := h.actSess().ws.Resolve(context.Background(), handle)
	if err != nil {
		h.t.Fatalf("resolve %s: %v", handle, err)
	}
	return t
}

func reasonOf(t testing.TB, raw json.RawMessage) surface.Reason {
	var f struct {
		Reason surface.Reason `json:"reason"`
	}
	_ = json.Unmarshal(raw, &f)
	return f.Reason
}

// The result of browser_execute is cut inside the page: a 100 M-character value costs
// the server a few hundred KB, not the 653 MB it cost when the value crossed the wire.
func TestHostileExecuteBoundedAtSource(t *testing.T) {
	h := newHarness(t)
	u := hostile(t, map[string]string{"/": `<title>big</title><script>window.huge = "x".repeat(100e6)</script>`}, nil)
	h.actOpen(u + "/")
	for i := range 3 {
		runtime.GC()
		var m0, m1 runtime.MemStats
		runtime.ReadMemStats(&m0)
		rss0 := rssKB()
		r := h.must("browser_execute", `{"script":"huge","timeout_ms":20000}`)
		runtime.ReadMemStats(&m1)
		var f surface.BrowserExecuteFacts
		h.facts(r, &f)
		alloc := (m1.TotalAlloc - m0.TotalAlloc) >> 10
		t.Logf("run %d: %d-char value, truncated=%v; Go allocated %d KB during the call; RSS %d -> %d KB", i, utf8.RuneCountInString(f.Value), f.Truncated, alloc, rss0, rssKB())
		if !f.Truncated || utf8.RuneCountInString(f.Value) != surface.ResultCharsDefault {
			t.Fatalf("value of %d chars, truncated=%v", utf8.RuneCountInString(f.Value), f.Truncated)
		}
		if alloc > 40<<10 {
			t.Fatalf("the call allocated %d KB: the value crossed the wire", alloc)
		}
	}
}

// A page interactive within the bound while an image never loads is a success at
// readiness interactive, and the summary says what is still loading.
func TestHostileImageNeverLoads(t *testing.T) {
	h := newHarness(t)
	u := hostile(t, map[string]string{"/": `<title>img</title><p>text</p><img src="/never.png">`}, nil)
	r := h.call("browser_navigate", `{"url":`+quote(u+"/")+`,"timeout_ms":1500}`)
	if r.Envelope.Status != surface.StatusSucceeded || r.Envelope.Readiness != surface.ReadinessInteractive || r.Envelope.Effect != surface.EffectApplied {
		t.Fatalf("want succeeded/interactive: %s", r.JSON)
	}
	if !strings.Contains(r.Envelope.Summary, "1 image is still loading") {
		t.Fatalf("summary does not say what is loading: %s", r.Envelope.Summary)
	}
}

// A navigation that timed out before anything committed may still commit (a frozen
// browser that resumes does): its effect is unknown, never none. The tab that does not
// answer (its navigation pending) is listed at once with readiness unknown.
func TestHostileNavigationTimeoutUnknown(t *testing.T) {
	h := newHarness(t)
	u := hostile(t, map[string]string{"/": `<title>a</title><p>a</p>`, "/b": `<title>b</title>`}, nil)
	tab := h.actOpen(u + "/")
	other := h.actOpen(u + "/b")
	done := make(chan pipeline.Result, 1)
	go func() {
		done <- h.call("browser_navigate", `{"url":`+quote(u+"/hang")+`,"tab":"`+tab+`","timeout_ms":1500}`)
	}()
	for i := 0; i < 3; i++ {
		start := time.Now()
		l := h.must("browser_tabs", `{"action":"list"}`)
		var f surface.BrowserTabsFacts
		h.facts(l, &f)
		got := map[string]string{}
		for _, row := range f.Tabs {
			got[row.Tab] = string(row.Readiness)
		}
		t.Logf("tabs list with a navigation to a page that never sends headers: %v, %v", time.Since(start).Round(time.Millisecond), got)
		if got[other] != string(surface.ReadinessComplete) || got[tab] == "" {
			t.Fatalf("listing %v", got)
		}
	}
	res := <-done
	if res.Envelope.Effect != surface.EffectUnknown || reasonOf(t, res.Envelope.Facts) != surface.ReasonTimeout || res.Envelope.RepeatSafe {
		t.Fatalf("timed-out navigation: %s", res.JSON)
	}
}

// A full-page capture resizes the page, and this page answers the resize with an
// alert: the screenshot says a dialog blocks the page.
func TestHostileScreenshotMeetsDialog(t *testing.T) {
	h := newHarness(t)
	u := hostile(t, map[string]string{"/": `<title>d</title><body style="height:3000px">
		<script>addEventListener("resize", () => alert("resized"), {once: true})</script>tall</body>`}, nil)
	h.actOpen(u + "/")
	r := h.call("browser_screenshot", `{"full_page":true}`)
	var f struct {
		Reason     surface.Reason `json:"reason"`
		DialogType string         `json:"dialog_type"`
	}
	h.facts(r, &f)
	if r.Envelope.Status != surface.StatusBlocked || f.Reason != surface.ReasonDialogBlocking || f.DialogType != "alert" {
		t.Fatalf("screenshot meeting an alert: %s", r.JSON)
	}
	h.must("browser_dialog", `{"action":"accept"}`)
}

// A page far taller than wide is refused with the bound named, never returned as a
// 3x1568 sliver; a tall page within the bound is scaled down whole.
func TestHostileFullPageTooTall(t *testing.T) {
	h := newHarness(t)
	u := hostile(t, map[string]string{
		"/huge": `<title>t</title><body style="margin:0;height:670000px">tall</body>`,
		"/tall": `<title>t</title><body style="margin:0;height:12000px">tall</body>`,
	}, nil)
	h.actOpen(u + "/huge")
	r := h.call("browser_screenshot", `{"full_page":true}`)
	var f struct {
		Reason surface.Reason `json:"reason"`
		Limit  string         `json:"limit"`
	}
	h.facts(r, &f)
	if r.Envelope.Status != surface.StatusFailed || f.Reason != surface.ReasonNotSupported || f.Limit != strconv.Itoa(surface.FullPageAspectMax) ||
		!strings.Contains(r.Envelope.Summary, "full_page_aspect") || r.Image != nil {
		t.Fatalf("too-tall page: %s", r.JSON)
	}
	h.must("browser_navigate", `{"url":`+quote(u+"/tall")+`}`)
	shot, _ := h.screenshot(`{"full_page":true}`)
	if shot.Height != surface.ImageEdgePxMax || shot.Width < 150 {
		t.Fatalf("tall page image %dx%d, want the whole page at %d px tall", shot.Width, shot.Height, surface.ImageEdgePxMax)
	}
}

// A renderer that dies under a call ends that call with tab_crashed; later calls on
// the tab are refused at once with the remedy; the listing shows the crash; navigating
// the handle reloads it.
func TestHostileRendererCrash(t *testing.T) {
	h := newHarness(t)
	started := make(chan struct{}, 1)
	u := hostile(t, map[string]string{"/": `<title>c</title><p>alive</p>`}, map[string]http.HandlerFunc{
		"/started": func(w http.ResponseWriter, r *http.Request) {
			select {
			case started <- struct{}{}:
			default:
			}
		},
	})
	handle := h.actOpen(u + "/")
	tab := h.tabOf(handle)
	page := tab.Page()
	res := make(chan pipeline.Result, 1)
	go func() {
		res <- h.call("browser_execute", `{"script":"fetch('/started'); await new Promise(() => {})","timeout_ms":20000}`)
	}()
	<-started // the script is running in the page
	crashAt := time.Now()
	go func() { _ = proto.PageCrash{}.Call(page.Context(context.Background())) }()
	r := <-res
	t.Logf("the call in flight answered %v after the crash was requested", time.Since(crashAt).Round(time.Millisecond))
	if reasonOf(t, r.Envelope.Facts) != surface.ReasonTabCrashed || r.Envelope.Status != surface.StatusFailed {
		t.Fatalf("call in flight: %s", r.JSON)
	}
	for _, call := range [][2]string{{"browser_read", `{}`}, {"browser_screenshot", `{"tab":"` + handle + `"}`}, {"browser_wait", `{"condition":"load_ready"}`}} {
		start := time.Now()
		r := h.call(call[0], call[1])
		t.Logf("%s on the crashed tab: %v", call[0], time.Since(start).Round(time.Microsecond))
		if reasonOf(t, r.Envelope.Facts) != surface.ReasonTabCrashed || !strings.Contains(strings.Join(r.Envelope.NextSteps, " "), "browser_navigate") {
			t.Fatalf("%s on a crashed tab: %s", call[0], r.JSON)
		}
	}
	l := h.must("browser_tabs", `{"action":"list"}`)
	var lf surface.BrowserTabsFacts
	h.facts(l, &lf)
	if len(lf.Tabs) != 1 || lf.Tabs[0].Readiness != surface.ReadinessUnknown || !strings.Contains(l.Envelope.Summary, "crashed") {
		t.Fatalf("listing after a crash: %s", l.JSON)
	}
	n := h.must("browser_navigate", `{"url":`+quote(u+"/")+`,"tab":"`+handle+`"}`)
	var nf surface.BrowserNavigateFacts
	h.facts(n, &nf)
	if nf.Tab != handle || !nf.Recreated {
		t.Fatalf("navigating the crashed handle: %s", n.JSON)
	}
	rd := h.must("browser_read", `{}`)
	if !strings.Contains(string(rd.Envelope.Facts), "alive") {
		t.Fatalf("read after reload: %s", rd.JSON)
	}
}

// A browser killed during browser_wait says the browser went away, not that the
// condition did not hold.
func TestHostileBrowserKilledMidWait(t *testing.T) {
	h := newHarness(t)
	u := hostile(t, map[string]string{"/": `<title>w</title><p>waiting</p>`}, nil)
	h.actOpen(u + "/")
	var killed sync.Once
	start := time.Now()
	r := h.actCallP("browser_wait", `{"condition":"text_present","value":"never there","timeout_ms":8000}`, func(float64, float64, string) {
		killed.Do(func() { _ = killPID(browserPID(t)) }) // the first progress: the wait is under way
	})
	t.Logf("wait answered %v after it started", time.Since(start).Round(time.Millisecond))
	if reasonOf(t, r.Envelope.Facts) != surface.ReasonBrowserUnavailable || !strings.Contains(r.Envelope.Summary, "went away") || strings.Contains(r.Envelope.Summary, "did not hold") {
		t.Fatalf("wait under a killed browser: %s", r.JSON)
	}
}

// A page opening popups past session_tabs: the extra ones are closed at once and
// counted in popups_closed of the results that follow; the session's own new tabs are
// refused at the bound.
func TestHostilePopupsBounded(t *testing.T) {
	h := newHarness(t)
	n := surface.SessionTabsMax + 5
	u := hostile(t, map[string]string{
		"/":  fmt.Sprintf(`<title>storm</title><script>for (let i = 0; i < %d; i++) window.open("/p?i=" + i, "w" + i)</script>`, n),
		"/p": `<title>p</title>`,
	}, nil)
	want := n + 1 - surface.SessionTabsMax
	closed := 0
	r := h.must("browser_navigate", `{"url":`+quote(u+"/")+`,"timeout_ms":30000}`)
	closed += popupsClosed(t, r.Envelope.Facts)
	for deadline := time.Now().Add(30 * time.Second); closed < want; {
		if time.Now().After(deadline) {
			t.Fatalf("%d popups counted closed, want %d", closed, want)
		}
		r = h.must("browser_tabs", `{"action":"list"}`)
		closed += popupsClosed(t, r.Envelope.Facts)
	}
	var f surface.BrowserTabsFacts
	h.facts(h.must("browser_tabs", `{"action":"list"}`), &f)
	if len(f.Tabs) != surface.SessionTabsMax || closed != want {
		t.Fatalf("%d tabs, %d closed: want %d and %d", len(f.Tabs), closed, surface.SessionTabsMax, want)
	}
	r = h.call("browser_navigate", `{"url":`+quote(u+"/p")+`,"new_tab":true}`)
	if reasonOf(t, r.Envelope.Facts) != surface.ReasonTabLimit || r.Envelope.Effect != surface.EffectNone {
		t.Fatalf("a new tab past the bound: %s", r.JSON)
	}
}

func popupsClosed(t testing.TB, raw json.RawMessage) int {
	var f struct {
		PopupsClosed int `json:"popups_closed"`
	}
	if err := json.Unmarshal(raw, &f); err != nil {
		t.Fatal(err)
	}
	return f.PopupsClosed
}

func rssKB() int {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, l := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(l, "VmRSS:") {
			n, _ := strconv.Atoi(strings.TrimSuffix(strings.TrimSpace(strings.TrimPrefix(l, "VmRSS:")), " kB"))
			return n
		}
	}
	return 0
}

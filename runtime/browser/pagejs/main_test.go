package pagejs

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/go-rod/rod"

	"github.com/ghostlight-dev/ghostlight/runtime/browser"
	"github.com/go-rod/rod/lib/proto"
)

// One browser and two loopback servers (different ports, so different
// origins) serve the whole package.
var (
	testBrowser *rod.Browser
	siteA       *site // the pages under test
	siteB       *site // a cross-origin peer for iframes
)

type site struct {
	srv   *httptest.Server
	mu    sync.Mutex
	pages map[string]string
	n     int
}

func newSite() *site {
	s := &site{pages: map[string]string{}}
	s.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		body, ok := s.pages[r.URL.Path]
		s.mu.Unlock()
		if !ok {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, body)
	}))
	return s
}

// add serves html under a fresh path and returns its absolute URL.
func (s *site) add(html string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.n++
	p := fmt.Sprintf("/p%d", s.n)
	s.pages[p] = html
	return s.srv.URL + p
}

func TestMain(m *testing.M) {
	os.Exit(runMain(m))
}

func runMain(m *testing.M) int {
	// The same launch as the executor's (flags, private profile, cleanup).
	b, stopBrowser, err := browser.LaunchRod(context.Background(), browser.Config{Headless: true, Path: os.Getenv("GHOSTLIGHT_BROWSER")})
	if err != nil {
		fmt.Fprintln(os.Stderr, "launch:", err)
		return 1
	}
	defer stopBrowser()
	testBrowser = b
	siteA, siteB = newSite(), newSite()
	defer siteA.srv.Close()
	defer siteB.srv.Close()
	return m.Run()
}

// testCtx bounds every browser call of one test (benchmarks run longer).
func testCtx(t testing.TB) context.Context {
	d := 60 * time.Second
	if _, ok := t.(*testing.B); ok {
		d = 10 * time.Minute
	}
	ctx, cancel := context.WithTimeout(context.Background(), d)
	t.Cleanup(cancel)
	return ctx
}

// openPage serves html, opens it in a new tab of the shared browser and
// returns the page and a World for it.
func openPage(t testing.TB, html string) (*rod.Page, *World) {
	t.Helper()
	return openURL(t, siteA.add(html))
}

func openURL(t testing.TB, url string) (*rod.Page, *World) {
	t.Helper()
	ctx := testCtx(t)
	p, err := testBrowser.Context(ctx).Page(proto.TargetCreateTarget{URL: "about:blank"})
	if err != nil {
		t.Fatalf("new page: %v", err)
	}
	t.Cleanup(func() { _ = p.Close() })
	if err := (proto.EmulationSetDeviceMetricsOverride{Width: 1000, Height: 700, DeviceScaleFactor: 1}).Call(p); err != nil {
		t.Fatalf("viewport: %v", err)
	}
	navigate(t, p, url)
	w := NewWorld(p)
	w.SetLimits(testLimits)
	return p, w
}

func navigate(t testing.TB, p *rod.Page, url string) {
	t.Helper()
	ctx := testCtx(t)
	wait := p.Context(ctx).WaitNavigation(proto.PageLifecycleEventNameLoad)
	if err := p.Context(ctx).Navigate(url); err != nil {
		t.Fatalf("navigate: %v", err)
	}
	wait()
}

var testLimits = Limits{
	NameMax:                80,
	TitleMax:               100,
	CredentialAutocomplete: []string{"current-password", "new-password", "one-time-code", "cc-number", "cc-csc", "cc-exp"},
}

// mainEval evaluates js in the page's main world (where page scripts live).
func mainEval(t testing.TB, p *rod.Page, js string) string {
	t.Helper()
	res, err := p.Context(testCtx(t)).Eval(js)
	if err != nil {
		t.Fatalf("main-world eval: %v", err)
	}
	return res.Value.String()
}

func page(body string) string {
	return "<!doctype html><html><head><meta charset=utf-8><title>Test page</title></head><body>" + body + "</body></html>"
}

func names(items []Item) []string {
	out := make([]string, len(items))
	for i, it := range items {
		out[i] = it.Name
	}
	return out
}

func findItem(items []Item, name string) (Item, bool) {
	for _, it := range items {
		if it.Name == name {
			return it, true
		}
	}
	return Item{}, false
}

func mustKind(t *testing.T, err error, k Kind) *Error {
	t.Helper()
	if err == nil {
		t.Fatalf("want error of kind %v, got nil", k)
	}
	if KindOf(err) != k {
		t.Fatalf("want kind %v, got %v (%v)", k, KindOf(err), err)
	}
	e, _ := err.(*Error)
	return e
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func (w *World) currentSerial() int64 {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.serial
}

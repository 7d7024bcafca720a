package input

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/go-rod/rod"

	"github.com/ghostlight-dev/ghostlight/runtime/browser"
	"github.com/go-rod/rod/lib/proto"
)

// One headless Chromium and one loopback server serve the whole package: the machines have two cores.
var (
	testBrowser *rod.Browser
	testServer  *httptest.Server
	pages       sync.Map // path -> html
	pageSeq     atomic.Int64
)

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

	testServer = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		html, ok := pages.Load(r.URL.Path)
		if !ok {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = w.Write([]byte(html.(string)))
	}))
	defer testServer.Close()

	return m.Run()
}

// newPage serves html on loopback, opens it in a fresh tab and closes the tab when the test ends.
func newPage(tb testing.TB, html string) *rod.Page {
	tb.Helper()
	path := fmt.Sprintf("/p%d", pageSeq.Add(1))
	pages.Store(path, html)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	// The page must be attached under the browser's long-lived context: rod derives the page's session
	// context and event hub from it, so attaching under ctx would end event delivery when ctx ends.
	target, err := proto.TargetCreateTarget{URL: "about:blank"}.Call(testBrowser.Context(ctx))
	if err != nil {
		tb.Fatalf("open page: %v", err)
	}
	p, err := testBrowser.PageFromTarget(target.TargetID)
	if err != nil {
		tb.Fatalf("attach page: %v", err)
	}
	url := testServer.URL + path
	if _, err := (proto.PageNavigate{URL: url}).Call(p.Context(ctx)); err != nil {
		tb.Fatalf("navigate: %v", err)
	}
	// Poll rather than wait for a load event: about:blank's own load event can arrive late.
	if !waitJS(tb, p, fmt.Sprintf("location.href === %q && document.readyState === 'complete'", url), 5*time.Second) {
		tb.Fatalf("page %s did not load", url)
	}
	tb.Cleanup(func() {
		cctx, ccancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer ccancel()
		_ = p.Context(cctx).Close()
	})
	return p
}

// tctx bounds a test step.
func tctx(tb testing.TB, d time.Duration) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), d)
	tb.Cleanup(cancel)
	return ctx
}

// evalInto evaluates expr in the page's main world and decodes its JSON value into out.
func evalInto(tb testing.TB, p *rod.Page, expr string, out any) {
	tb.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	req := proto.RuntimeEvaluate{Expression: expr, ReturnByValue: true, AwaitPromise: true}
	raw, err := p.Call(ctx, string(p.SessionID), req.ProtoReq(), req)
	if err != nil {
		tb.Fatalf("eval %q: %v", expr, err)
	}
	var reply struct {
		Result           struct{ Value json.RawMessage }
		ExceptionDetails *struct{ Exception struct{ Description string } }
	}
	if err := json.Unmarshal(raw, &reply); err != nil {
		tb.Fatalf("eval %q: decode: %v", expr, err)
	}
	if reply.ExceptionDetails != nil {
		tb.Fatalf("eval %q threw: %s", expr, reply.ExceptionDetails.Exception.Description)
	}
	if out != nil && len(reply.Result.Value) > 0 {
		if err := json.Unmarshal(reply.Result.Value, out); err != nil {
			tb.Fatalf("eval %q: decode value %s: %v", expr, reply.Result.Value, err)
		}
	}
}

func evalStr(tb testing.TB, p *rod.Page, expr string) string {
	tb.Helper()
	var s string
	evalInto(tb, p, expr, &s)
	return s
}

func evalBool(tb testing.TB, p *rod.Page, expr string) bool {
	tb.Helper()
	var b bool
	evalInto(tb, p, expr, &b)
	return b
}

func evalNum(tb testing.TB, p *rod.Page, expr string) float64 {
	tb.Helper()
	var f float64
	evalInto(tb, p, expr, &f)
	return f
}

// center is the tiny stand-in for pagejs: the CSS viewport centre of the first element matching sel.
func center(tb testing.TB, p *rod.Page, sel string) Point {
	tb.Helper()
	var v [2]float64
	evalInto(tb, p, fmt.Sprintf(`(() => { const r = document.querySelector(%q).getBoundingClientRect();
		return [r.left + r.width / 2, r.top + r.height / 2]; })()`, sel), &v)
	return Point{X: v[0], Y: v[1]}
}

// waitJS polls expr until it is truthy or the deadline passes; async effects (scroll, change events) settle this way.
func waitJS(tb testing.TB, p *rod.Page, expr string, d time.Duration) bool {
	tb.Helper()
	deadline := time.Now().Add(d)
	for {
		if evalBool(tb, p, expr) {
			return true
		}
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func doc(body string) string {
	return "<!doctype html><html><head><meta charset=utf-8><title>t</title></head><body>" + body + "</body></html>"
}

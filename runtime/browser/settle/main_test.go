package settle

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/ghostlight-dev/ghostlight/runtime/browser"
	"github.com/ghostlight-dev/ghostlight/runtime/browser/input"
	"github.com/ghostlight-dev/ghostlight/runtime/browser/pagejs"
)

// One real headless Chromium and one loopback site for the package.
var (
	shared *browser.Browser
	site   *httptest.Server
	hang   = make(chan struct{})
)

const livePage = `<title>Settle</title>
<button id="still" style="position:absolute;left:10px;top:10px;width:120px;height:30px" onclick="window.n=(window.n||0)+1">Still</button>
<button id="grow" style="position:absolute;left:10px;top:50px;width:120px;height:30px" onclick="document.body.insertAdjacentHTML('beforeend','<p>added</p>')">Grow</button>
<button id="forever" style="position:absolute;left:10px;top:90px;width:120px;height:30px" onclick="fetch('/hang')">Forever</button>
<button id="nothing" style="position:absolute;left:10px;top:130px;width:120px;height:30px" onclick="fetch('/204').then(function () { window.fetched = 1 })">Nothing</button>
<a id="next" style="position:absolute;left:10px;top:170px" href="/next">Next</a>
<button id="chain" style="position:absolute;left:10px;top:210px;width:120px;height:30px" onclick="var k=0;(function f(){document.body.insertAdjacentHTML('beforeend','<i>c</i>');if(++k<5)requestAnimationFrame(f)})()">Chain</button>`

func TestMain(m *testing.M) {
	site = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/hang":
			select {
			case <-hang:
			case <-r.Context().Done():
			}
			return
		case "/204":
			w.WriteHeader(http.StatusNoContent)
			return
		case "/next":
			fmt.Fprint(w, `<title>Next</title><p>next</p>`)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, livePage)
	}))
	shared = browser.New(browser.Config{Startup: browser.StartupAuto, Headless: true, Path: os.Getenv("GHOSTLIGHT_BROWSER"),
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	code := m.Run()
	_ = shared.Close()
	close(hang) // release the hanging handlers before Close waits for them
	site.Close()
	os.Exit(code)
}

func liveConfig() Config {
	return Config{Quiet: 50 * time.Millisecond, Frames: 2, FrameGap: 16 * time.Millisecond, DOMPatience: time.Second, Retry: 8 * time.Millisecond}
}

// liveTab opens the test page in a fresh workspace's tab.
func liveTab(t testing.TB) (*browser.Tab, *pagejs.World) {
	t.Helper()
	id := strings.ReplaceAll(t.Name(), "/", "_")
	ws := shared.Workspace(id)
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = shared.ReleaseWorkspace(ctx, id)
	})
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	res, err := ws.Open(ctx, site.URL+"/", browser.OpenOptions{NewTab: true})
	if err != nil {
		t.Fatalf("open: %v", err)
	}
	return res.Tab, pagejs.NewWorld(res.Tab.Page())
}

// clickAndSettle holds the tab, starts a watch, clicks the centre of the
// element with id, and settles within bound.
func clickAndSettle(t testing.TB, tab *browser.Tab, w *pagejs.World, id string, bound time.Duration) (Result, time.Duration) {
	return clickAndSettleWith(t, tab, w, id, bound, liveConfig())
}

func clickAndSettleWith(t testing.TB, tab *browser.Tab, w *pagejs.World, id string, bound time.Duration, cfg Config) (Result, time.Duration) {
	t.Helper()
	pts := map[string]input.Point{"still": {X: 70, Y: 25}, "grow": {X: 70, Y: 65}, "forever": {X: 70, Y: 105},
		"nothing": {X: 70, Y: 145}, "next": {X: 20, Y: 175}, "chain": {X: 70, Y: 225}}
	var res Result
	var took time.Duration
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	err := tab.Do(ctx, func(ctx context.Context) error {
		start := time.Now()
		wt := Start(ctx, tab, w, cfg)
		defer wt.Close()
		if _, err := input.Click(ctx, tab.Page(), pts[id], "primary", 1); err != nil {
			return err
		}
		sctx, scancel := context.WithTimeout(ctx, bound)
		defer scancel()
		res = wt.Settle(sctx)
		took = time.Since(start)
		return nil
	})
	if err != nil {
		t.Fatalf("click %s: %v", id, err)
	}
	return res, took
}

func evalMain(t testing.TB, tab *browser.Tab, js string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	res, err := tab.Page().Context(ctx).Eval(`() => String(` + js + `)`)
	if err != nil {
		t.Fatalf("eval: %v", err)
	}
	return res.Value.Str()
}

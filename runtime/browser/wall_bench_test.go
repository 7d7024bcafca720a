package browser

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"slices"
	"testing"
	"time"

	"github.com/go-rod/rod/lib/proto"
)

// BenchmarkWallCost times the routine steps (a cached loopback navigation,
// a click, a read) in a context routed through its policy proxy and in one
// that is not, in one browser: medians of wallRuns runs each (figures in
// docs/performance.md). Run: go test ./runtime/browser/ -run '^$' -bench WallCost -benchtime 1x
func BenchmarkWallCost(b *testing.B) {
	const wallRuns = 25
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "max-age=600")
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprint(w, `<title>p</title><link rel="stylesheet" href="/s.css"><script src="/a.js"></script>
<button style="position:fixed;left:0;top:0;width:200px;height:100px" onclick="this.textContent='clicked '+Date.now()">b</button><p>text</p>`)
	})}
	go func() { _ = srv.Serve(ln) }()
	defer srv.Close()
	u := "http://" + ln.Addr().String() + "/page"
	for _, routed := range []bool{false, true} {
		cfg := testConfig()
		cfg.noWall = !routed
		br := New(cfg)
		ws := br.Workspace("bench")
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
		res, err := ws.Open(ctx, u, OpenOptions{NewTab: true})
		if err != nil {
			b.Fatal(err)
		}
		tab := res.Tab
		var nav, clk, read []time.Duration
		for i := 0; i < wallRuns+2; i++ {
			t0 := time.Now()
			if _, err := tab.Navigate(ctx, u, NavigateOptions{}); err != nil {
				b.Fatal(err)
			}
			t1 := time.Now()
			p := tab.Page().Context(ctx)
			for _, typ := range []proto.InputDispatchMouseEventType{proto.InputDispatchMouseEventTypeMousePressed, proto.InputDispatchMouseEventTypeMouseReleased} {
				if err := (proto.InputDispatchMouseEvent{Type: typ, X: 50, Y: 50, Button: proto.InputMouseButtonLeft, ClickCount: 1}).Call(p); err != nil {
					b.Fatal(err)
				}
			}
			t2 := time.Now()
			if _, err := (proto.RuntimeEvaluate{Expression: "document.body.innerText", ReturnByValue: true}).Call(p); err != nil {
				b.Fatal(err)
			}
			t3 := time.Now()
			if i >= 2 { // the first two fill the cache
				nav, clk, read = append(nav, t1.Sub(t0)), append(clk, t2.Sub(t1)), append(read, t3.Sub(t2))
			}
		}
		label := map[bool]string{true: "proxy", false: "direct"}[routed]
		b.ReportMetric(ms(median(nav)), label+"-navigate-ms")
		b.ReportMetric(ms(median(clk)), label+"-click-ms")
		b.ReportMetric(ms(median(read)), label+"-read-ms")
		cancel()
		_ = br.Close()
	}
}

func median(d []time.Duration) time.Duration {
	s := slices.Clone(d)
	slices.Sort(s)
	return s[len(s)/2]
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

package browser

import (
	"net"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/go-rod/rod/lib/proto"
)

// TestWallSpeculationOff: speculation-rules prefetch and prerender load
// nothing, even of an admitted host on the page's own site (127.0.0.1 at
// another port: same site, so eligible): the profile's network prediction
// preference disables preloading, and the browser says so for each attempt
// (Preload domain), which is what the wait ends on. Without the preference
// (measured by removing it), the same rules fetched both URLs (2 requests).
func TestWallSpeculationOff(t *testing.T) {
	var accepts, requests atomic.Int64
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		requests.Add(1)
		w.Header().Set("Content-Type", "text/html")
		_, _ = w.Write([]byte("<title>pre</title>"))
	})}
	go func() { _ = srv.Serve(&acceptCounter{Listener: ln, n: &accepts}) }()
	t.Cleanup(func() { _ = srv.Close() })
	h := newPageHost(t, map[string]string{"/p": `<title>ready</title>`})
	ws := newWS(t)
	tab := openTab(t, ws, "http://"+h.addr+"/p")
	p := tab.Page().Context(ctxT(t, 15*time.Second))
	statuses := make(chan string, 16)
	go p.EachEvent(
		func(e *proto.PreloadPrefetchStatusUpdated) {
			statuses <- "prefetch " + string(e.Status) + " " + string(e.PrefetchStatus)
		},
		func(e *proto.PreloadPrerenderStatusUpdated) {
			statuses <- "prerender " + string(e.Status) + " " + string(e.PrerenderStatus)
		})()
	if err := (proto.PreloadEnable{}).Call(p); err != nil {
		t.Fatal(err)
	}
	other := ln.Addr().String()
	eval(t, tab, `(() => { const s = document.createElement("script"); s.type = "speculationrules";
s.textContent = JSON.stringify({prerender:[{source:"list",urls:["http://`+other+`/pre"]}],prefetch:[{source:"list",urls:["http://`+other+`/pf"]}]});
document.head.append(s); return 1 })()`)
	var prefetch, prerender string
	deadline := time.After(10 * time.Second)
	for prefetch == "" || prerender == "" {
		select {
		case s := <-statuses:
			switch {
			case strings.HasPrefix(s, "prefetch ") && !strings.Contains(s, "Running") && !strings.Contains(s, "Pending"):
				prefetch = s
			case strings.HasPrefix(s, "prerender ") && !strings.Contains(s, "Running") && !strings.Contains(s, "Pending"):
				prerender = s
			}
		case <-deadline:
			t.Fatalf("no final preloading status (prefetch %q, prerender %q)", prefetch, prerender)
		}
	}
	if !strings.Contains(prefetch, "Failure") || !strings.Contains(prerender, "Failure") {
		t.Fatalf("preloading ran: %s; %s", prefetch, prerender)
	}
	if accepts.Load() != 0 || requests.Load() != 0 {
		t.Fatalf("the preloaded host saw %d accepts, %d requests (%s; %s)", accepts.Load(), requests.Load(), prefetch, prerender)
	}
	t.Logf("%s; %s", prefetch, prerender)
}

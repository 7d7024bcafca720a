package tools

import (
	"fmt"
	"net"
	"net/http"
	"strings"
	"testing"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
)

// TestPageStoppedLeavingWhileLoadingIsLoaded: a page that, while it still
// loads, sends itself to a denied host (a script's location change during
// parsing, a link it clicks itself, a cross-origin download link, which
// Chromium turns into a navigation) is stopped at the boundary and is then
// a loaded page. Chromium sends such a page no load event once its
// navigation is aborted; the call asks the page instead. Without that, the
// navigate answered "still loading" at its deadline (8 s, readiness
// loading). The denied host accepts no connection.
func TestPageStoppedLeavingWhileLoadingIsLoaded(t *testing.T) {
	pages := map[string]string{
		"/script":   `<title>script</title><script>location.href = "http://{B}/s?d=secret"</script><p>here</p>`,
		"/link":     `<title>link</title><a id="l" href="http://{B}/l?d=secret">l</a><script>document.getElementById("l").click()</script><p>here</p>`,
		"/download": `<title>download</title><a id="d" download href="http://{B}/d?d=secret">d</a><script>document.getElementById("d").click()</script><p>here</p>`,
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, strings.ReplaceAll(pages[r.URL.Path], "{B}", r.URL.Query().Get("b")))
	})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: mux}
	go func() { _ = srv.Serve(ln) }()
	t.Cleanup(func() { _ = srv.Close() })
	h := newHarness(t)
	for _, p := range []string{"/script", "/link", "/download"} {
		t.Run(strings.TrimPrefix(p, "/"), func(t *testing.T) {
			d := newTCPCounter(t)
			r := h.call("browser_navigate", `{"url":"http://`+ln.Addr().String()+p+`?b=`+d.addr+`","new_tab":true,`+onlyA+`}`)
			if r.Envelope.Status != surface.StatusSucceeded || r.Envelope.Readiness != surface.ReadinessComplete ||
				strings.Contains(r.Envelope.Summary, "still loading") || !strings.Contains(string(r.JSON), `"blocked_hosts":["`+d.addr+`"]`) {
				t.Fatalf("want a loaded page, its own navigation stopped at %s: %s", d.addr, r.JSON)
			}
			if n := d.accepts.Load(); n != 0 {
				t.Fatalf("the denied host accepted %d connections", n)
			}
		})
	}
}

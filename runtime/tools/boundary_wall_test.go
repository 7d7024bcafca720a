package tools

import (
	"fmt"
	"net"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
)

// tcpCounter is a denied host's listener on 127.0.0.2 that counts TCP
// accepts (whether or not a request follows).
type tcpCounter struct {
	addr    string
	accepts atomic.Int64
}

func newTCPCounter(t *testing.T) *tcpCounter {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.2:0")
	if err != nil {
		t.Fatal(err)
	}
	c := &tcpCounter{addr: ln.Addr().String()}
	go func() {
		for {
			conn, err := ln.Accept()
			if err != nil {
				return
			}
			c.accepts.Add(1)
			_, _ = fmt.Fprint(conn, "HTTP/1.1 200 OK\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
			_ = conn.Close()
		}
	}()
	t.Cleanup(func() { _ = ln.Close() })
	return c
}

// TestDeniedNavigationOpensNoConnection: through the tools, a click on a
// link or a form to a denied host, a script's location change, and the
// model's own navigation open no TCP connection to it (a fresh port each:
// Chromium reuses an idle socket to a port it knows), and the receipts stay
// as the contract says.
func TestDeniedNavigationOpensNoConnection(t *testing.T) {
	pages := map[string]string{}
	mux := http.NewServeMux()
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, strings.ReplaceAll(pages[r.URL.Path], "{B}", r.URL.Query().Get("b")))
	})
	pages["/link"] = `<title>link</title><a href="http://{B}/x?d=secret" style="display:block;height:60px">Leave</a>`
	pages["/form"] = `<title>form</title><form action="http://{B}/f" method="post"><input name="d" value="secret"><button>Send</button></form>`
	pages["/plain"] = `<title>plain</title><p>plain</p>`
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: mux}
	go func() { _ = srv.Serve(ln) }()
	t.Cleanup(func() { _ = srv.Close() })
	a := "http://" + ln.Addr().String()
	h := newHarness(t)
	for _, c := range []struct {
		name, page, tool, args string
	}{
		{"click a link", "/link", "browser_click", `{"selector":{"name":"Leave"},` + onlyA + `}`},
		{"submit a form", "/form", "browser_click", `{"selector":{"name":"Send"},` + onlyA + `}`},
		{"script location", "/plain", "browser_execute", `{"script":"location.href = 'http://{B}/s?d=secret'",` + onlyA + `}`},
		{"model navigate", "/plain", "browser_navigate", `{"url":"http://{B}/n?d=secret",` + onlyA + `}`},
	} {
		t.Run(c.name, func(t *testing.T) {
			d := newTCPCounter(t)
			var f surface.BrowserNavigateFacts
			h.facts(h.must("browser_navigate", `{"url":`+quote(a+c.page+"?b="+d.addr)+`,"new_tab":true,"timeout_ms":30000}`), &f)
			args := strings.Replace(strings.ReplaceAll(c.args, "{B}", d.addr), "{", `{"tab":`+quote(f.Tab)+`,`, 1)
			r := h.call(c.tool, args)
			if c.tool == "browser_navigate" && (r.Envelope.Status != surface.StatusBlocked || r.Envelope.Effect != surface.EffectNone) {
				t.Fatalf("the model's navigation: %s", r.JSON)
			}
			if c.tool != "browser_navigate" && !strings.Contains(r.Envelope.Summary, "stopped before it left the browser") {
				t.Fatalf("%s: the receipt does not say the navigation was stopped: %s", c.name, r.JSON)
			}
			if n := d.accepts.Load(); n != 0 {
				t.Fatalf("%s: the denied host accepted %d connections", c.name, n)
			}
		})
	}
}

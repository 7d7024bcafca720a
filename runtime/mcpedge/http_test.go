package mcpedge

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
)

func TestHTTPGuards(t *testing.T) {
	e := newEdge(t, newFake(nil))
	h := e.HTTPHandler(HTTPOptions{
		BearerToken:    "s3cret-token",
		AllowedHosts:   []string{"ghostlight.test", "pinned.test:9000"},
		AllowedOrigins: []string{"https://app.example"},
	})
	defer func() { _ = e.Close(context.Background()) }()
	const auth = "Bearer s3cret-token"
	for _, tc := range []struct {
		name   string
		host   string
		origin []string // nil: no Origin header
		auth   string
		path   string
		want   int
	}{
		{name: "loopback v4", host: "127.0.0.1:8080", auth: auth, want: http.StatusOK},
		{name: "loopback v6", host: "[::1]:8080", auth: auth, want: http.StatusOK},
		{name: "localhost any port", host: "LOCALHOST:1", auth: auth, want: http.StatusOK},
		{name: "localhost no port", host: "localhost", auth: auth, want: http.StatusOK},
		{name: "allowed host any port", host: "ghostlight.test:4444", auth: auth, want: http.StatusOK},
		{name: "allowed host its port", host: "pinned.test:9000", auth: auth, want: http.StatusOK},
		{name: "allowed host other port", host: "pinned.test:9001", auth: auth, want: http.StatusForbidden},
		{name: "rebinding host", host: "evil.example:8080", auth: auth, want: http.StatusForbidden},
		{name: "localhost suffix", host: "localhost.evil.example", auth: auth, want: http.StatusForbidden},
		{name: "empty host", host: "", auth: auth, want: http.StatusForbidden},
		{name: "loopback origin", host: "127.0.0.1:8080", origin: []string{"http://localhost:3000"}, auth: auth, want: http.StatusOK},
		{name: "allowed origin", host: "127.0.0.1:8080", origin: []string{"https://APP.example"}, auth: auth, want: http.StatusOK},
		{name: "foreign origin", host: "127.0.0.1:8080", origin: []string{"https://evil.example"}, auth: auth, want: http.StatusForbidden},
		{name: "null origin", host: "127.0.0.1:8080", origin: []string{"null"}, auth: auth, want: http.StatusForbidden},
		{name: "empty origin", host: "127.0.0.1:8080", origin: []string{""}, auth: auth, want: http.StatusForbidden},
		{name: "loopback origin other scheme", host: "127.0.0.1:8080", origin: []string{"file://localhost"}, auth: auth, want: http.StatusForbidden},
		{name: "two origins", host: "127.0.0.1:8080", origin: []string{"http://localhost", "https://evil.example"}, auth: auth, want: http.StatusForbidden},
		{name: "no token", host: "127.0.0.1:8080", want: http.StatusUnauthorized},
		{name: "wrong token", host: "127.0.0.1:8080", auth: "Bearer s3cret-tokeN", want: http.StatusUnauthorized},
		{name: "token prefix", host: "127.0.0.1:8080", auth: "Bearer s3cret", want: http.StatusUnauthorized},
		{name: "basic scheme", host: "127.0.0.1:8080", auth: "Basic s3cret-token", want: http.StatusUnauthorized},
		{name: "bare bearer", host: "127.0.0.1:8080", auth: "Bearer ", want: http.StatusUnauthorized},
		{name: "scheme case-insensitive", host: "127.0.0.1:8080", auth: "bearer s3cret-token", want: http.StatusOK},
		{name: "host checked before token", host: "evil.example", want: http.StatusForbidden},
		{name: "other path", host: "127.0.0.1:8080", auth: auth, path: "/other", want: http.StatusNotFound},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := MCPPath
			if tc.path != "" {
				path = tc.path
			}
			req := httptest.NewRequest(http.MethodPost, "http://127.0.0.1"+path, strings.NewReader(lineInitialize))
			req.Host = tc.host
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Accept", "application/json, text/event-stream")
			if tc.origin != nil {
				req.Header["Origin"] = tc.origin
			}
			if tc.auth != "" {
				req.Header.Set("Authorization", tc.auth)
			}
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, req)
			if rec.Code != tc.want {
				t.Fatalf("status %d, want %d (%s)", rec.Code, tc.want, rec.Body)
			}
			switch tc.want {
			case http.StatusOK:
				if rec.Header().Get("Mcp-Session-Id") == "" || !strings.Contains(rec.Body.String(), `"serverInfo"`) {
					t.Fatalf("accepted request not served by MCP: %s", rec.Body)
				}
			case http.StatusUnauthorized:
				if rec.Header().Get("WWW-Authenticate") != "Bearer" {
					t.Fatal("401 without WWW-Authenticate: Bearer")
				}
			}
		})
	}
}

// A real client with the token gets through end to end.
func TestHTTPBearerClient(t *testing.T) {
	e := newEdge(t, newFake(nil))
	srv := httptest.NewServer(e.HTTPHandler(HTTPOptions{BearerToken: "s3cret-token"}))
	defer srv.Close()
	defer func() { _ = e.Close(context.Background()) }()
	c := httpClient(t, srv, transport.WithHTTPHeaders(map[string]string{"Authorization": "Bearer s3cret-token"}))
	defer c.Close()
	res, err := c.CallTool(testCtx(t), mcp.CallToolRequest{Params: mcp.CallToolParams{Name: "browser_min"}})
	if err != nil || len(res.Content) != 1 {
		t.Fatalf("call: %v %v", res, err)
	}
}

// Unknown session ids are refused: sessions are stateful.
func TestHTTPUnknownSession(t *testing.T) {
	e := newEdge(t, newFake(nil))
	srv := httptest.NewServer(e.HTTPHandler(HTTPOptions{}))
	defer srv.Close()
	resp, body := httpPost(t, testCtx(t), srv.URL+MCPPath, "mcp-session-00000000-0000-0000-0000-000000000000",
		`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`)
	if resp == nil || resp.StatusCode != http.StatusNotFound {
		t.Fatalf("unknown session: %v %s", resp, body)
	}
}

func TestListenAndServe(t *testing.T) {
	h := http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { _, _ = w.Write([]byte("ok")) })
	for _, addr := range []string{":0", "0.0.0.0:0", "[::]:0", "example.com:80", "10.0.0.1:80"} {
		err := ListenAndServe(context.Background(), addr, h)
		var ee *Error
		if !errors.As(err, &ee) || ee.Kind != KindNonLoopbackAddress {
			t.Errorf("ListenAndServe(%q) = %v, want a non_loopback_address error", addr, err)
		}
	}
	if err := ListenAndServe(context.Background(), "no-port", h); err == nil {
		t.Error("an address without port was accepted")
	}

	serve := func(addr string, opts ...ListenOption) {
		t.Helper()
		ctx, cancel := context.WithCancel(testCtx(t))
		bound := make(chan net.Addr, 1)
		done := make(chan error, 1)
		go func() {
			done <- ListenAndServe(ctx, addr, h, append(opts, OnListen(func(a net.Addr) { bound <- a }))...)
		}()
		var a net.Addr
		select {
		case a = <-bound:
		case err := <-done:
			t.Fatalf("ListenAndServe(%q): %v", addr, err)
		}
		target := a.String()
		if tcp := a.(*net.TCPAddr); tcp.IP.IsUnspecified() {
			target = net.JoinHostPort("127.0.0.1", fmt.Sprint(tcp.Port))
		}
		resp, err := http.Get("http://" + target + "/")
		if err != nil {
			t.Fatalf("GET: %v", err)
		}
		resp.Body.Close()
		// Headers past http_header_bytes are refused before the handler runs.
		req, _ := http.NewRequest("GET", "http://"+target+"/", nil)
		req.Header.Set("X-Pad", strings.Repeat("a", surface.HttpHeaderBytesMax+8192))
		if resp, err := http.DefaultClient.Do(req); err != nil || resp.StatusCode != http.StatusRequestHeaderFieldsTooLarge {
			t.Fatalf("oversized headers: %v %v", resp, err)
		} else {
			resp.Body.Close()
		}
		cancel()
		select {
		case err := <-done:
			if err != nil {
				t.Fatalf("ListenAndServe returned %v after cancel", err)
			}
		case <-time.After(10 * time.Second):
			t.Fatal("ListenAndServe did not return after cancel")
		}
	}
	serve("127.0.0.1:0")
	serve("localhost:0")
	serve("0.0.0.0:0", AllowNonLoopback())
}

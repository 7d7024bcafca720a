package mcpedge

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
)

// Definitions as a generator might write them.
var (
	// defTabs is exactly what mcp-go writes for it (annotations in mcp-go's
	// field order, HTML escaped), with schema keys deliberately unsorted.
	defTabs = `{"annotations":{"title":"Tabs","readOnlyHint":true,"destructiveHint":false,"idempotentHint":true,"openWorldHint":false},"description":"List tabs \u003c= 10 \u0026 more","inputSchema":{"type":"object","properties":{"action":{"type":"string","enum":["list","focus"]},"tab":{"type":"string"}},"required":["action"],"additionalProperties":false},"name":"browser_tabs","outputSchema":{"type":"object","properties":{"status":{"type":"string"}},"required":["status"]},"title":"Tabs"}`
	// defNavigate has sorted annotation keys and unescaped <, >, &, a raw
	// U+2028 and non-ASCII text: mcp-go would write all of them differently.
	defNavigate = "{\"annotations\":{\"destructiveHint\":true,\"idempotentHint\":false,\"openWorldHint\":true,\"readOnlyHint\":false},\"description\":\"Navigate to <url> & wait > 0 ms \u2014 caf\u00e9\u2028done\",\"inputSchema\":{\"type\":\"object\",\"properties\":{\"url\":{\"type\":\"string\",\"maxLength\":2048}},\"required\":[\"url\"]},\"name\":\"browser_navigate\",\"outputSchema\":{\"type\":\"object\"},\"title\":\"Navigate\"}"
	// defMinimal has neither title nor output schema.
	defMinimal = `{"annotations":{},"description":"d","inputSchema":{"type":"object"},"name":"browser_min"}`
)

func testTools() []Tool {
	return []Tool{
		{Name: "browser_tabs", Definition: json.RawMessage(defTabs)},
		{Name: "browser_navigate", Definition: json.RawMessage(defNavigate)},
		{Name: "browser_min", Definition: json.RawMessage(defMinimal)},
	}
}

const testEnvelope = `{"invocation":"inv-1","status":"succeeded","effect":"applied","readiness":"complete","repeat_safe":false,"summary":"Clicked the \"Save\" button on example.com.","facts":{"tab":"t1"},"next_steps":["Take a screenshot.","Read the page."]}`

// fakeDispatcher records calls and closed sessions; call decides the reply.
type fakeDispatcher struct {
	tools []Tool
	call  func(ctx context.Context, c Call) Reply

	mu       sync.Mutex
	calls    []Call
	closed   []string
	closedCh chan string
}

func newFake(call func(ctx context.Context, c Call) Reply) *fakeDispatcher {
	if call == nil {
		call = func(context.Context, Call) Reply { return okReply() }
	}
	return &fakeDispatcher{tools: testTools(), call: call, closedCh: make(chan string, 16)}
}

func okReply() Reply {
	return Reply{
		Envelope:  json.RawMessage(testEnvelope),
		Summary:   `Clicked the "Save" button on example.com.`,
		NextSteps: []string{"Take a screenshot.", "Read the page."},
	}
}

func (f *fakeDispatcher) Tools() []Tool { return f.tools }

func (f *fakeDispatcher) Call(ctx context.Context, c Call) Reply {
	f.mu.Lock()
	f.calls = append(f.calls, c)
	f.mu.Unlock()
	return f.call(ctx, c)
}

// Busy answers like the pipeline's busy refusal, with the limit in it.
func (f *fakeDispatcher) Busy(c Call, limit int) Reply {
	return busyReply(limit)
}

func busyReply(limit int) Reply {
	env := fmt.Sprintf(`{"invocation":"inv-busy","status":"failed","effect":"none","readiness":"not_applicable","repeat_safe":true,"summary":"busy","facts":{"reason":"busy","limit":"%d"},"next_steps":["Wait."]}`, limit)
	return Reply{Envelope: json.RawMessage(env), Summary: "busy", NextSteps: []string{"Wait."}, IsError: true}
}

func (f *fakeDispatcher) SessionClosed(s string) {
	f.mu.Lock()
	f.closed = append(f.closed, s)
	f.mu.Unlock()
	f.closedCh <- s
}

func (f *fakeDispatcher) lastCall(t *testing.T) Call {
	t.Helper()
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(f.calls) == 0 {
		t.Fatal("dispatcher saw no call")
	}
	return f.calls[len(f.calls)-1]
}

func (f *fakeDispatcher) waitClosed(t *testing.T, want string, within time.Duration) {
	t.Helper()
	select {
	case got := <-f.closedCh:
		if got != want {
			t.Fatalf("SessionClosed(%q), want %q", got, want)
		}
	case <-time.After(within):
		t.Fatalf("SessionClosed(%q) not called within %v", want, within)
	}
}

func testLogger() *slog.Logger {
	if testing.Verbose() {
		return slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelDebug}))
	}
	return slog.New(slog.DiscardHandler)
}

// testLimits are the edge's bounds in tests: generous, except where a test
// sets its own.
func testLimits() Limits {
	return Limits{SessionCalls: 64, RequestBytes: 1 << 20, SessionIdle: time.Hour, EchoChars: 120, LogValueChars: 1000, StatelessIdle: time.Hour, StatelessPrincipals: 64, DrainRetryAfter: time.Second}
}

func newEdge(t testing.TB, d Dispatcher) *Edge {
	t.Helper()
	return newEdgeLimits(t, d, testLimits())
}

func newEdgeLimits(t testing.TB, d Dispatcher, l Limits) *Edge {
	t.Helper()
	e, err := New(d, Options{Name: "ghostlight", Version: "1.0.0-test", Logger: testLogger(), Limits: l})
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	return e
}

func testCtx(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(t.Context(), 20*time.Second)
	t.Cleanup(cancel)
	return ctx
}

// stdioConn is a stdio session served over io.Pipe.
type stdioConn struct {
	in   *io.PipeWriter // client → server
	out  *io.PipeReader // server → client
	done chan error     // ServeStdio's result
}

// serveStdio runs e.ServeStdio over pipes; closing conn.in ends the session.
func serveStdio(t *testing.T, e *Edge) *stdioConn {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	c := &stdioConn{in: inW, out: outR, done: make(chan error, 1)}
	go func() {
		err := e.ServeStdio(context.Background(), inR, outW)
		_ = outW.Close()
		c.done <- err
	}()
	t.Cleanup(func() {
		_ = inW.Close()
		select {
		case <-c.done:
		case <-time.After(10 * time.Second):
			t.Error("ServeStdio did not return after stdin closed")
		}
	})
	return c
}

// wait returns ServeStdio's result once stdin has been closed.
func (c *stdioConn) wait(t *testing.T) error {
	t.Helper()
	_ = c.in.Close()
	select {
	case err := <-c.done:
		c.done <- err // for the cleanup
		return err
	case <-time.After(10 * time.Second):
		t.Fatal("ServeStdio did not return after stdin closed")
		return nil
	}
}

// stdioClient connects an mcp-go client to a stdio session served over pipes.
func stdioClient(t *testing.T, e *Edge, opts ...client.ClientOption) (*client.Client, *stdioConn) {
	t.Helper()
	conn := serveStdio(t, e)
	c := client.NewClient(transport.NewIO(conn.out, conn.in, io.NopCloser(strings.NewReader(""))), opts...)
	initClient(t, c)
	return c, conn
}

func initClient(t *testing.T, c *client.Client) {
	t.Helper()
	ctx := testCtx(t)
	if err := c.Start(ctx); err != nil {
		t.Fatalf("client start: %v", err)
	}
	// A session-bearing revision: stateless (2026-07-28) clients have
	// their own tests (stateless_test.go).
	if _, err := c.Initialize(ctx, mcp.InitializeRequest{Params: mcp.InitializeParams{
		ProtocolVersion: mcp.ProtocolVersion20251125,
		ClientInfo:      mcp.Implementation{Name: "edge-test", Version: "1"},
	}}); err != nil {
		t.Fatalf("initialize: %v", err)
	}
}

// httpClient connects an mcp-go streamable HTTP client to an httptest server.
func httpClient(t *testing.T, srv *httptest.Server, opts ...transport.StreamableHTTPCOption) *client.Client {
	t.Helper()
	c, err := client.NewStreamableHttpClient(srv.URL+MCPPath, opts...)
	if err != nil {
		t.Fatalf("http client: %v", err)
	}
	initClient(t, c)
	return c
}

// rawRequest sends one JSON-RPC request through the client's transport and
// returns the result bytes exactly as they arrived.
func rawRequest(t *testing.T, c *client.Client, id int64, method string, params any) json.RawMessage {
	t.Helper()
	resp, err := c.GetTransport().SendRequest(testCtx(t), transport.JSONRPCRequest{
		JSONRPC: mcp.JSONRPC_VERSION, ID: mcp.NewRequestId(id), Method: method, Params: params,
	})
	if err != nil {
		t.Fatalf("%s: %v", method, err)
	}
	if resp.Error != nil {
		t.Fatalf("%s: JSON-RPC error %d %s", method, resp.Error.Code, resp.Error.Message)
	}
	return resp.Result
}

func mcpListTools() mcp.ListToolsRequest { return mcp.ListToolsRequest{} }

package mcpedge

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// blockingDispatcher: "browser_tabs" blocks until its context ends, then
// reports why; every other tool answers at once.
type blocking struct {
	entered chan struct{}
	ended   chan error
}

func blockingDispatcher() (*fakeDispatcher, *blocking) {
	b := &blocking{entered: make(chan struct{}, 1), ended: make(chan error, 1)}
	f := newFake(func(ctx context.Context, c Call) Reply {
		if c.Tool == "browser_tabs" {
			b.entered <- struct{}{}
			<-ctx.Done()
			c.Progress(1, 0, "after cancel") // must go nowhere
			b.ended <- ctx.Err()
		}
		return okReply()
	})
	return f, b
}

func (b *blocking) waitEntered(t *testing.T) {
	t.Helper()
	select {
	case <-b.entered:
	case <-time.After(10 * time.Second):
		t.Fatal("dispatcher never entered")
	}
}

func (b *blocking) waitEnded(t *testing.T) {
	t.Helper()
	select {
	case err := <-b.ended:
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("dispatcher context ended with %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("dispatcher context was not cancelled")
	}
}

// linePeer plays an MCP client over raw newline-framed JSON.
type linePeer struct {
	t     *testing.T
	w     io.Writer
	lines chan string // every line the server wrote, closed at EOF
}

func newLinePeer(t *testing.T, w io.Writer, r io.Reader) *linePeer {
	p := &linePeer{t: t, w: w, lines: make(chan string, 64)}
	go func() {
		defer close(p.lines)
		sc := bufio.NewScanner(r)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for sc.Scan() {
			p.lines <- sc.Text()
		}
	}()
	return p
}

func (p *linePeer) send(format string, args ...any) {
	p.t.Helper()
	if _, err := fmt.Fprintf(p.w, format+"\n", args...); err != nil {
		p.t.Fatalf("write: %v", err)
	}
}

// until reads lines until one answers id, returning all lines read.
func (p *linePeer) until(id int) []string {
	p.t.Helper()
	var seen []string
	timeout := time.After(10 * time.Second)
	for {
		select {
		case l, ok := <-p.lines:
			if !ok {
				p.t.Fatalf("output ended before the answer to %d; saw %q", id, seen)
			}
			seen = append(seen, l)
			if messageID(l) == fmt.Sprint(id) {
				return seen
			}
		case <-timeout:
			p.t.Fatalf("no answer to %d; saw %q", id, seen)
		}
	}
}

// rest drains the output until EOF.
func (p *linePeer) rest() []string {
	var seen []string
	timeout := time.After(10 * time.Second)
	for {
		select {
		case l, ok := <-p.lines:
			if !ok {
				return seen
			}
			seen = append(seen, l)
		case <-timeout:
			p.t.Fatal("output did not end")
		}
	}
}

func messageID(line string) string {
	var m struct {
		ID json.RawMessage `json:"id"`
	}
	_ = json.Unmarshal([]byte(line), &m)
	return string(m.ID)
}

const (
	lineInitialize  = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"peer","version":"1"}}}`
	lineInitialized = `{"jsonrpc":"2.0","method":"notifications/initialized"}`
	lineCancel7     = `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":7,"reason":"user"}}`
)

// cancelScenario: call 7 blocks and is cancelled, call 9 is answered, ping 8
// proves the session still works; then stdin closes and every line the
// server wrote is returned.
func cancelScenario(t *testing.T, p *linePeer, b *blocking, closeIn func()) []string {
	p.send(lineInitialize)
	out := p.until(1)
	p.send(lineInitialized)
	p.send(`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"browser_tabs","arguments":{"action":"list"},"_meta":{"progressToken":"p7"}}}`)
	b.waitEntered(t)
	p.send(lineCancel7)
	b.waitEnded(t)
	p.send(`{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"browser_min"}}`)
	out = append(out, p.until(9)...)
	p.send(`{"jsonrpc":"2.0","id":8,"method":"ping"}`)
	out = append(out, p.until(8)...)
	closeIn()
	return append(out, p.rest()...)
}

func answered(lines []string, id string) bool {
	for _, l := range lines {
		if messageID(l) == id {
			return true
		}
	}
	return false
}

func TestCancelledCallIsNotAnsweredStdio(t *testing.T) {
	f, b := blockingDispatcher()
	e := newEdge(t, f)
	conn := serveStdio(t, e)
	p := newLinePeer(t, conn.in, conn.out)
	lines := cancelScenario(t, p, b, func() {
		if err := conn.wait(t); err != nil {
			t.Errorf("ServeStdio: %v", err)
		}
	})
	assertProtocolOnly(t, lines)
	if answered(lines, "7") {
		t.Errorf("the cancelled call was answered: %q", lines)
	}
	if !answered(lines, "9") {
		t.Error("the next call was not answered")
	}
	for _, l := range lines {
		if strings.Contains(l, `"p7"`) {
			t.Errorf("progress sent after cancellation: %s", l)
		}
	}
}

// Canary for the withholding above: mcp-go by itself still answers a call
// its client cancelled. If this starts failing, mcp-go withholds on its own
// and the edge's filter can go.
func TestMcpGoAloneAnswersCancelledCalls(t *testing.T) {
	f, b := blockingDispatcher()
	e := newEdge(t, f)
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	done := make(chan struct{})
	go func() {
		_ = server.NewStdioServer(e.srv).Listen(context.Background(), inR, outW)
		_ = outW.Close()
		close(done)
	}()
	p := newLinePeer(t, inW, outR)
	lines := cancelScenario(t, p, b, func() {
		_ = inW.Close()
		<-done
	})
	if !answered(lines, "7") {
		t.Error("mcp-go no longer answers cancelled calls: the edge's withholding is redundant")
	}
}

// httpPost sends one JSON-RPC message to the handler.
func httpPost(t *testing.T, ctx context.Context, url, session, body string) (*http.Response, string) {
	t.Helper()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if session != "" {
		req.Header.Set("Mcp-Session-Id", session)
		req.Header.Set("Mcp-Protocol-Version", "2025-06-18")
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, err.Error()
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp, string(b)
}

func httpSession(t *testing.T, url string) string {
	t.Helper()
	resp, body := httpPost(t, testCtx(t), url, "", lineInitialize)
	if resp == nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("initialize: %v %s", resp, body)
	}
	session := resp.Header.Get("Mcp-Session-Id")
	if session == "" {
		t.Fatal("no session id")
	}
	if resp, body := httpPost(t, testCtx(t), url, session, lineInitialized); resp == nil || resp.StatusCode != http.StatusAccepted {
		t.Fatalf("initialized: %v %s", resp, body)
	}
	return session
}

func TestCancelledCallIsNotAnsweredHTTP(t *testing.T) {
	f, b := blockingDispatcher()
	e := newEdge(t, f)
	srv := httptest.NewServer(e.HTTPHandler(HTTPOptions{}))
	defer srv.Close()
	url := srv.URL + MCPPath
	session := httpSession(t, url)

	type answer struct {
		status int
		body   string
	}
	got := make(chan answer, 1)
	go func() {
		resp, body := httpPost(t, context.Background(), url, session,
			`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"browser_tabs","arguments":{"action":"list"}}}`)
		if resp == nil {
			got <- answer{body: body}
			return
		}
		got <- answer{resp.StatusCode, body}
	}()
	b.waitEntered(t)
	if resp, body := httpPost(t, testCtx(t), url, session, lineCancel7); resp == nil || resp.StatusCode != http.StatusAccepted {
		t.Fatalf("cancel: %v %s", resp, body)
	}
	b.waitEnded(t)
	select {
	case a := <-got:
		if a.status != http.StatusAccepted || a.body != "" {
			t.Fatalf("cancelled call answered %d %q, want an empty 202", a.status, a.body)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the cancelled call's POST never completed")
	}
	// The session keeps working.
	resp, body := httpPost(t, testCtx(t), url, session, `{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"browser_min"}}`)
	if resp == nil || resp.StatusCode != http.StatusOK || !strings.Contains(body, `"id":9`) {
		t.Fatalf("next call: %v %s", resp, body)
	}
}

// A streamable HTTP client cancels by ending the request's stream.
func TestClientAbortCancelsCallHTTP(t *testing.T) {
	f, b := blockingDispatcher()
	e := newEdge(t, f)
	srv := httptest.NewServer(e.HTTPHandler(HTTPOptions{}))
	defer srv.Close()
	c := httpClient(t, srv)
	defer c.Close()
	ctx, cancel := context.WithCancel(testCtx(t))
	errc := make(chan error, 1)
	go func() {
		_, err := c.CallTool(ctx, mcp.CallToolRequest{Params: mcp.CallToolParams{
			Name: "browser_tabs", Arguments: map[string]any{"action": "list"},
		}})
		errc <- err
	}()
	b.waitEntered(t)
	cancel()
	b.waitEnded(t)
	if err := <-errc; !errors.Is(err, context.Canceled) {
		t.Fatalf("CallTool returned %v", err)
	}
}

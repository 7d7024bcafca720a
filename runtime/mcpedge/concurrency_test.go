package mcpedge

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

// stuck: "browser_tabs" blocks until its context ends (a call on a hung tab);
// every other tool answers at once.
type stuck struct {
	entered  chan struct{}
	returned chan struct{}
}

func stuckDispatcher() (*fakeDispatcher, *stuck) {
	s := &stuck{entered: make(chan struct{}, 1024), returned: make(chan struct{}, 1024)}
	f := newFake(func(ctx context.Context, c Call) Reply {
		if c.Tool == "browser_tabs" {
			s.entered <- struct{}{}
			<-ctx.Done()
			s.returned <- struct{}{}
		}
		return okReply()
	})
	return f, s
}

func waitN(t *testing.T, ch chan struct{}, n int, what string) {
	t.Helper()
	timeout := time.After(20 * time.Second)
	for i := 0; i < n; i++ {
		select {
		case <-ch:
		case <-timeout:
			t.Fatalf("%s: %d of %d", what, i, n)
		}
	}
}

// waitFor waits for cond (an event the test cannot get a signal for).
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("never: %s", what)
		}
		time.Sleep(time.Millisecond)
	}
}

// untilRaw reads until a line answers the raw JSON id.
func (p *linePeer) untilRaw(id string) []string {
	p.t.Helper()
	var seen []string
	timeout := time.After(20 * time.Second)
	for {
		select {
		case l, ok := <-p.lines:
			if !ok {
				p.t.Fatalf("output ended before the answer to %s; saw %q", id, seen)
			}
			seen = append(seen, l)
			if messageID(l) == id {
				return seen
			}
		case <-timeout:
			p.t.Fatalf("no answer to %s; saw %q", id, seen)
		}
	}
}

// all reads until every id has an answer, returning every line read.
func (p *linePeer) all(ids ...int) []string {
	p.t.Helper()
	want := map[string]bool{}
	for _, id := range ids {
		want[fmt.Sprint(id)] = true
	}
	var seen []string
	timeout := time.After(20 * time.Second)
	for len(want) > 0 {
		select {
		case l, ok := <-p.lines:
			if !ok {
				p.t.Fatalf("output ended; still waiting for %v", want)
			}
			seen = append(seen, l)
			delete(want, messageID(l))
		case <-timeout:
			p.t.Fatalf("no answer to %v; saw %q", want, seen)
		}
	}
	return seen
}

func stuckCall(id int) string {
	return fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"browser_tabs","arguments":{"action":"list"}}}`, id)
}

func minCall(id int) string {
	return fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"browser_min"}}`, id)
}

func cancelLine(id int) string {
	return fmt.Sprintf(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":%d,"reason":"test"}}`, id)
}

// answeredAny reports the first id in [from, from+n) that lines answer.
func answeredAny(lines []string, from, n int) (int, bool) {
	for i := from; i < from+n; i++ {
		if answered(lines, fmt.Sprint(i)) {
			return i, true
		}
	}
	return 0, false
}

// With 100 calls stuck, another call and a ping are answered while the
// stuck ones still have no answer; cancelling them gets through too. mcp-go
// alone runs 5 calls at a time and then blocks its reader: there, the 100
// never all start and the ping waits behind them.
func TestStdioNothingWaitsOnStuckCalls(t *testing.T) {
	f, st := stuckDispatcher()
	l := testLimits()
	l.SessionCalls = 128
	e := newEdgeLimits(t, f, l)
	conn := serveStdio(t, e)
	p := newLinePeer(t, conn.in, conn.out)
	p.send(lineInitialize)
	p.until(1)
	p.send(lineInitialized)
	for i := range 100 {
		p.send("%s", stuckCall(1000+i))
	}
	waitN(t, st.entered, 100, "stuck calls running")
	p.send("%s", minCall(2))
	p.send(`{"jsonrpc":"2.0","id":3,"method":"ping"}`)
	lines := p.all(2, 3)
	if id, ok := answeredAny(lines, 1000, 100); ok {
		t.Fatalf("stuck call %d answered", id)
	}
	for i := range 100 {
		p.send("%s", cancelLine(1000+i))
	}
	waitN(t, st.returned, 100, "cancelled calls returned")
	waitFor(t, "slots released", func() bool { return e.calls.count(StdioSession) == 0 })
	p.send("%s", minCall(4))
	lines = p.all(4)
	if id, ok := answeredAny(lines, 1000, 100); ok {
		t.Fatalf("cancelled call %d answered", id)
	}
}

func busyFacts(t *testing.T, line string) (reason, limit string, isError bool) {
	t.Helper()
	var m struct {
		Result struct {
			IsError           bool `json:"isError"`
			StructuredContent struct {
				Facts struct {
					Reason string `json:"reason"`
					Limit  string `json:"limit"`
				} `json:"facts"`
			} `json:"structuredContent"`
		} `json:"result"`
	}
	if err := json.Unmarshal([]byte(line), &m); err != nil {
		t.Fatalf("answer %s: %v", line, err)
	}
	return m.Result.StructuredContent.Facts.Reason, m.Result.StructuredContent.Facts.Limit, m.Result.IsError
}

func lineFor(lines []string, id int) string {
	for _, l := range lines {
		if messageID(l) == fmt.Sprint(id) {
			return l
		}
	}
	return ""
}

// At the bound a call is refused busy at once, without reaching the
// dispatcher; ping still answers; a slot freed by a cancellation is used.
func TestStdioBusyAtTheBound(t *testing.T) {
	f, st := stuckDispatcher()
	l := testLimits()
	l.SessionCalls = 3
	e := newEdgeLimits(t, f, l)
	conn := serveStdio(t, e)
	p := newLinePeer(t, conn.in, conn.out)
	p.send(lineInitialize)
	p.until(1)
	p.send(lineInitialized)
	for i := range 3 {
		p.send("%s", stuckCall(100+i))
	}
	waitN(t, st.entered, 3, "stuck calls running")
	p.send("%s", minCall(5))
	p.send(`{"jsonrpc":"2.0","id":6,"method":"ping"}`)
	lines := p.all(5, 6)
	if reason, limit, isErr := busyFacts(t, lineFor(lines, 5)); reason != "busy" || limit != "3" || !isErr {
		t.Fatalf("call past the bound: reason %q limit %q isError %v", reason, limit, isErr)
	}
	f.mu.Lock()
	for _, c := range f.calls {
		if c.Tool == "browser_min" {
			t.Error("a refused call reached the dispatcher")
		}
	}
	f.mu.Unlock()
	p.send("%s", cancelLine(101))
	waitN(t, st.returned, 1, "cancelled call returned")
	waitFor(t, "slot released", func() bool { return e.calls.count(StdioSession) == 2 })
	p.send("%s", minCall(7))
	if reason, _, _ := busyFacts(t, lineFor(p.all(7), 7)); reason == "busy" {
		t.Fatal("a freed slot was not used")
	}
}

// httpCall posts one tools/call and sends its answer body on the channel.
func httpCallAsync(t *testing.T, ctx context.Context, url, session, body string, out chan<- string) {
	go func() {
		_, b := httpPost(t, ctx, url, session, body)
		out <- b
	}()
}

func TestHTTPNothingWaitsOnStuckCallsAndBusyAtTheBound(t *testing.T) {
	f, st := stuckDispatcher()
	l := testLimits()
	l.SessionCalls = 101
	e := newEdgeLimits(t, f, l)
	srv := httptest.NewServer(e.HTTPHandler(HTTPOptions{}))
	defer srv.Close()
	url := srv.URL + MCPPath
	session := httpSession(t, url)
	ctx, cancel := context.WithCancel(context.Background())
	stuckAnswers := make(chan string, 100)
	for i := range 100 {
		httpCallAsync(t, ctx, url, session, stuckCall(1000+i), stuckAnswers)
	}
	waitN(t, st.entered, 100, "stuck calls running")
	if resp, body := httpPost(t, testCtx(t), url, session, `{"jsonrpc":"2.0","id":3,"method":"ping"}`); resp == nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("ping: %v %s", resp, body)
	}
	_, body := httpPost(t, testCtx(t), url, session, minCall(2))
	if reason, _, _ := busyFacts(t, body); reason == "busy" {
		t.Fatalf("call 101 refused: %s", body)
	}
	// One more stuck call fills the session; the next is refused at once.
	httpCallAsync(t, ctx, url, session, stuckCall(1100), stuckAnswers)
	waitN(t, st.entered, 1, "101st stuck call running")
	_, body = httpPost(t, testCtx(t), url, session, minCall(4))
	if reason, limit, isErr := busyFacts(t, body); reason != "busy" || limit != "101" || !isErr {
		t.Fatalf("call past the bound: %s", body)
	}
	select {
	case b := <-stuckAnswers:
		t.Fatalf("a stuck call answered: %s", b)
	default:
	}
	// Another session is not affected by this one's load.
	other := httpSession(t, url)
	if _, body := httpPost(t, testCtx(t), url, other, minCall(5)); strings.Contains(body, `"busy"`) {
		t.Fatalf("another session refused: %s", body)
	}
	cancel() // a streamable HTTP client cancels by ending its request
	waitN(t, st.returned, 101, "cancelled calls returned")
	waitFor(t, "slots released", func() bool { return e.calls.count(session) == 0 })
}

// orderDispatcher records, in order, when its one stuck call returned and
// when its session was released.
type orderDispatcher struct {
	*fakeDispatcher
	mu     sync.Mutex
	events []string
}

func (o *orderDispatcher) SessionClosed(s string) {
	o.mu.Lock()
	o.events = append(o.events, "released")
	o.mu.Unlock()
	o.fakeDispatcher.SessionClosed(s)
}

func (o *orderDispatcher) record(ev string) {
	o.mu.Lock()
	o.events = append(o.events, ev)
	o.mu.Unlock()
}

// A session that ends (DELETE here; idle expiry and Close take the same
// path) cancels its calls, and its tabs are released only after they have
// returned, never under a call still using them.
func TestHTTPSessionEndCancelsCallsThenReleases(t *testing.T) {
	o := &orderDispatcher{}
	entered := make(chan struct{}, 1)
	o.fakeDispatcher = newFake(func(ctx context.Context, c Call) Reply {
		if c.Tool == "browser_tabs" {
			entered <- struct{}{}
			<-ctx.Done()
			time.Sleep(50 * time.Millisecond) // a call that takes a while to unwind
			o.record("returned")
		}
		return okReply()
	})
	e := newEdge(t, o)
	srv := httptest.NewServer(e.HTTPHandler(HTTPOptions{}))
	defer srv.Close()
	url := srv.URL + MCPPath
	session := httpSession(t, url)
	answers := make(chan string, 1)
	httpCallAsync(t, context.Background(), url, session, stuckCall(9), answers)
	waitN(t, entered, 1, "call running")
	req, _ := http.NewRequest(http.MethodDelete, url, nil)
	req.Header.Set("Mcp-Session-Id", session)
	req.Header.Set("Mcp-Protocol-Version", "2025-06-18")
	resp, err := http.DefaultClient.Do(req)
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("DELETE: %v %v", resp, err)
	}
	resp.Body.Close()
	o.waitClosed(t, session, 10*time.Second)
	o.mu.Lock()
	defer o.mu.Unlock()
	if strings.Join(o.events, ",") != "returned,released" {
		t.Fatalf("events %v, want the call to return before the session is released", o.events)
	}
}

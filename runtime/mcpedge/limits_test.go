package mcpedge

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"
)

type rpcAnswer struct {
	ID    json.RawMessage `json:"id"`
	Error *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

func decodeAnswer(t *testing.T, s string) rpcAnswer {
	t.Helper()
	var a rpcAnswer
	if err := json.Unmarshal([]byte(strings.TrimSpace(s)), &a); err != nil {
		t.Fatalf("answer %q: %v", s, err)
	}
	return a
}

// Malformed messages, and the answer they get: the request's id wherever it
// could be read (mcp-go answers every one of them with id null).
var malformed = []struct {
	name, msg, id string
	code          int
}{
	{"truncated params", `{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"browser_min","arguments":{`, "5", -32700},
	{"string id, broken tail", `{"jsonrpc":"2.0","id":"req-7","method":"ping",]`, `"req-7"`, -32700},
	{"method not a string", `{"jsonrpc":"2.0","id":8,"method":7}`, "8", -32600},
	{"jsonrpc not a string", `{"jsonrpc":2,"id":"x","method":"ping"}`, `"x"`, -32600},
	{"id after the break", `{"jsonrpc":"2.0","method":"ping",,"id":9}`, "null", -32700},
	{"object id", `{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}`, "null", -32600},
	{"not JSON", `hello`, "null", -32700},
	{"batch", `[{"jsonrpc":"2.0","id":1,"method":"ping"}]`, "null", -32600},
}

func TestParseErrorsCarryTheIDStdio(t *testing.T) {
	e := newEdge(t, newFake(nil))
	conn := serveStdio(t, e)
	p := newLinePeer(t, conn.in, conn.out)
	p.send(lineInitialize)
	p.until(1)
	for _, tc := range malformed {
		p.send("%s", tc.msg)
		// A ping after each: its answer proves the malformed one was
		// answered first (one reader, answered in order) or not at all.
		p.send(`{"jsonrpc":"2.0","id":"sync","method":"ping"}`)
		var got []string
		for _, l := range p.untilRaw(`"sync"`) {
			if messageID(l) != `"sync"` {
				got = append(got, l)
			}
		}
		if len(got) != 1 {
			t.Fatalf("%s: answers %q", tc.name, got)
		}
		a := decodeAnswer(t, got[0])
		if string(a.ID) != tc.id || a.Error == nil || a.Error.Code != tc.code {
			t.Errorf("%s: got %s, want id %s code %d", tc.name, got[0], tc.id, tc.code)
		}
	}
}

func TestParseErrorsCarryTheIDHTTP(t *testing.T) {
	e := newEdge(t, newFake(nil))
	srv := httptest.NewServer(e.HTTPHandler(HTTPOptions{}))
	defer srv.Close()
	session := httpSession(t, srv.URL+MCPPath)
	for _, tc := range malformed {
		resp, body := httpPost(t, testCtx(t), srv.URL+MCPPath, session, tc.msg)
		if resp == nil || resp.StatusCode != http.StatusBadRequest {
			t.Fatalf("%s: %v %s", tc.name, resp, body)
		}
		a := decodeAnswer(t, body)
		if string(a.ID) != tc.id || a.Error == nil || a.Error.Code != tc.code {
			t.Errorf("%s: got %s, want id %s code %d", tc.name, body, tc.id, tc.code)
		}
	}
}

// A stdio line past the bound is refused with the id it started with and
// skipped to its end; the session goes on.
func TestStdioLineTooLong(t *testing.T) {
	l := testLimits()
	l.RequestBytes = 4096
	e := newEdgeLimits(t, newFake(nil), l)
	conn := serveStdio(t, e)
	p := newLinePeer(t, conn.in, conn.out)
	p.send(lineInitialize)
	p.until(1)
	p.send(`{"jsonrpc":"2.0","id":21,"method":"tools/call","params":{"name":"browser_min","arguments":{"pad":"%s"}}}`, strings.Repeat("x", 200000))
	a := decodeAnswer(t, lineFor(p.all(21), 21))
	if a.Error == nil || a.Error.Code != -32600 || !strings.Contains(a.Error.Message, "4096 bytes") {
		t.Fatalf("oversized line: %+v", a)
	}
	p.send(`{"jsonrpc":"2.0","id":22,"method":"tools/call","params":{"name":"browser_min","arguments":{"pad":"%s"}}}`, strings.Repeat("x", 3900))
	if a := decodeAnswer(t, lineFor(p.all(22), 22)); a.Error != nil {
		t.Fatalf("a line within the bound was refused: %+v", a.Error)
	}
}

// endless is a body of n bytes that never exists in memory at once.
type endless struct{ n, off int }

func (r *endless) Read(p []byte) (int, error) {
	if r.off >= r.n {
		return 0, io.EOF
	}
	if r.off == 0 {
		const head = `{"jsonrpc":"2.0","id":31,"method":"tools/call","params":{"name":"browser_min","arguments":{"pad":"`
		n := copy(p, head)
		r.off += n
		return n, nil
	}
	k := min(len(p), r.n-r.off)
	for i := range k {
		p[i] = 'x'
	}
	r.off += k
	return k, nil
}

func postBody(t *testing.T, url, session string, body io.Reader, length int64) (*http.Response, string, error) {
	t.Helper()
	req, _ := http.NewRequestWithContext(testCtx(t), http.MethodPost, url, body)
	req.ContentLength = length
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Mcp-Session-Id", session)
	req.Header.Set("Mcp-Protocol-Version", "2025-06-18")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, "", err
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp, string(b), nil
}

// An HTTP body past the bound is a 413 carrying the request's id, read no
// further than the bound: a 200 MB body costs the server about the bound,
// and that memory is returned.
func TestHTTPBodyLimit(t *testing.T) {
	l := testLimits()
	l.RequestBytes = 1 << 20
	e := newEdgeLimits(t, newFake(nil), l)
	srv := httptest.NewServer(e.HTTPHandler(HTTPOptions{}))
	defer srv.Close()
	url := srv.URL + MCPPath
	session := httpSession(t, url)

	check := func(name string, length int64) {
		t.Helper()
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		resp, body, err := postBody(t, url, session, &endless{n: 200 << 20}, length)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if resp.StatusCode != http.StatusRequestEntityTooLarge {
			t.Fatalf("%s: status %d %s", name, resp.StatusCode, body)
		}
		a := decodeAnswer(t, body)
		if string(a.ID) != "31" || a.Error == nil || !strings.Contains(a.Error.Message, "1048576 bytes") {
			t.Fatalf("%s: answer %s", name, body)
		}
		runtime.ReadMemStats(&after)
		allocated := after.TotalAlloc - before.TotalAlloc
		runtime.GC()
		runtime.ReadMemStats(&after)
		held := int64(after.HeapAlloc) - int64(before.HeapAlloc)
		t.Logf("%s: 200 MB body: 413, %.1f MB allocated in all, %+.1f MB held after GC", name, float64(allocated)/(1<<20), float64(held)/(1<<20))
		if allocated > 20<<20 {
			t.Errorf("%s: %d bytes allocated for a refused body: it was buffered", name, allocated)
		}
		if held > 4<<20 {
			t.Errorf("%s: %d bytes still held after the refusal", name, held)
		}
	}
	check("chunked", -1)
	check("declared length", 200<<20)

	// Within the bound: served.
	pad := strings.Repeat("x", 1<<19)
	resp, body, err := postBody(t, url, session, strings.NewReader(`{"jsonrpc":"2.0","id":32,"method":"tools/call","params":{"name":"browser_min","arguments":{"pad":"`+pad+`"}}}`), -1)
	if err != nil || resp.StatusCode != http.StatusOK || !strings.Contains(body, `"id":32`) {
		t.Fatalf("a body within the bound: %v %v %.200s", resp, err, body)
	}
}

type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) lines() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return strings.Split(l.b.String(), "\n")
}

// A huge tool or method name is neither echoed nor logged in full.
func TestEchoedNamesAndLogsAreBounded(t *testing.T) {
	var logs lockedBuffer
	lim := testLimits()
	lim.EchoChars, lim.LogValueChars = 120, 300
	e, err := New(newFake(nil), Options{Name: "ghostlight", Version: "1", Limits: lim,
		Logger: slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))})
	if err != nil {
		t.Fatal(err)
	}
	huge := strings.Repeat("N", 500000)
	msgs := []string{
		`{"jsonrpc":"2.0","id":41,"method":"tools/call","params":{"name":"` + huge + `"}}`,
		`{"jsonrpc":"2.0","id":42,"method":"` + huge + `"}`,
		`{"jsonrpc":"2.0","id":43,"method":"initialize","params":{"protocolVersion":"` + huge + `","capabilities":{},"clientInfo":{"name":"x","version":"1"}}}`,
	}
	checkAnswer := func(transport, body string) {
		t.Helper()
		a := decodeAnswer(t, body)
		if a.Error == nil {
			t.Fatalf("%s: no error for %.80s", transport, body)
		}
		if n := utf8.RuneCountInString(a.Error.Message); n > lim.EchoChars+1 {
			t.Errorf("%s: error message of %d characters", transport, n)
		}
		if len(body) > 2000 {
			t.Errorf("%s: answer of %d bytes", transport, len(body))
		}
	}

	conn := serveStdio(t, e)
	p := newLinePeer(t, conn.in, conn.out)
	p.send(lineInitialize)
	p.until(1)
	for i, m := range msgs[:2] {
		p.send("%s", m)
		checkAnswer("stdio", lineFor(p.all(41+i), 41+i))
	}

	srv := httptest.NewServer(e.HTTPHandler(HTTPOptions{}))
	defer srv.Close()
	session := httpSession(t, srv.URL+MCPPath)
	for _, m := range msgs[:2] {
		_, body := httpPost(t, testCtx(t), srv.URL+MCPPath, session, m)
		checkAnswer("HTTP", body)
	}
	_, body := httpPost(t, testCtx(t), srv.URL+MCPPath, "", msgs[2])
	if strings.Contains(body, strings.Repeat("N", lim.EchoChars+1)) {
		t.Errorf("HTTP initialize echoed the protocol version: %.300s", body)
	}
	for _, line := range logs.lines() {
		// A record is a few bounded values; the 500,000 characters never.
		if len(line) > 6*lim.LogValueChars {
			t.Errorf("log line of %d bytes: %.200s", len(line), line)
		}
	}
}

func TestBoundLogs(t *testing.T) {
	var buf bytes.Buffer
	log := slog.New(BoundLogs(slog.NewJSONHandler(&buf, nil), 10))
	long := strings.Repeat("é", 50)
	log.With("pre", long).WithGroup("g").Info(long, "s", long, "err", errors.New(long), "n", 7,
		slog.Group("sub", "inner", long), "short", "ok", "list", []string{long})
	var m map[string]any
	if err := json.Unmarshal(buf.Bytes(), &m); err != nil {
		t.Fatal(err)
	}
	cut := strings.Repeat("é", 10) + "…"
	g := m["g"].(map[string]any)
	for name, v := range map[string]any{"msg": m["msg"], "pre": m["pre"], "s": g["s"], "err": g["err"], "inner": g["sub"].(map[string]any)["inner"]} {
		if v != cut {
			t.Errorf("%s = %v, want %s", name, v, cut)
		}
	}
	if l, _ := g["list"].(string); utf8.RuneCountInString(l) != 11 {
		t.Errorf("list = %v, want it as clipped text", g["list"])
	}
	if g["n"] != float64(7) || g["short"] != "ok" {
		t.Errorf("short values changed: %v", g)
	}
}

func TestClip(t *testing.T) {
	for _, tc := range []struct {
		in   string
		n    int
		want string
	}{
		{"abc", 3, "abc"}, {"abcd", 3, "abc…"}, {"ééé", 3, "ééé"}, {"éééé", 2, "éé…"}, {"", 0, ""},
	} {
		if got := clip(tc.in, tc.n); got != tc.want {
			t.Errorf("clip(%q, %d) = %q, want %q", tc.in, tc.n, got, tc.want)
		}
	}
}

// The idle expiry is on by default, from Limits.SessionIdle.
func TestSessionIdleDefaultsToTheBound(t *testing.T) {
	f := newFake(nil)
	l := testLimits()
	l.SessionIdle = 100 * time.Millisecond
	e := newEdgeLimits(t, f, l)
	defer func() { _ = e.Close(context.Background()) }()
	srv := httptest.NewServer(e.HTTPHandler(HTTPOptions{}))
	defer srv.Close()
	c := httpClient(t, srv)
	callMin(t, c)
	f.waitClosed(t, f.lastCall(t).Session, 10*time.Second)
}

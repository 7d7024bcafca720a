package clients

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// binary is the ghostlight server under test, built once by TestMain.
var binary string

// testVersion is stamped into the binary the way `make dist` stamps releases.
const testVersion = "v0.0.0-clients"

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "glclients")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	// A clean home: no user's policy layers or registrations reach the tests.
	for _, v := range []string{"XDG_STATE_HOME", "XDG_CONFIG_HOME"} {
		os.Setenv(v, filepath.Join(dir, v))
	}
	binary = filepath.Join(dir, "ghostlight")
	build := exec.Command("go", "build", "-ldflags", "-X main.version="+testVersion, "-o", binary, "./tools/ghostlight")
	build.Dir = repoRoot()
	build.Env = append(os.Environ(), "GOWORK=off")
	if out, err := build.CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "building ghostlight: %v\n%s", err, out)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// repoRoot is the main module's directory (this module sits two below it).
func repoRoot() string {
	wd, _ := os.Getwd()
	return filepath.Clean(filepath.Join(wd, "..", ".."))
}

// shortTempDir is a TMPDIR short enough for Chromium's singleton socket.
func shortTempDir(t testing.TB) string {
	d, err := os.MkdirTemp("/tmp", "glc")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(d) })
	return d
}

// The protocol revisions the tests speak.
const (
	modern = "2026-07-28" // stateless: server/discover, no session
	legacy = "2025-11-25" // initialize, Mcp-Session-Id over HTTP
)

// transports a server is reached by.
const (
	stdio    = "stdio"
	httpMode = "http"
)

// server is one running ghostlight binary.
type server struct {
	url   string // streamable HTTP endpoint ("" for stdio)
	token string
	audit string // its audit file
	cmd   *exec.Cmd
	tmp   string
}

// serverCmd is `ghostlight serve args…` with a private TMPDIR and audit.
func serverCmd(t *testing.T, args ...string) (*exec.Cmd, *server) {
	s := &server{tmp: shortTempDir(t)}
	s.audit = filepath.Join(s.tmp, "audit.jsonl")
	cmd := exec.Command(binary, append([]string{"serve", "--audit-path", s.audit}, args...)...)
	cmd.Env = append(os.Environ(), "TMPDIR="+s.tmp)
	cmd.Stderr = &logTail{t: t}
	s.cmd = cmd
	return cmd, s
}

// startHTTP runs `ghostlight serve --http` on a free loopback port.
func startHTTP(t *testing.T) *server {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	cmd, s := serverCmd(t, "--http", addr, "--token", "clients-token")
	s.url, s.token = "http://"+addr+"/mcp", "clients-token"
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Signal(os.Interrupt)
		_ = cmd.Wait()
	})
	for i := 0; ; i++ {
		c, err := net.Dial("tcp", addr)
		if err == nil {
			c.Close()
			return s
		}
		if i == 100 {
			t.Fatalf("server never listened on %s", addr)
		}
		time.Sleep(50 * time.Millisecond) // starting up: no answer to wait on yet
	}
}

// bearer adds the server's token to every request.
type bearer struct {
	token string
	next  http.RoundTripper
}

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return b.next.RoundTrip(r)
}

// clientOpts are a client's handlers; progress, when set, receives every
// notifications/progress.
func newClient(progress func(*mcp.ProgressNotificationParams)) *mcp.Client {
	opts := &mcp.ClientOptions{}
	if progress != nil {
		opts.ProgressNotificationHandler = func(_ context.Context, r *mcp.ProgressNotificationClientRequest) { progress(r.Params) }
	}
	return mcp.NewClient(&mcp.Implementation{Name: "ghostlight-clients-test", Version: "1"}, opts)
}

// connect opens a Go SDK session speaking version over transport: stdio
// starts its own server; HTTP reaches s (started by startHTTP).
func connect(t *testing.T, transport, version string, s *server, progress func(*mcp.ProgressNotificationParams)) (*mcp.ClientSession, *server) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var tr mcp.Transport
	switch transport {
	case stdio:
		var cmd *exec.Cmd
		cmd, s = serverCmd(t)
		tr = &mcp.CommandTransport{Command: cmd}
	default:
		tr = &mcp.StreamableClientTransport{Endpoint: s.url, HTTPClient: &http.Client{Transport: bearer{s.token, http.DefaultTransport}}, MaxRetries: -1}
	}
	cs, err := newClient(progress).Connect(ctx, tr, &mcp.ClientSessionOptions{ProtocolVersion: version})
	if err != nil {
		t.Fatalf("%s %s: connect: %v", transport, version, err)
	}
	t.Cleanup(func() { _ = cs.Close() })
	if got := cs.InitializeResult().ProtocolVersion; got != version {
		t.Fatalf("%s: negotiated %s, want %s", transport, got, version)
	}
	// As a client does before its model calls anything: at 2026-07-28 the
	// SDK mirrors the tab and target arguments into Mcp-Param-* headers
	// from the tools it listed (x-mcp-header), and the server refuses a call
	// whose header is missing (SEP-2243; docs/decisions/route-on-tab-and-target.md).
	if _, err := cs.ListTools(ctx, nil); err != nil {
		t.Fatalf("%s %s: tools/list: %v", transport, version, err)
	}
	return cs, s
}

// envelope is what the tests read of a tool result.
type envelope struct {
	Status     string          `json:"status"`
	Effect     string          `json:"effect"`
	Summary    string          `json:"summary"`
	Facts      json.RawMessage `json:"facts"`
	Invocation string          `json:"invocation"`
}

// call runs one tool and decodes its envelope from structuredContent.
func call(t *testing.T, cs *mcp.ClientSession, tool string, args map[string]any) (envelope, *mcp.CallToolResult) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", tool, err)
	}
	return decodeEnvelope(t, tool, res), res
}

func decodeEnvelope(t *testing.T, tool string, res *mcp.CallToolResult) envelope {
	t.Helper()
	raw, err := json.Marshal(res.StructuredContent)
	if err != nil {
		t.Fatal(err)
	}
	var env envelope
	if err := json.Unmarshal(raw, &env); err != nil || env.Status == "" {
		t.Fatalf("%s: no envelope in structuredContent: %s", tool, raw)
	}
	return env
}

// fact reads one string fact.
func (e envelope) fact(name string) string {
	var m map[string]json.RawMessage
	_ = json.Unmarshal(e.Facts, &m)
	var s string
	_ = json.Unmarshal(m[name], &s)
	return s
}

// site is the local page server every test drives the browser to.
type site struct {
	*httptest.Server
	// hung receives the time at which the browser dropped a /hang request.
	hung chan time.Time
	// hangEntered receives when a /hang request arrives.
	hangEntered chan time.Time
}

const page = `<!doctype html><title>Clients page</title>
<h1>Ghostlight clients</h1>
<label>Name <input id="name"></label>
<button id="go" onclick="document.getElementById('out').textContent='clicked'">Press me</button>
<p id="out"></p>`

func newSite(t *testing.T) *site {
	s := &site{hung: make(chan time.Time, 64), hangEntered: make(chan time.Time, 64)}
	mux := http.NewServeMux()
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, page)
	})
	// /hang never answers: the request ends only when the browser drops it.
	mux.HandleFunc("/hang", func(w http.ResponseWriter, r *http.Request) {
		s.hangEntered <- time.Now()
		<-r.Context().Done()
		s.hung <- time.Now()
	})
	s.Server = httptest.NewServer(mux)
	t.Cleanup(s.Close)
	return s
}

// logTail keeps a server's stderr for failure reports.
type logTail struct {
	t  *testing.T
	mu sync.Mutex
	b  strings.Builder
}

func (l *logTail) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.b.Len() < 64<<10 {
		l.b.Write(p)
	}
	return len(p), nil
}

// textOf is a result's text blocks, joined.
func textOf(res *mcp.CallToolResult) string {
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String()
}

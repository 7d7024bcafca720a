package workbench_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/proto"
	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/ghostlight-dev/ghostlight/runtime/audit"
	"github.com/ghostlight-dev/ghostlight/runtime/browser"
	"github.com/ghostlight-dev/ghostlight/runtime/governance"
	"github.com/ghostlight-dev/ghostlight/runtime/mcpedge"
	"github.com/ghostlight-dev/ghostlight/runtime/server"
	"github.com/ghostlight-dev/ghostlight/runtime/workbench"
)

// One Ghostlight for the package (it launches the agent's own headless
// Chromium on the first call), one person's browser (a second Chromium),
// one site: the machines have two cores.
var env struct {
	srv       *server.Server
	wb        *workbench.Workbench
	ts        *httptest.Server // MCP at /mcp, the workbench at /workbench
	site      *site
	person    *rod.Browser
	logs      *lockedBuffer
	auditPath string
	policyDir string
}

const bearer = "test-bearer-token"

// lockedBuffer collects every log line the server writes, at debug level.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

func TestMain(m *testing.M) {
	os.Exit(run(m))
}

func run(m *testing.M) int {
	dir, err := os.MkdirTemp("", "ghostlight-wbtest-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer os.RemoveAll(dir)
	env.site = newSite()
	defer env.site.Close()

	// A workspace layer file, so Policy has a file to name.
	env.policyDir = filepath.Join(dir, "ws")
	layer := filepath.Join(env.policyDir, "policy.cue")
	_ = os.MkdirAll(env.policyDir, 0o755)
	if err := os.WriteFile(layer, []byte("// The test's workspace layer.\ncapabilities: execute: \"deny\"\nconfirm: defaults: true\n"), 0o644); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	env.logs = &lockedBuffer{}
	log := slog.New(slog.NewTextHandler(env.logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	loader, err := governance.Load(governance.Config{Files: []governance.File{{Layer: "workspace", Path: layer, Explicit: true}}, DefaultStartup: browser.StartupAuto}, log)
	if err != nil {
		fmt.Fprintln(os.Stderr, "policy:", err)
		return 1
	}
	env.auditPath = filepath.Join(dir, "audit.jsonl")
	journal := audit.Open(audit.Config{Path: env.auditPath}, log)
	defer journal.Close()
	env.srv, err = server.New(server.Config{
		Browser: browser.Config{Startup: browser.StartupAuto, Headless: true, Path: os.Getenv("GHOSTLIGHT_BROWSER")},
		Policy:  loader.Current, Journal: journal, Logger: log, Version: "test",
	})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		_ = env.srv.Close(ctx)
	}()
	env.wb, err = env.srv.Workbench(server.WorkbenchOptions{})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	// The workbench mounted under --http, as `ghostlight serve --http` does.
	env.ts = httptest.NewServer(env.srv.Edge().HTTPHandler(mcpedge.HTTPOptions{BearerToken: bearer, Workbench: env.wb}))
	defer env.ts.Close()
	env.wb.SetBase(env.ts.URL)

	person, stop, err := browser.LaunchRod(context.Background(), browser.Config{Headless: true, Path: os.Getenv("GHOSTLIGHT_BROWSER")})
	if err != nil {
		fmt.Fprintln(os.Stderr, "person's browser:", err)
		return 1
	}
	defer stop()
	env.person = person
	return m.Run()
}

// site is the pages the agent works on: a sign-in form whose fields sit at
// fixed places of the viewport, and the page a sign-in lands on.
type site struct {
	*httptest.Server
	posted chan string // passwords the form submitted
}

const loginPage = `<!doctype html><title>Sign in</title>
<style>body{margin:0;font:16px sans-serif} input,button{position:absolute;left:100px;width:240px;height:40px;font:16px sans-serif}</style>
<h1 style="position:absolute;left:100px;top:10px;margin:0">Sign in</h1>
<form method="post" action="/login">
<label style="position:absolute;left:100px;top:70px">User <input name="user" value="ada" style="top:20px;left:0"></label>
<label style="position:absolute;left:100px;top:150px">Password <input id="pw" name="password" type="password" aria-label="Password" style="top:20px;left:0"></label>
<button id="go" type="submit" style="top:240px">Sign in</button>
</form>`

// Places in the agent's viewport (CSS px): the password field's centre
// and the button's.
const pwX, pwY, goX, goY = 220, 190, 220, 260

func newSite() *site {
	s := &site{posted: make(chan string, 8)}
	mux := http.NewServeMux()
	mux.HandleFunc("/login", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		if r.Method == http.MethodPost {
			_ = r.ParseForm()
			s.posted <- r.PostForm.Get("password")
			fmt.Fprint(w, `<!doctype html><title>Welcome</title><h1>Welcome, you are signed in</h1>`)
			return
		}
		fmt.Fprint(w, loginPage)
	})
	mux.HandleFunc("/other", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, `<!doctype html><title>Other page</title><body style="background:#234"><h1 style="color:#fff">Another page</h1></body>`)
	})
	s.Server = httptest.NewServer(mux)
	return s
}

// mcpClient is a real MCP client (mcp-go over streamable HTTP). With an
// elicitation handler it declares elicitation (form mode, mcp-go's
// default), and URL mode too with urlMode.
func mcpClient(t *testing.T, elicit client.ElicitationHandler, urlMode ...bool) *client.Client {
	t.Helper()
	tr, err := transport.NewStreamableHTTP(env.ts.URL+mcpedge.MCPPath, transport.WithHTTPHeaders(map[string]string{"Authorization": "Bearer " + bearer}))
	if err != nil {
		t.Fatal(err)
	}
	var opts []client.ClientOption
	if elicit != nil {
		opts = append(opts, client.WithElicitationHandler(elicit))
	}
	c := client.NewClient(tr, opts...)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := c.Start(ctx); err != nil {
		t.Fatal(err)
	}
	init := mcp.InitializeRequest{}
	init.Params.ProtocolVersion = "2025-11-25"
	init.Params.ClientInfo = mcp.Implementation{Name: "workbench-test", Version: "1"}
	if elicit != nil && len(urlMode) > 0 && urlMode[0] {
		init.Params.Capabilities.Elicitation = &mcp.ElicitationCapability{URL: &struct{}{}}
	}
	if _, err := c.Initialize(ctx, init); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Close() })
	return c
}

// envelope is a tool result as the tests read it.
type envelope struct {
	Invocation string         `json:"invocation"`
	Status     string         `json:"status"`
	Summary    string         `json:"summary"`
	NextSteps  []string       `json:"next_steps"`
	Facts      map[string]any `json:"facts"`
}

// results keeps every result text the tests saw, to search for secrets.
var results struct {
	mu  sync.Mutex
	all []string
}

func call(t *testing.T, c *client.Client, tool string, args map[string]any) envelope {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	req := mcp.CallToolRequest{}
	req.Params.Name = tool
	req.Params.Arguments = args
	res, err := c.CallTool(ctx, req)
	if err != nil {
		t.Fatalf("%s: %v", tool, err)
	}
	raw, _ := json.Marshal(res)
	results.mu.Lock()
	results.all = append(results.all, string(raw))
	results.mu.Unlock()
	var env envelope
	b, _ := json.Marshal(res.StructuredContent)
	if err := json.Unmarshal(b, &env); err != nil {
		t.Fatalf("%s: envelope: %v", tool, err)
	}
	return env
}

// get fetches a workbench API path as the person's browser would, with the
// cookie the entry link set.
func get(t *testing.T, c *http.Client, path string) (int, string) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, env.ts.URL+path, nil)
	resp, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// eventually polls cond until it holds (a person's page polls too), failing
// after a generous bound; the tests never assert on elapsed time.
func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(45 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("never: %s", what)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// clickListed clicks the element sel names in a list the workbench
// re-renders as it polls: an element found just before a re-render is
// detached by the time it is clicked, so the click is tried on a fresh
// lookup until one lands.
func clickListed(t *testing.T, p *rod.Page, sel string) {
	t.Helper()
	eventually(t, "a click on "+sel, func() bool {
		el, err := p.Timeout(5 * time.Second).Element(sel)
		return err == nil && el.CancelTimeout().Click(proto.InputMouseButtonLeft, 1) == nil
	})
}

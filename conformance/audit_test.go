package conformance

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
	"github.com/ghostlight-dev/ghostlight/runtime/audit"
)

// Markers the audit must never hold: a query string, typed text, the
// page's title and text.
const (
	markQuery = "QSECRET4711"
	markTyped = "TYPEDSECRET4712"
	markTitle = "TITLESECRET4713"
)

func auditPage(t *testing.T) *httptest.Server {
	page := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprint(w, `<title>`+markTitle+`</title><main><h1>Audit page</h1><label>Note <input name="note"></label>`+
			`<button onclick="this.textContent='Saved'">Save</button></main>`)
	}))
	t.Cleanup(page.Close)
	return page
}

// auditLines reads every call's outcome line of the audit (rotated files
// included; headers and begin lines skipped), failing on one that does not
// parse.
func auditLines(t *testing.T, path string) []audit.Record {
	t.Helper()
	files, err := audit.Files(path)
	if err != nil {
		t.Fatal(err)
	}
	var out []audit.Record
	for i := len(files) - 1; i >= 0; i-- {
		f, err := os.Open(files[i])
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			var r audit.Record
			if json.Unmarshal(sc.Bytes(), &r) == nil && (r.Kind == audit.KindFile || r.Kind == audit.KindBegin) {
				continue // a file header; a required audit's begin line
			}
			if err := json.Unmarshal(sc.Bytes(), &r); err != nil || r.Invocation == "" || r.V != audit.Version {
				t.Fatalf("%s: a line does not parse: %q", files[i], sc.Text())
			}
			out = append(out, r)
		}
		f.Close()
	}
	return out
}

func noMarkers(t *testing.T, path string) {
	t.Helper()
	files, _ := audit.Files(path)
	for _, f := range files {
		b, _ := os.ReadFile(f)
		for _, m := range []string{markQuery, markTyped, markTitle, "Audit page", "/?q="} {
			if bytes.Contains(b, []byte(m)) {
				t.Fatalf("%s holds %q", f, m)
			}
		}
	}
}

// killUnder SIGKILLs what a killed server left running: the processes whose
// command line names the server's private TMPDIR (its Chromium).
func killUnder(t *testing.T, dir string) {
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == os.Getpid() {
			continue
		}
		if b, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline")); err == nil && bytes.Contains(b, []byte(dir)) {
			if p, err := os.FindProcess(pid); err == nil {
				_ = p.Kill()
			}
		}
	}
}

// startStdioCmd starts the binary over stdio like startStdio, and also
// hands back the process, so a test can kill it.
func startStdioCmd(t *testing.T, args ...string) (*liveServer, *exec.Cmd) {
	t.Helper()
	tmp := shortTempDir(t)
	ls, cmd := startStdioIn(t, tmp, args...)
	t.Cleanup(func() { killUnder(t, tmp) })
	return ls, cmd
}

// TestLiveAuditSurvivesSIGKILL: the line of a call is on disk when the call
// answers. The server is killed with SIGKILL the moment the answer arrives
// (no shutdown runs), and the file holds that call's line.
func TestLiveAuditSurvivesSIGKILL(t *testing.T) {
	page := auditPage(t)
	for round := range 3 {
		path := filepath.Join(t.TempDir(), "state", "audit.jsonl")
		s, cmd := startStdioCmd(t, "--audit-path", path)
		_, nav := s.call(t, "browser_navigate", map[string]any{"url": page.URL + "/?q=" + markQuery})
		if nav.Status != surface.StatusSucceeded {
			t.Fatalf("navigate: %+v", nav)
		}
		s.call(t, "browser_type_text", map[string]any{"selector": map[string]any{"name": "Note"}, "text": markTyped})
		last := "browser_click"
		if round == 1 {
			last = "browser_sequence" // a composite: its steps and its own line
		}
		var env surface.Envelope
		if last == "browser_click" {
			_, env = s.call(t, "browser_click", map[string]any{"selector": map[string]any{"name": "Save"}})
		} else {
			_, env = s.call(t, "browser_sequence", map[string]any{"steps": []any{
				map[string]any{"action": "click", "selector": map[string]any{"name": "Save"}},
				map[string]any{"action": "wait", "condition": "load_ready"}}})
		}
		if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
			t.Fatal(err)
		}
		cmd.Wait()
		lines := auditLines(t, path)
		got := lines[len(lines)-1]
		if got.Invocation != env.Invocation || got.Tool != last || got.Status != string(env.Status) || got.Effect != string(env.Effect) {
			t.Fatalf("round %d: last line %+v, want the %s that answered %s (%s)", round, got, last, env.Invocation, env.Status)
		}
		host := strings.TrimPrefix(page.URL, "http://")
		if last == "browser_click" && (strings.Join(got.Hosts, ",") != host || strings.Join(got.Capabilities, ",") != "action") {
			t.Fatalf("click line %+v", got)
		}
		if last == "browser_sequence" {
			steps := 0
			for _, l := range lines {
				if l.Parent == env.Invocation {
					steps++
				}
			}
			if steps != 2 {
				t.Fatalf("%d step lines linked to the sequence", steps)
			}
		}
		if lines[0].Tool != "browser_navigate" || lines[0].Invocation != nav.Invocation || strings.Join(lines[0].Hosts, ",") != host {
			t.Fatalf("navigate line %+v", lines[0])
		}
		if st, _ := os.Stat(path); st.Mode().Perm() != 0o600 {
			t.Fatalf("file mode %v", st.Mode().Perm())
		}
		if st, _ := os.Stat(filepath.Dir(path)); st.Mode().Perm() != 0o700 {
			t.Fatalf("dir mode %v", st.Mode().Perm())
		}
		noMarkers(t, path)
		t.Logf("round %d: %d lines on disk after SIGKILL, the last one the %s that had just answered", round, len(lines), last)
	}
}

// TestLiveAuditParallelHTTPSessions: 8 MCP sessions over streamable HTTP
// call at once; every line parses and every call of every session has
// exactly its line, composite steps linked to their parent.
func TestLiveAuditParallelHTTPSessions(t *testing.T) {
	page := auditPage(t)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	tmp := shortTempDir(t)
	path := filepath.Join(tmp, "audit", "audit.jsonl")
	stderr := &lockedWriter{w: &bytes.Buffer{}}
	const token = "audit-test-token"
	cmd := exec.Command(serverBinary(t), "serve", "--http", addr, "--token", token, "--audit-path", path)
	cmd.Env = append(os.Environ(), "TMPDIR="+tmp)
	cmd.Stderr = stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { cmd.Process.Signal(os.Interrupt); cmd.Wait() }()

	const sessions = 8
	type session struct {
		c   *client.Client
		id  string
		inv map[string]bool // invocations this session was answered
	}
	ss := make([]*session, sessions)
	for i := range ss {
		c, err := client.NewStreamableHttpClient("http://"+addr+"/mcp", transport.WithHTTPHeaders(map[string]string{"Authorization": "Bearer " + token}))
		if err != nil {
			t.Fatal(err)
		}
		init := mcp.InitializeRequest{}
		init.Params.ProtocolVersion = mcp.ProtocolVersion20251125 // a session: one workspace per client
		init.Params.ClientInfo = mcp.Implementation{Name: "conformance", Version: "1"}
		for try := 0; ; try++ {
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			_, err = c.Initialize(ctx, init)
			cancel()
			if err == nil {
				break
			}
			if try == 50 {
				t.Fatalf("initialize: %v\n%s", err, stderr.String())
			}
			time.Sleep(100 * time.Millisecond) // the server is still starting
		}
		defer c.Close()
		ss[i] = &session{c: c, id: c.GetSessionId(), inv: map[string]bool{}}
	}
	live := &liveServer{tmp: tmp, stderr: stderr}
	var wg sync.WaitGroup
	var mu sync.Mutex
	for _, s := range ss {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ls := *live
			ls.c = s.c
			run := func(tool string, args map[string]any) surface.Envelope {
				_, env := ls.call(t, tool, args)
				mu.Lock()
				s.inv[env.Invocation] = true
				mu.Unlock()
				return env
			}
			// Eight sessions' first calls each make a browser context (and its
			// policy proxy) at once: under CI's load that alone took 8 s.
			run("browser_navigate", map[string]any{"url": page.URL + "/?q=" + markQuery, "timeout_ms": surface.TimeoutMsMax})
			run("browser_read", map[string]any{})
			run("browser_find", map[string]any{"text": "Save"})
			run("browser_type_text", map[string]any{"selector": map[string]any{"name": "Note"}, "text": markTyped})
			run("browser_read", map[string]any{"max_chars": 1}) // refused: bad arguments
			run("policy_explain", map[string]any{})
			run("browser_sequence", map[string]any{"steps": []any{
				map[string]any{"action": "click", "selector": map[string]any{"name": "Save"}},
				map[string]any{"action": "wait", "condition": "load_ready"}}})
		}()
	}
	wg.Wait()
	if t.Failed() {
		return
	}
	lines := auditLines(t, path)
	byInv := map[string]audit.Record{}
	perSession := map[string]int{}
	for _, l := range lines {
		if _, dup := byInv[l.Invocation]; dup {
			t.Fatalf("%s audited twice", l.Invocation)
		}
		byInv[l.Invocation] = l
		perSession[l.Workspace]++
	}
	const direct, steps = 7, 2
	if len(lines) != sessions*(direct+steps) {
		t.Fatalf("%d lines, want %d", len(lines), sessions*(direct+steps))
	}
	for _, s := range ss {
		if perSession[s.id] != direct+steps {
			t.Fatalf("session %s has %d lines, want %d", s.id, perSession[s.id], direct+steps)
		}
		for inv := range s.inv {
			l, ok := byInv[inv]
			if !ok || l.Workspace != s.id || l.Parent != "" {
				t.Fatalf("answered %s has line %+v", inv, l)
			}
		}
	}
	for _, l := range lines {
		if l.Parent == "" {
			continue
		}
		p, ok := byInv[l.Parent]
		if !ok || p.Tool != "browser_sequence" || p.Workspace != l.Workspace {
			t.Fatalf("step %+v names parent %+v", l, p)
		}
	}
	noMarkers(t, path)
	t.Logf("%d lines from %d parallel HTTP sessions, all parsed", len(lines), sessions)
}

// TestLiveAuditUnavailable: with an audit that cannot be written (a path
// through a regular file; a special file), a call that would change
// anything is refused audit_unavailable before it runs, reads go on, and
// both say so.
func TestLiveAuditUnavailable(t *testing.T) {
	page := auditPage(t)
	blocker := filepath.Join(t.TempDir(), "state")
	os.WriteFile(blocker, []byte("not a directory"), 0o600)
	for _, c := range []struct{ path, cause string }{
		{filepath.Join(blocker, "audit.jsonl"), audit.CauseNotDir},
		{"/dev/full", audit.CauseNotRegular},
	} {
		s := startStdio(t, "--audit-path", c.path)
		res, env := s.call(t, "browser_click", map[string]any{"selector": map[string]any{"name": "Save"}})
		var f map[string]any
		json.Unmarshal(env.Facts, &f)
		if env.Status != surface.StatusBlocked || !res.IsError || f["reason"] != "audit_unavailable" || env.Effect != surface.EffectNone ||
			!strings.Contains(env.Summary, "audit log cannot be written ("+c.cause+")") || strings.Contains(env.Summary, c.path) {
			t.Fatalf("%s: click %+v", c.path, env)
		}
		_, env = s.call(t, "policy_explain", map[string]any{})
		if env.Status != surface.StatusSucceeded || !strings.Contains(env.Summary, "audit log cannot be written") {
			t.Fatalf("%s: read %+v", c.path, env)
		}
		if _, env = s.call(t, "browser_navigate", map[string]any{"url": page.URL + "/"}); env.Status != surface.StatusSucceeded {
			t.Fatalf("%s: navigate (a read) %+v", c.path, env)
		}
		_, env = s.call(t, "browser_sequence", map[string]any{"steps": []any{
			map[string]any{"action": "click", "selector": map[string]any{"name": "Save"}},
			map[string]any{"action": "wait", "condition": "load_ready"}}})
		if env.Status == surface.StatusSucceeded || !strings.Contains(string(env.Facts), "audit log cannot be written") {
			t.Fatalf("%s: sequence %+v", c.path, env)
		}
		s.c.Close()
		if !strings.Contains(s.stderr.String(), "audit cannot be written") {
			t.Fatalf("%s: the log does not say the audit is down:\n%s", c.path, s.stderr.String())
		}
	}
}

package conformance

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io/fs"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
)

// secrets are the marker strings one run stuffs into its calls and pages:
// each unique and random, so finding one anywhere is a leak.
type secrets map[string]string

func newSecrets(labels ...string) secrets {
	s := secrets{}
	for _, l := range labels {
		b := make([]byte, 8)
		rand.Read(b)
		s[l] = "gl" + l + hex.EncodeToString(b)
	}
	return s
}

// privacyPage carries the page-side secrets: title, text, names, dialog
// text, console output and a fetch's query string.
func privacyPage(t *testing.T, m secrets) string {
	mux := http.NewServeMux()
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprintf(w, `<title>%s</title><main><h1>Privacy page</h1><p>%s</p>
<label>Memo <input id="memo"></label>
<label>Other <input id="other"></label>
<button onclick="this.dataset.n=1">Save</button>
<button aria-label="%s" onclick="this.dataset.n=1">Named</button>
<button onclick="alert('%s')">Alert</button>
<button onclick="window.answer = prompt('%s')">Ask</button>
<label>Doc <input type="file" id="doc" multiple></label>
<div id="src" draggable="true" style="width:80px;height:30px;background:#ccc">Drag me</div>
<div id="dst" role="region" aria-label="Drop zone" style="width:120px;height:60px;border:1px solid" ondragover="event.preventDefault()">Drop here</div>
<a href="/two?q=%s">Second</a>
<div style="height:2000px">tall</div>
<script>console.log('%s'); fetch('/api?token=%s')</script></main>`,
			m["title"], m["text"], m["name"], m["dialog"], m["promptq"], m["query2"], m["console"], m["fetch"])
	})
	mux.HandleFunc("/two", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprintf(w, `<title>%s</title><p>second page</p>`, m["title2"])
	})
	mux.HandleFunc("/api", func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, "{}") })
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv.URL
}

// privacyServer is one shipped binary at --log-level debug with every place
// it may write (TMPDIR, state, audit) under dirs the test then searches.
type privacyServer struct {
	*liveServer
	dirs []string // where the server may write
	stop func()   // ends the server and waits for it
}

func startPrivacyServer(t *testing.T, transportName, policy string) *privacyServer {
	t.Helper()
	tmp := shortTempDir(t)
	home := t.TempDir()
	state, config, auditDir := filepath.Join(home, "state"), filepath.Join(home, "config"), filepath.Join(home, "audit")
	env := append(os.Environ(), "TMPDIR="+tmp, "XDG_STATE_HOME="+state, "XDG_CONFIG_HOME="+config,
		"GHOSTLIGHT_ORG_POLICY=", "GHOSTLIGHT_USER_POLICY=", "GHOSTLIGHT_WORKSPACE_POLICY="+policy, "GHOSTLIGHT_ORG_KEY=")
	args := []string{"serve", "--log-level", "debug", "--audit-path", filepath.Join(auditDir, "audit.jsonl")}
	stderr := &lockedWriter{w: &bytes.Buffer{}}
	ps := &privacyServer{dirs: []string{tmp, state, config, auditDir}}
	init := mcp.InitializeRequest{}
	init.Params.ProtocolVersion = "2025-06-18"
	init.Params.ClientInfo = mcp.Implementation{Name: "privacy", Version: "1"}
	var c *client.Client
	switch transportName {
	case "stdio":
		// The test owns the process: the server's stderr stays open until
		// it has exited (a client closing the pipe early would kill it
		// mid-shutdown with SIGPIPE, leaving its browser profile behind).
		cmd := exec.Command(serverBinary(t), args...)
		cmd.Env = env
		cmd.Stderr = stderr
		stdin, _ := cmd.StdinPipe()
		stdout, _ := cmd.StdoutPipe()
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		c = client.NewClient(transport.NewIO(stdout, stdin, nil))
		if err := c.Start(context.Background()); err != nil {
			t.Fatal(err)
		}
		ps.stop = func() {
			stdin.Close()
			cmd.Wait()
		}
	default:
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		addr := ln.Addr().String()
		ln.Close()
		const token = "privacy-token"
		cmd := exec.Command(serverBinary(t), append(args, "--http", addr, "--token", token)...)
		cmd.Env = env
		cmd.Stderr = stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		for try := 0; ; try++ {
			if conn, err := net.Dial("tcp", addr); err == nil {
				conn.Close()
				break
			}
			if try == 100 {
				t.Fatalf("the server does not listen\n%s", stderr.String())
			}
			time.Sleep(100 * time.Millisecond) // the server is still starting
		}
		c, err = client.NewStreamableHttpClient("http://"+addr+"/mcp", transport.WithHTTPHeaders(map[string]string{"Authorization": "Bearer " + token}))
		if err != nil {
			t.Fatal(err)
		}
		ps.stop = func() {
			c.Close()
			cmd.Process.Signal(os.Interrupt)
			cmd.Wait()
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if _, err := c.Initialize(ctx, init); err != nil {
		t.Fatalf("initialize: %v\n%s", err, stderr.String())
	}
	ps.liveServer = &liveServer{c: c, tmp: tmp, stderr: stderr}
	t.Cleanup(func() { killUnder(t, tmp) })
	return ps
}

// target finds one element's handle by its visible text or name.
func (s *privacyServer) target(t *testing.T, text string) string {
	t.Helper()
	_, env := s.call(t, "browser_find", map[string]any{"text": text})
	var f surface.BrowserFindFacts
	json.Unmarshal(env.Facts, &f)
	if len(f.Matches) == 0 {
		t.Fatalf("no target for %q: %s", text, env.Facts)
	}
	return f.Matches[0].Target
}

// TestLivePrivacyMarkers drives every one of the 24 tools, over stdio and
// HTTP, with marker secrets in what each carries (typed and filled values,
// script source and result, dialog text and a prompt response, upload
// paths, file names and contents, query strings, titles, page text and
// names, console output, the model's own find and diagnose words), then
// searches all of stderr at --log-level debug and every file left in the
// server's TMPDIR, state, config and audit directories for the markers.
func TestLivePrivacyMarkers(t *testing.T) {
	for _, tr := range []string{"stdio", "http"} {
		t.Run(tr, func(t *testing.T) { privacyRun(t, tr) })
	}
}

func privacyRun(t *testing.T, tr string) {
	m := newSecrets("query", "query2", "title", "title2", "text", "name", "dialog", "promptq", "prompt", "console", "fetch",
		"typed", "typed2", "fill", "seqfill", "seqtyped", "flowtyped", "script", "result", "dirname", "filename", "content",
		"inlinename", "inlinecontent", "find", "match", "waiturl")
	base := privacyPage(t, m)
	files := filepath.Join(t.TempDir(), "files")
	upDir := filepath.Join(files, m["dirname"])
	os.MkdirAll(upDir, 0o700)
	upFile := filepath.Join(upDir, m["filename"]+".txt")
	os.WriteFile(upFile, []byte(m["content"]), 0o600)
	policy := filepath.Join(t.TempDir(), "policy.cue")
	os.WriteFile(policy, []byte(`files: read_roots: [`+fmt.Sprintf("%q", files)+`]`+"\n"), 0o600)

	s := startPrivacyServer(t, tr, policy)
	done := map[string]bool{}
	call := func(tool string, args map[string]any) surface.Envelope {
		t.Helper()
		done[tool] = true
		_, env := s.call(t, tool, args)
		return env
	}
	must := func(tool string, args map[string]any) surface.Envelope {
		t.Helper()
		env := call(tool, args)
		if env.Status != surface.StatusSucceeded {
			t.Fatalf("%s: %s %s", tool, env.Status, env.Summary)
		}
		return env
	}

	must("browser_navigate", map[string]any{"url": base + "/?q=" + m["query"]})
	must("browser_diagnose", map[string]any{}) // starts collecting
	must("browser_tabs", map[string]any{"action": "list"})
	must("browser_read", map[string]any{})
	must("browser_inspect", map[string]any{})
	call("browser_find", map[string]any{"text": m["find"]})
	must("browser_wait", map[string]any{"condition": "url_contains", "value": m["query"]})
	must("browser_wait", map[string]any{"condition": "text_present", "value": m["text"]})
	must("browser_click", map[string]any{"selector": map[string]any{"name": "Save"}})
	must("browser_click", map[string]any{"target": s.target(t, m["name"])})
	must("browser_type_text", map[string]any{"selector": map[string]any{"name": "Memo"}, "text": m["typed"]})
	must("browser_press_key", map[string]any{"key": "Tab"})
	must("browser_fill_form", map[string]any{"fields": []any{map[string]any{"target": s.target(t, "Other"), "value": m["fill"]}}})
	script := fmt.Sprintf(`(function(){ var s = %q; return [%q, %q].join("") })()`, m["script"], m["result"][:6], m["result"][6:])
	must("browser_execute", map[string]any{"script": script})
	must("browser_click", map[string]any{"selector": map[string]any{"name": "Alert"}})
	must("browser_dialog", map[string]any{"action": "status"})
	must("browser_dialog", map[string]any{"action": "accept"})
	must("browser_click", map[string]any{"selector": map[string]any{"name": "Ask"}})
	must("browser_dialog", map[string]any{"action": "respond", "text": m["prompt"]})
	doc := s.target(t, "Doc")
	must("browser_upload", map[string]any{"target": doc, "paths": []string{upFile}})
	must("browser_upload", map[string]any{"target": doc, "files": []any{map[string]any{"name": m["inlinename"], "data_base64": base64.StdEncoding.EncodeToString([]byte(m["inlinecontent"]))}}})
	// Refused: outside the roots, and arguments that do not decode.
	call("browser_upload", map[string]any{"target": doc, "paths": []string{filepath.Join(t.TempDir(), m["filename"]+"-outside.txt")}})
	call("browser_type_text", map[string]any{"selector": map[string]any{"name": "Memo"}, "text": m["typed2"], "bogus": m["typed2"]})
	_, shot := s.call(t, "browser_screenshot", map[string]any{})
	done["browser_screenshot"] = true
	var sf surface.BrowserScreenshotFacts
	json.Unmarshal(shot.Facts, &sf)
	must("browser_hover", map[string]any{"view": sf.View, "x": 10, "y": 10})
	must("browser_drag", map[string]any{"source_target": s.target(t, "Drag me"), "destination_target": s.target(t, "Drop here")})
	must("browser_scroll", map[string]any{"direction": "down"})
	rec := must("browser_record", map[string]any{"action": "start"})
	var rf surface.BrowserRecordFacts
	json.Unmarshal(rec.Facts, &rf)
	must("browser_sequence", map[string]any{"steps": []any{
		map[string]any{"action": "fill", "target": s.target(t, "Other"), "value": m["seqfill"]},
		map[string]any{"action": "type_text", "selector": map[string]any{"name": "Memo"}, "text": m["seqtyped"]},
	}})
	must("browser_flow", map[string]any{"steps": []any{
		map[string]any{"id": "memo", "tool": "browser_type_text", "arguments": map[string]any{"selector": map[string]any{"name": "Memo"}, "text": m["flowtyped"]}},
	}})
	must("browser_record", map[string]any{"action": "stop", "recording": rf.Recording})
	must("browser_record", map[string]any{"action": "save", "recording": rf.Recording})
	must("browser_window", map[string]any{"action": "zoom", "percent": 100})
	must("browser_click", map[string]any{"selector": map[string]any{"name": "Second"}})
	must("browser_history", map[string]any{"action": "back"})
	call("browser_diagnose", map[string]any{"detail": "all", "match": m["match"]})
	must("browser_diagnose", map[string]any{"detail": "all"})
	must("policy_explain", map[string]any{})
	for _, tool := range surface.Catalog {
		if !done[tool.Name] {
			t.Errorf("%s was not driven", tool.Name)
		}
	}
	s.stop()

	// Everything the server said and left behind.
	var leaks []string
	search := func(where string, b []byte) {
		for label, v := range m {
			if bytes.Contains(b, []byte(v)) {
				leaks = append(leaks, fmt.Sprintf("%s holds the %s marker", where, label))
			}
		}
	}
	search("stderr", []byte(s.stderr.String()))
	files0 := 0
	for _, dir := range s.dirs {
		filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if err != nil || !d.Type().IsRegular() {
				return nil
			}
			files0++
			if b, err := os.ReadFile(p); err == nil {
				search(p, b)
			}
			return nil
		})
	}
	if os.Getenv("GL_PRIVACY_DUMP") != "" {
		t.Log(s.stderr.String())
	}
	sort.Strings(leaks)
	if len(leaks) > 0 {
		t.Fatalf("%d leaks:\n%s", len(leaks), strings.Join(leaks, "\n"))
	}
	if lines := strings.Count(s.stderr.String(), "\n"); lines < 50 || files0 == 0 {
		t.Fatalf("nothing to search: %d stderr lines, %d files", lines, files0)
	}
	t.Logf("%s: %d markers absent from %d stderr lines and %d files", tr, len(m), strings.Count(s.stderr.String(), "\n"), files0)
}

// TestLiveClientClosingStderrLeavesNothing: mcp-go's stdio client closes
// the server's stderr as it shuts the server down. The server must still
// finish its shutdown (a write to the closed pipe fails instead of killing
// it), so its browser profile, which holds the pages' cache, is gone once
// it exits.
func TestLiveClientClosingStderrLeavesNothing(t *testing.T) {
	m := newSecrets("query", "title", "text")
	base := privacyPage(t, m)
	tmp := shortTempDir(t)
	stderr := &lockedWriter{w: &bytes.Buffer{}}
	c, err := client.NewStdioMCPClientWithOptions(serverBinary(t), append(os.Environ(), "TMPDIR="+tmp), []string{"serve", "--log-level", "debug"},
		transport.WithCommandStderrWriter(stderr))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { killUnder(t, tmp) })
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	init := mcp.InitializeRequest{}
	init.Params.ProtocolVersion = "2025-06-18"
	init.Params.ClientInfo = mcp.Implementation{Name: "privacy", Version: "1"}
	if _, err := c.Initialize(ctx, init); err != nil {
		t.Fatal(err)
	}
	s := &liveServer{c: c, tmp: tmp, stderr: stderr}
	if _, env := s.call(t, "browser_navigate", map[string]any{"url": base + "/?q=" + m["query"]}); env.Status != surface.StatusSucceeded {
		t.Fatalf("navigate: %+v", env)
	}
	c.Close() // closes stdin and stderr, then waits for the server to exit
	var left []string
	filepath.WalkDir(tmp, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			if b, err := os.ReadFile(p); err == nil {
				for label, v := range m {
					if bytes.Contains(b, []byte(v)) {
						left = append(left, p+" holds the "+label+" marker")
					}
				}
			}
		}
		if err == nil && d.IsDir() && strings.HasPrefix(d.Name(), "ghostlight-") {
			left = append(left, p)
		}
		return nil
	})
	if len(left) > 0 {
		t.Fatalf("left behind after the client closed:\n%s", strings.Join(left, "\n"))
	}
}

//go:build unix

package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/ghostlight-dev/ghostlight/runtime/browser"
)

// person is one user's machine as these tests see it: fake browser installations on
// PATH (scripts named like browsers that exec the real Chromium), a config home of
// its own, and the environment every command of theirs runs in.
type person struct {
	env []string
	cfg string // $XDG_CONFIG_HOME
}

func newPerson(t *testing.T, browsers ...string) *person {
	t.Helper()
	found := browser.FindBrowsers(os.Getenv("GHOSTLIGHT_BROWSER"))
	if len(found) == 0 {
		t.Fatal("no Chromium installed")
	}
	real := browser.Launchable(found[0].Path)
	bin := t.TempDir()
	for _, n := range browsers {
		if err := os.WriteFile(filepath.Join(bin, n), []byte("#!/bin/sh\nexec "+real+" \"$@\"\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	p := &person{cfg: t.TempDir()}
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		if k == "PATH" || k == "TMPDIR" || strings.HasPrefix(k, "XDG_") || strings.HasPrefix(k, "GHOSTLIGHT_") {
			continue
		}
		p.env = append(p.env, kv)
	}
	p.env = append(p.env, "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"), "TMPDIR="+t.TempDir(),
		"XDG_CONFIG_HOME="+p.cfg, "XDG_STATE_HOME="+t.TempDir(),
		"GHOSTLIGHT_ORG_POLICY=", "GHOSTLIGHT_USER_POLICY=", "GHOSTLIGHT_WORKSPACE_POLICY=", "GHOSTLIGHT_ORG_KEY=")
	return p
}

// run runs one ghostlight command as the person would, and returns what it printed.
func (p *person) run(t *testing.T, args ...string) string {
	t.Helper()
	cmd := exec.Command(binary(t), args...)
	cmd.Env = p.env
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("ghostlight %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

var openedPID = regexp.MustCompile(`\(pid (\d+),`)

// open runs `ghostlight open NAME --headless` and kills the browser it left running
// when the test ends.
func (p *person) open(t *testing.T, name string) {
	t.Helper()
	out := p.run(t, "open", name, "--headless")
	m := openedPID.FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("open printed no pid: %s", out)
	}
	pid, _ := strconv.Atoi(m[1])
	t.Cleanup(func() {
		_ = syscall.Kill(-pid, syscall.SIGKILL) // its own session: the whole group
		for deadline := time.Now().Add(10 * time.Second); syscall.Kill(pid, 0) == nil && time.Now().Before(deadline); {
			time.Sleep(10 * time.Millisecond)
		}
	})
}

func (p *person) serve(t *testing.T, args ...string) *stdioServer {
	t.Helper()
	s := &stdioServer{cmd: exec.Command(binary(t), append([]string{"serve", "--log-level", "info"}, args...)...)}
	s.cmd.Env = p.env
	s.cmd.Stderr = &s.stderr
	var err error
	if s.in, err = s.cmd.StdinPipe(); err != nil {
		t.Fatal(err)
	}
	out, err := s.cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	s.out = bufio.NewReaderSize(out, 1<<20)
	if err := s.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.in.Close(); _ = s.cmd.Wait() })
	s.rpc(t, "initialize", map[string]any{"protocolVersion": "2025-06-18", "capabilities": map[string]any{},
		"clientInfo": map[string]any{"name": "startup-test", "version": "1"}})
	s.send(t, map[string]any{"jsonrpc": "2.0", "method": "notifications/initialized"})
	return s
}

// result is a tool result's envelope, with its raw JSON.
type result struct {
	Status    string   `json:"status"`
	Summary   string   `json:"summary"`
	NextSteps []string `json:"next_steps"`
	Facts     struct {
		Reason   string   `json:"reason"`
		Browsers []string `json:"browsers"`
		Browser  string   `json:"browser"`
		Endpoint string   `json:"endpoint"`
		Title    string   `json:"title"`
	} `json:"facts"`
	raw string
}

func (s *stdioServer) tool(t *testing.T, name string, args any) result {
	t.Helper()
	raw := s.rpc(t, "tools/call", map[string]any{"name": name, "arguments": args})
	var r struct {
		Structured json.RawMessage `json:"structuredContent"`
	}
	var env result
	if err := json.Unmarshal(raw, &r); err != nil || json.Unmarshal(r.Structured, &env) != nil {
		t.Fatalf("%s: %s", name, raw)
	}
	env.raw = string(raw)
	return env
}

func pageServer(t *testing.T) string {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprint(w, `<title>Prepared</title><p>hello</p>`)
	}))
	t.Cleanup(srv.Close)
	return srv.URL + "/"
}

// wantStartupManual checks the refusal that leaves startup to the person: attention
// required, the whole instruction in the summary, no next steps, product names only.
func wantStartupManual(t *testing.T, r result, browsers []string, says ...string) {
	t.Helper()
	if r.Status != "attention_required" || r.Facts.Reason != "browser_startup_manual" || len(r.NextSteps) != 0 ||
		strings.Join(r.Facts.Browsers, ",") != strings.Join(browsers, ",") {
		t.Fatalf("refusal: %s", r.raw)
	}
	if (len(browsers) == 1) != (r.Facts.Browser != "") || len(browsers) == 1 && r.Facts.Browser != browsers[0] {
		t.Fatalf("the browser fact belongs to one choice: %s", r.raw)
	}
	for _, w := range says {
		if !strings.Contains(r.Summary, w) {
			t.Fatalf("summary lacks %q: %s", w, r.Summary)
		}
	}
	// Never a filesystem path, never "declined to choose".
	if strings.Contains(r.raw, "/tmp") || strings.Contains(r.raw, "/usr") || strings.Contains(strings.ToLower(r.Summary), "decline") {
		t.Fatalf("refusal: %s", r.raw)
	}
}

// TestManualStartupRecoversWithoutRestart: with --startup manual, a call is refused
// (prepare the browser), `ghostlight install` makes the next refusal name the
// browser to open, `ghostlight open chromium --headless` starts it (a real, detached
// process), and the same call on the same server then succeeds. The server's exit
// leaves the person's browser running.
func TestManualStartupRecoversWithoutRestart(t *testing.T) {
	p := newPerson(t, "chromium")
	url := pageServer(t)
	s := p.serve(t, "--startup", "manual")
	nav := map[string]any{"url": url}

	wantStartupManual(t, s.tool(t, "browser_navigate", nav), []string{"Chromium"},
		"Chromium is installed but not prepared for Ghostlight", "`ghostlight install`", "`ghostlight open chromium`")
	if out := p.run(t, "install"); !strings.Contains(out, "Chromium (") || !strings.Contains(out, "registered") {
		t.Fatalf("install: %s", out)
	}
	wantStartupManual(t, s.tool(t, "browser_navigate", nav), []string{"Chromium"},
		"Ask the user to open Chromium prepared for Ghostlight, by running `ghostlight open chromium`, then repeat the call.")
	p.open(t, "chromium")
	r := s.tool(t, "browser_navigate", nav)
	if r.Status != "succeeded" || !strings.Contains(r.raw, "Prepared") {
		t.Fatalf("after ghostlight open: %s\n%s", r.raw, s.stderr.String())
	}
	if !strings.Contains(s.stderr.String(), "attached to a prepared browser") {
		t.Fatalf("the server did not say it attached:\n%s", s.stderr.String())
	}
	_ = s.in.Close()
	if err := s.cmd.Wait(); err != nil {
		t.Fatalf("server: %v", err)
	}
	if out := p.run(t, "open", "chromium", "--headless"); !strings.Contains(out, "already open") {
		t.Fatalf("the person's browser should outlive the server: %s", out)
	}
}

// TestSeveralBrowsersAreNamedAndForeignRegistrationsAnswered: auto with Chromium and
// Google Chrome installed and none configured launches neither and names both; once
// another installation owns the registrations, the answer is the owned-elsewhere
// sentence with its one next step, and the files are left as they were.
func TestSeveralBrowsersAreNamedAndForeignRegistrationsAnswered(t *testing.T) {
	p := newPerson(t, "chromium", "google-chrome")
	url := pageServer(t)
	s := p.serve(t)
	wantStartupManual(t, s.tool(t, "browser_navigate", map[string]any{"url": url}), []string{"Chromium", "Google Chrome"},
		"none of the installed browsers (Chromium, Google Chrome) is prepared for Ghostlight", "`ghostlight install`")
	p.run(t, "install")
	wantStartupManual(t, s.tool(t, "browser_tabs", map[string]any{"action": "list"}), []string{"Chromium", "Google Chrome"},
		"open one of Chromium or Google Chrome prepared for Ghostlight")

	regs, _ := filepath.Glob(filepath.Join(p.cfg, "ghostlight", "browsers", "*.json"))
	if len(regs) != 2 {
		t.Fatalf("registrations: %v", regs)
	}
	before := map[string]string{}
	for _, path := range regs {
		b, _ := os.ReadFile(path)
		var reg map[string]any
		_ = json.Unmarshal(b, &reg)
		reg["owner"] = map[string]any{"binary": "/opt/other/ghostlight", "install_id": "another-installation"}
		b, _ = json.MarshalIndent(reg, "", "  ")
		if err := os.WriteFile(path, b, 0o600); err != nil {
			t.Fatal(err)
		}
		before[path] = string(b)
	}
	r := s.tool(t, "browser_navigate", map[string]any{"url": url})
	if r.Status != "attention_required" || r.Facts.Reason != "native_host_owned_elsewhere" ||
		r.Summary != "Another Ghostlight installation owns the browser registration." || len(r.NextSteps) != 1 ||
		!strings.Contains(r.NextSteps[0], "`ghostlight install` from the installation that should own the browsers") {
		t.Fatalf("foreign: %s", r.raw)
	}
	for path, b := range before {
		if now, _ := os.ReadFile(path); string(now) != b {
			t.Fatalf("%s was touched", path)
		}
	}
	if strings.Contains(s.stderr.String(), "browser connected") {
		t.Fatalf("a browser was started or attached:\n%s", s.stderr.String())
	}
}

// TestUnreachableEndpointIsReportedAsSuch: an endpoint nothing listens on is named
// (host:port) with the connection error, not answered with manual-startup advice.
func TestUnreachableEndpointIsReportedAsSuch(t *testing.T) {
	p := newPerson(t, "chromium")
	s := p.serve(t, "--browser-endpoint", "http://127.0.0.2:9333")
	r := s.tool(t, "browser_tabs", map[string]any{"action": "list"})
	if r.Status != "failed" || r.Facts.Reason != "browser_unavailable" || r.Facts.Endpoint != "127.0.0.2:9333" ||
		!strings.Contains(r.Summary, "127.0.0.2:9333 could not be reached") || !strings.Contains(r.Summary, "connection refused") ||
		strings.Contains(r.raw, "9222") || strings.Contains(r.raw, "remote-debugging") || len(r.NextSteps) != 1 {
		t.Fatalf("unreachable: %s", r.raw)
	}
}

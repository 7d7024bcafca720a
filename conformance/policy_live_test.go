package conformance

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"crypto/x509"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
	"github.com/ghostlight-dev/ghostlight/runtime/governance"
)

// policyEnv writes the three layer files (empty text: no file) into dir
// and returns the environment that points the binary at them and nothing
// else of this machine (no /etc layer or key, no ~/.config, audit in dir).
func policyEnv(t *testing.T, dir, org, user, ws string) []string {
	t.Helper()
	env := []string{"TMPDIR=" + shortTempDir(t), "XDG_STATE_HOME=" + dir, "XDG_CONFIG_HOME=" + dir, "GHOSTLIGHT_ORG_KEY="}
	for _, l := range []struct{ env, name, src string }{{"GHOSTLIGHT_ORG_POLICY", "org.cue", org}, {"GHOSTLIGHT_USER_POLICY", "user.cue", user}, {"GHOSTLIGHT_WORKSPACE_POLICY", "ws.cue", ws}} {
		if l.src == "" {
			env = append(env, l.env+"=")
			continue
		}
		p := filepath.Join(dir, l.name)
		if err := os.WriteFile(p, []byte(l.src), 0o600); err != nil {
			t.Fatal(err)
		}
		env = append(env, l.env+"="+p)
	}
	return env
}

// environ is this process's environment with the policy variables replaced.
func environ(env []string) []string {
	var out []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		if strings.HasPrefix(k, "GHOSTLIGHT_") || strings.HasPrefix(k, "XDG_") || k == "TMPDIR" {
			continue
		}
		out = append(out, kv)
	}
	return append(out, env...)
}

func startPolicy(t *testing.T, env []string, args ...string) *liveServer {
	t.Helper()
	stderr := &lockedWriter{w: &bytes.Buffer{}}
	tmp := ""
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, "TMPDIR="); ok {
			tmp = v
		}
	}
	c, err := client.NewStdioMCPClientWithOptions(serverBinary(t), environ(env), append([]string{"serve"}, args...), transport.WithCommandStderrWriter(stderr))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return initialized(t, c, tmp, stderr)
}

func explainFacts(t *testing.T, s *liveServer) *surface.PolicyExplainFacts {
	t.Helper()
	_, env := s.call(t, "policy_explain", map[string]any{})
	if env.Status != surface.StatusSucceeded {
		t.Fatalf("policy_explain: %+v", env)
	}
	var f surface.PolicyExplainFacts
	if err := json.Unmarshal(env.Facts, &f); err != nil {
		t.Fatal(err)
	}
	return &f
}

func writeKey(t *testing.T, dir string) (ed25519.PrivateKey, string) {
	pub, priv, _ := ed25519.GenerateKey(rand.Reader)
	der, _ := x509.MarshalPKIXPublicKey(pub)
	p := filepath.Join(dir, "org.pub")
	os.WriteFile(p, pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: der}), 0o644)
	return priv, p
}

func signFile(t *testing.T, priv ed25519.PrivateKey, path string) {
	src, _ := os.ReadFile(path)
	os.WriteFile(path+surface.PolicySignatureSuffix, ed25519.Sign(priv, src), 0o644)
}

// TestLivePolicyExplainAgreesWithCLI: `ghostlight explain` prints, line for
// line, what policy_explain tells a model (apart from locations and the
// files in force), and the model's result holds no path and no layer text.
// (Manual startup with no endpoint is shared isolation in an attached
// browser: hosts.requests "all" starts there only because the organization
// accepts interception only, and both say the boundary is interception only.)
func TestLivePolicyExplainAgreesWithCLI(t *testing.T) {
	dir := shortTempDir(t)
	env := policyEnv(t, dir,
		"package acme\n\n// LAYER-TEXT-MARKER: the organization's own words.\norganization: {name: \"Acme\", id: \"acme\"}\ncapabilities: execute: \"deny\"\nhosts: allow: [\"127.0.0.1\", \"*.acme.test\"]\nhosts: deny: [\"admin.acme.test\"]\naudit: keep: 3\nbrowser: accept_interception_only: true\n",
		"capabilities: write: \"deny\"\ntabs: close: \"deny\"\n",
		"hosts: allow: [\"127.0.0.1\"]\nhosts: requests: \"all\"\n")
	priv, keyPath := writeKey(t, dir)
	signFile(t, priv, filepath.Join(dir, "org.cue"))
	env = append(env, "GHOSTLIGHT_ORG_KEY="+keyPath)
	flags := []string{"--withhold-target-names", "--startup", "manual"}

	cmd := exec.Command(serverBinary(t), append([]string{"explain"}, flags...)...)
	cmd.Env = environ(env)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("ghostlight explain: %v\n%s", err, out)
	}
	var person []string
	located := 0
	for _, line := range strings.Split(strings.TrimRight(string(out), "\n"), "\n") {
		if strings.HasPrefix(line, "file ") {
			if !strings.Contains(line, dir) {
				t.Errorf("file line without its path: %q", line)
			}
			continue
		}
		if i := strings.Index(line, "  ["); i >= 0 {
			located++
			line = line[:i]
		}
		person = append(person, line)
	}
	if located < 8 {
		t.Errorf("only %d lines carry a location:\n%s", located, out)
	}

	s := startPolicy(t, env, flags...)
	res, _ := s.call(t, "policy_explain", map[string]any{})
	raw, _ := json.Marshal(res.StructuredContent)
	text := res.Content[0].(mcp.TextContent).Text
	for _, leak := range []string{dir, "LAYER-TEXT-MARKER", "org.cue", keyPath} {
		if strings.Contains(string(raw), leak) || strings.Contains(text, leak) {
			t.Errorf("the model's result holds %q", leak)
		}
	}
	f := explainFacts(t, s)
	model := governance.Render(f, nil)
	if strings.Join(model, "\n") != strings.Join(person, "\n") {
		t.Fatalf("the person and the model read different explanations\nperson:\n%s\nmodel:\n%s", strings.Join(person, "\n"), strings.Join(model, "\n"))
	}
	fp := governance.Fingerprint(priv.Public().(ed25519.PublicKey))
	for _, w := range []string{
		"capability execute: denied (organization)", "capability write: denied (user)", "capability read: allowed (default)",
		"hosts allow: 127.0.0.1, *.acme.test (organization)", "hosts allow: 127.0.0.1 (workspace)", "hosts deny: admin.acme.test (organization)",
		"hosts requests: all (workspace)", "constraint tab_close: denied (user)", "setting privacy.preserve_target_names: false (command-line)",
		"setting audit.keep: 3 (organization)", "startup: manual (command-line)", "organization: Acme (acme)",
		"provenance: signed and verified (key " + fp + ")", "layers in force: ceiling, organization, user, workspace, command-line",
		"setting browser.accept_interception_only: true (organization)",
	} {
		if !contains(model, w) {
			t.Errorf("explanation lacks %q:\n%s", w, strings.Join(model, "\n"))
		}
	}
	if note := model[len(model)-1]; !strings.HasPrefix(note, "note: ") || !strings.Contains(note, "request interception only") {
		t.Errorf("the explanation does not say the boundary is interception only: %q", note)
	}
	var env2 surface.Envelope
	json.Unmarshal(raw, &env2)
	if !strings.HasPrefix(env2.Summary, "Explained 4 capability areas over 5 layers in force. Under the permanent ceilings, 2 of 4 capabilities are denied (write, execute)") {
		t.Errorf("summary %q", env2.Summary)
	}
}

func contains(lines []string, s string) bool {
	for _, l := range lines {
		if l == s {
			return true
		}
	}
	return false
}

// TestLivePolicyRefusesToStart: a layer that widens, does not parse, or
// carries a bad signature stops the server before it serves.
func TestLivePolicyRefusesToStart(t *testing.T) {
	dir := shortTempDir(t)
	run := func(env []string, args ...string) string {
		t.Helper()
		cmd := exec.Command(serverBinary(t), append([]string{"serve"}, args...)...)
		cmd.Env = environ(env)
		cmd.Stdin = strings.NewReader("")
		out, err := cmd.CombinedOutput()
		if err == nil {
			t.Fatalf("the server started: %s", out)
		}
		return string(out)
	}
	org, user := filepath.Join(dir, "org.cue"), filepath.Join(dir, "user.cue")
	out := run(policyEnv(t, dir, "capabilities: execute: \"deny\"\n", "\n\ncapabilities: execute: \"allow\"\n", ""))
	if !strings.Contains(out, "the user layer widens capabilities.execute") || !strings.Contains(out, user+":3:15") || !strings.Contains(out, org+":1:15") {
		t.Errorf("widening: %s", out)
	}
	out = run(policyEnv(t, dir, "hosts: allow: [\"127.0.0.1\"]\n", "", ""), "--startup", "bogus")
	if !strings.Contains(out, "the command line: startup must be one of auto, connect, manual") {
		t.Errorf("bad --startup: %s", out)
	}
	out = run(policyEnv(t, dir, "browser: startup: \"manual\"\n", "", ""), "--startup", "auto")
	if !strings.Contains(out, "the command-line layer widens browser.startup") || !strings.Contains(out, "--startup auto") {
		t.Errorf("widening flag: %s", out)
	}
	out = run(policyEnv(t, dir, "", "capabilities: {\n  read: allow\n}\n", ""))
	if !strings.Contains(out, user+":2:9") || !strings.Contains(out, "reference") {
		t.Errorf("syntax: %s", out)
	}
	out = run(policyEnv(t, dir, "", "privacy: preserve_names: false\n", ""))
	if !strings.Contains(out, user+":1:10: unknown field \"preserve_names\"") {
		t.Errorf("unknown key: %s", out)
	}
	// hosts.requests "all" where no policy proxy routes the browser (manual
	// startup, shared isolation) without the organization's acceptance.
	out = run(policyEnv(t, dir, "", "hosts: requests: \"all\"\n", ""), "--startup", "manual")
	if !strings.Contains(out, "request interception only") || !strings.Contains(out, "browser.accept_interception_only") {
		t.Errorf("interception only: %s", out)
	}
	env := policyEnv(t, dir, "capabilities: execute: \"deny\"\n", "", "")
	priv, keyPath := writeKey(t, dir)
	signFile(t, priv, org)
	os.WriteFile(org, []byte("capabilities: execute: \"allow\"\n"), 0o600) // edited after signing
	out = run(append(env, "GHOSTLIGHT_ORG_KEY="+keyPath))
	if !strings.Contains(out, "signature invalid") {
		t.Errorf("bad signature: %s", out)
	}
}

// TestLivePolicyDeniesAtCallTime: what the layers deny is refused by the
// call's Admit, before the browser is reached; the denied host's server
// receives nothing.
func TestLivePolicyDeniesAtCallTime(t *testing.T) {
	var hits sync.Map
	page := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n, _ := hits.LoadOrStore(r.Host, new(atomic.Int64))
		n.(*atomic.Int64).Add(1)
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprint(w, `<title>Allowed</title><button>Go</button>`)
	}))
	defer page.Close()
	port := page.URL[strings.LastIndexByte(page.URL, ':')+1:]
	dir := shortTempDir(t)
	env := policyEnv(t, dir, "organization: name: \"Acme\"\ncapabilities: execute: \"deny\"\nhosts: allow: [\"127.0.0.1\"]\n", "tabs: preserve: true\n", "")
	s := startPolicy(t, env)
	_, e := s.call(t, "browser_execute", map[string]any{"script": "1+1"})
	if e.Status != surface.StatusBlocked || !strings.Contains(e.Summary, "organization layer") || !strings.Contains(string(e.Facts), `"capability":"execute"`) {
		t.Fatalf("execute under an organization deny: %+v %s", e, e.Facts)
	}
	_, e = s.call(t, "browser_navigate", map[string]any{"url": "http://localhost:" + port + "/"})
	if e.Status != surface.StatusBlocked || !strings.Contains(string(e.Facts), `"reason":"host_denied"`) || !strings.Contains(e.Summary, "organization layer") {
		t.Fatalf("navigate to a host outside the organization's list: %+v %s", e, e.Facts)
	}
	if _, ok := hits.Load("localhost:" + port); ok {
		t.Fatal("the denied host received a request")
	}
	_, e = s.call(t, "browser_navigate", map[string]any{"url": page.URL + "/"})
	if e.Status != surface.StatusSucceeded {
		t.Fatalf("navigate to the allowed host: %+v", e)
	}
	var nav struct {
		Tab string `json:"tab"`
	}
	json.Unmarshal(e.Facts, &nav)
	_, e = s.call(t, "browser_tabs", map[string]any{"action": "close", "tab": nav.Tab})
	if e.Status != surface.StatusBlocked || !strings.Contains(e.Summary, "user layer preserves tabs") {
		t.Fatalf("close under tabs.preserve: %+v", e)
	}
	// policy_explain answers under every authority, even one that allows nothing.
	_, e = s.call(t, "policy_explain", map[string]any{"restrict_capabilities": []string{"execute"}, "restrict_hosts": []string{"nowhere.test"}})
	if e.Status != surface.StatusSucceeded || !strings.Contains(e.Summary, "4 of 4 capabilities are denied") {
		t.Fatalf("policy_explain under a restriction: %+v", e)
	}
}

// TestLivePolicyReloadBetweenCalls: a file edited while a call is in flight
// changes only later calls. The barrier is the test page: the navigate is
// held inside the page's handler while the policy changes and another call
// reads the new authority; released, it finishes under the snapshot it
// started with. A file that becomes invalid keeps the last good authority,
// and policy_explain and the log say so.
func TestLivePolicyReloadBetweenCalls(t *testing.T) {
	arrived, release := make(chan struct{}), make(chan struct{})
	var once sync.Once
	page := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/slow" {
			once.Do(func() { close(arrived) })
			<-release
		}
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprint(w, `<title>Held page</title><p>held</p>`)
	}))
	defer page.Close()
	dir := shortTempDir(t)
	env := policyEnv(t, dir, "", "", "capabilities: execute: \"deny\"\n")
	ws := filepath.Join(dir, "ws.cue")
	s := startPolicy(t, env, "--log-level", "info")

	type result struct{ env surface.Envelope }
	done := make(chan result, 1)
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 40*time.Second)
		defer cancel()
		req := mcp.CallToolRequest{}
		req.Params.Name, req.Params.Arguments = "browser_navigate", map[string]any{"url": page.URL + "/slow", "timeout_ms": 30000}
		res, err := s.c.CallTool(ctx, req)
		var e surface.Envelope
		if err == nil {
			raw, _ := json.Marshal(res.StructuredContent)
			json.Unmarshal(raw, &e)
		}
		done <- result{e}
	}()
	select {
	case <-arrived:
	case <-time.After(30 * time.Second):
		t.Fatalf("the navigate never reached the page\n%s", s.stderr.String())
	}
	if err := os.WriteFile(ws, []byte("capabilities: execute: \"deny\"\nhosts: deny: [\"127.0.0.1\"]\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if f := explainFacts(t, s); !contains(governance.Render(f, nil), "hosts deny: 127.0.0.1 (workspace)") {
		t.Fatalf("the edit was not read by the next call: %+v", f.Hosts)
	}
	close(release)
	held := (<-done).env
	if held.Status != surface.StatusSucceeded || !strings.Contains(string(held.Facts), "/slow") || !strings.Contains(string(held.Facts), "Held page") {
		t.Fatalf("the in-flight navigate did not finish under its own snapshot: %+v %s", held, held.Facts)
	}
	_, e := s.call(t, "browser_navigate", map[string]any{"url": page.URL + "/again"})
	if e.Status != surface.StatusBlocked || !strings.Contains(e.Summary, "workspace layer denies 127.0.0.1") {
		t.Fatalf("a later call ran under the old policy: %+v", e)
	}
	// Invalid: the last good authority (127.0.0.1 denied) stays in force.
	os.WriteFile(ws, []byte("hosts: deny: [\"127.0.0.1\"\n"), 0o600)
	f := explainFacts(t, s)
	if !strings.Contains(f.Note, "the workspace layer is invalid") || !strings.Contains(f.Note, "last good authority stays in force") || strings.Contains(f.Note, dir) {
		t.Fatalf("note %q", f.Note)
	}
	if _, e := s.call(t, "browser_navigate", map[string]any{"url": page.URL + "/again"}); e.Status != surface.StatusBlocked {
		t.Fatalf("an invalid file dropped the last good authority: %+v", e)
	}
	if !strings.Contains(s.stderr.String(), "policy reload refused") || !strings.Contains(s.stderr.String(), ws+":1:") {
		t.Errorf("the log does not say the reload was refused:\n%s", s.stderr.String())
	}
}

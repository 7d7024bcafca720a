//go:build scale

package scale

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// build compiles the shipped binary once.
func build(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "ghostlight")
	cmd := exec.Command("go", "build", "-o", bin, "../../tools/ghostlight")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	return bin
}

// replica is one `ghostlight serve --http` process.
type replica struct {
	name string
	addr string // 127.0.0.1:port
	cmd  *exec.Cmd
	log  *bytes.Buffer
	mu   *sync.Mutex
}

// startReplica starts a replica without a token on loopback: each agent is
// its own principal by its User-Agent and clientInfo (runtime/mcpedge/stateless.go).
func startReplica(t *testing.T, bin, name string) *replica {
	t.Helper()
	r := &replica{name: name, log: &bytes.Buffer{}, mu: &sync.Mutex{}}
	r.cmd = exec.Command(bin, "serve", "--http", "127.0.0.1:0", "--insecure-no-token", "--replica", name, "--log-level", "info")
	// Not t.TempDir: a killed replica's browser may still be writing its
	// profile while the test's cleanup runs.
	tmp, err := os.MkdirTemp("", "ghostlight-scale-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.RemoveAll(tmp) })
	r.cmd.Env = append(os.Environ(), "TMPDIR="+tmp, "XDG_STATE_HOME="+tmp+"/state", "XDG_CONFIG_HOME="+tmp+"/config")
	errOut, err := r.cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := r.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { // SIGTERM: it drains, closes its browser and removes its temp files
		_ = r.cmd.Process.Signal(syscall.SIGTERM)
		done := make(chan struct{})
		go func() { _ = r.cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(30 * time.Second):
			_ = r.cmd.Process.Kill()
			<-done
		}
	})
	addr := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(errOut)
		for sc.Scan() {
			line := sc.Text()
			r.mu.Lock()
			r.log.WriteString(line + "\n")
			r.mu.Unlock()
			if _, u, ok := strings.Cut(line, "url=http://"); ok && strings.Contains(line, "serving MCP over HTTP") {
				addr <- strings.TrimSuffix(strings.Fields(u)[0], "/mcp")
			}
		}
		close(addr)
	}()
	a, ok := <-addr
	if !ok {
		t.Fatalf("replica %s did not start:\n%s", name, r.logText())
	}
	r.addr = a
	return r
}

func (r *replica) logText() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.log.String()
}

// ready waits for the replica's /readyz (its browser started, a context
// made): the scale runs measure calls, not browser launches.
func (r *replica) ready(t *testing.T) {
	t.Helper()
	deadline := time.Now().Add(90 * time.Second)
	for {
		resp, err := http.Get("http://" + r.addr + "/readyz")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == 200 {
				return
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("replica %s never ready:\n%s", r.name, r.logText())
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// haproxyConfig is the configuration the test runs and docs/deployment.md
// shows: a request naming a tab (else a target) goes to the replica the
// handle names, the 3 characters after its underscore; one without goes
// round robin among the ready; a 2025-11-25 session sticks to the replica
// that answered its initialize. A named replica gets its requests even
// while its /readyz fails (option persist: busy, or draining, it still
// serves its workspaces); one that refuses the connection is left for
// another (redispatch), whose other_replica refusal names the lost one.
func haproxyConfig(listen string, replicas []*replica) string {
	var b strings.Builder
	fmt.Fprintf(&b, `global
    maxconn 2000

defaults
    mode http
    timeout connect 1s
    timeout client 60s
    timeout server 60s
    timeout http-keep-alive 10s
    timeout check 6s
    retries 2
    option redispatch
    option persist
    retry-on conn-failure empty-response

frontend mcp
    bind %s
    default_backend ghostlight

backend ghostlight
    balance roundrobin
    option httpchk GET /readyz
    http-check expect status 200
    default-server check inter 2s fall 3 rise 1
    # MCP 2025-11-25: the session id the initialize answer carries pins it.
    stick-table type string len 64 size 100k expire 30m
    stick on req.hdr(Mcp-Session-Id)
    stick store-response res.hdr(Mcp-Session-Id)
    # MCP 2026-07-28: the replica a tab (else target) handle names, mirrored
    # by the client into Mcp-Param-Tab / Mcp-Param-Target (x-mcp-header).
    http-request set-var(txn.replica) req.hdr(Mcp-Param-Tab),field(2,_),bytes(0,3) if { req.hdr(Mcp-Param-Tab) -m found }
    http-request set-var(txn.replica) req.hdr(Mcp-Param-Target),field(2,_),bytes(0,3) if !{ var(txn.replica) -m found } { req.hdr(Mcp-Param-Target) -m found }
    http-response set-header X-Ghostlight-Replica %%[srv_name]
`, listen)
	for _, r := range replicas {
		fmt.Fprintf(&b, "    use-server %s if { var(txn.replica) -m str %s }\n", r.name, r.name)
	}
	for _, r := range replicas {
		fmt.Fprintf(&b, "    server %s %s\n", r.name, r.addr)
	}
	return b.String()
}

// startHAProxy runs haproxy in the foreground with cfg on a free port and
// returns its base URL once it accepts connections.
func startHAProxy(t *testing.T, replicas []*replica) (base, cfg string) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	listen := ln.Addr().String()
	ln.Close()
	cfg = haproxyConfig(listen, replicas)
	path := filepath.Join(t.TempDir(), "haproxy.cfg")
	if err := os.WriteFile(path, []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("haproxy", "-c", "-f", path).CombinedOutput(); err != nil {
		t.Fatalf("haproxy -c: %v\n%s\n%s", err, out, cfg)
	}
	var out bytes.Buffer
	cmd := exec.Command("haproxy", "-db", "-f", path)
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	deadline := time.Now().Add(20 * time.Second)
	for {
		c, err := net.Dial("tcp", listen)
		if err == nil {
			c.Close()
			return "http://" + listen, cfg
		}
		if time.Now().After(deadline) {
			t.Fatalf("haproxy never listened: %s", out.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// agent is one MCP 2026-07-28 client: its own User-Agent and clientInfo,
// so its own principal and workspace on whichever replica it reaches.
type agent struct {
	name string
	c    *http.Client
}

func newAgent(name string) *agent {
	return &agent{name: name, c: &http.Client{Timeout: 90 * time.Second, Transport: &http.Transport{MaxIdleConnsPerHost: 4}}}
}

// envelope is what the test reads of a result.
type envelope struct {
	Status    string         `json:"status"`
	Summary   string         `json:"summary"`
	NextSteps []string       `json:"next_steps"`
	Facts     map[string]any `json:"facts"`
}

func (e envelope) str(k string) string { s, _ := e.Facts[k].(string); return s }

// answer is one call's outcome as the agent saw it.
type answer struct {
	env     envelope
	status  int    // HTTP status
	replica string // X-Ghostlight-Replica (which server HAProxy used)
	took    time.Duration
	err     error
}

// call sends one tools/call to base+/mcp, mirroring tab and target into
// Mcp-Param-Tab and Mcp-Param-Target as the tools declare (x-mcp-header).
func (a *agent) call(base, tool string, args map[string]any) answer {
	raw, _ := json.Marshal(args)
	body := fmt.Sprintf(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":%q,"arguments":%s,"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":%q,"version":"1"}}}}`, tool, raw, a.name)
	req, _ := http.NewRequest(http.MethodPost, base+"/mcp", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("User-Agent", a.name)
	req.Header.Set("Mcp-Protocol-Version", "2026-07-28")
	req.Header.Set("Mcp-Method", "tools/call")
	req.Header.Set("Mcp-Name", tool)
	for k, h := range map[string]string{"tab": "Mcp-Param-Tab", "target": "Mcp-Param-Target"} {
		if v, ok := args[k].(string); ok {
			req.Header.Set(h, v)
		}
	}
	t0 := time.Now()
	resp, err := a.c.Do(req)
	if err != nil {
		return answer{err: err, took: time.Since(t0)}
	}
	b, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	ans := answer{status: resp.StatusCode, replica: resp.Header.Get("X-Ghostlight-Replica"), took: time.Since(t0)}
	if err != nil {
		ans.err = err
		return ans
	}
	text := string(b)
	if i := strings.Index(text, "data: "); i >= 0 {
		text = strings.TrimSpace(strings.SplitN(text[i+len("data: "):], "\n", 2)[0])
	}
	var msg struct {
		Result struct {
			StructuredContent envelope `json:"structuredContent"`
		} `json:"result"`
	}
	if err := json.Unmarshal([]byte(text), &msg); err != nil || msg.Result.StructuredContent.Status == "" {
		ans.err = fmt.Errorf("HTTP %d: %.300s", resp.StatusCode, b)
		return ans
	}
	ans.env = msg.Result.StructuredContent
	return ans
}

// targetNamed is the target of the item named name in an inspect result.
func targetNamed(e envelope, name string) string {
	items, _ := e.Facts["items"].([]any)
	for _, it := range items {
		if m, _ := it.(map[string]any); m["name"] == name {
			s, _ := m["target"].(string)
			return s
		}
	}
	return ""
}

// replicaOf is the replica a handle names (3 characters after "_").
func replicaOf(h string) string {
	_, rest, _ := strings.Cut(h, "_")
	if len(rest) < 3 {
		return ""
	}
	return rest[:3]
}

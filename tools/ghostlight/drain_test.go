package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// httpServer is the built binary serving MCP over HTTP, its stderr read
// line by line.
type httpServer struct {
	cmd   *exec.Cmd
	url   string // http://127.0.0.1:port
	lines chan string
	log   strings.Builder
}

// startHTTP starts `ghostlight serve --http 127.0.0.1:0` with token and
// waits for the line saying where it listens.
func startHTTP(t *testing.T, tmp, token string, args ...string) *httpServer {
	t.Helper()
	s := &httpServer{lines: make(chan string, 256)}
	s.cmd = exec.Command(binary(t), append([]string{"serve", "--http", "127.0.0.1:0", "--log-level", "info"}, args...)...)
	s.cmd.Env = append(os.Environ(), "TMPDIR="+tmp, "GHOSTLIGHT_TOKEN="+token)
	errOut, err := s.cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := s.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.cmd.Process.Kill(); _ = s.cmd.Wait() })
	go func() {
		sc := bufio.NewScanner(errOut)
		for sc.Scan() {
			s.lines <- sc.Text()
		}
		close(s.lines)
	}()
	line := s.await(t, "ghostlight serving MCP over HTTP")
	_, u, _ := strings.Cut(line, "url=")
	s.url = strings.TrimSuffix(strings.Fields(u)[0], "/mcp")
	return s
}

// await reads stderr until a line containing want, and returns it.
func (s *httpServer) await(t *testing.T, want string) string {
	t.Helper()
	for line := range s.lines {
		s.log.WriteString(line + "\n")
		if strings.Contains(line, want) {
			return line
		}
	}
	t.Fatalf("stderr ended before %q:\n%s", want, s.log.String())
	return ""
}

// rest adds what stderr still says (until it ends, at most d) to the log.
func (s *httpServer) rest(d time.Duration) {
	end := time.After(d)
	for {
		select {
		case line, ok := <-s.lines:
			if !ok {
				return
			}
			s.log.WriteString(line + "\n")
		case <-end:
			return
		}
	}
}

// send sends one MCP message and returns the status and body.
func (s *httpServer) send(token, body string, modern bool, tool string) (int, []byte, error) {
	req, _ := http.NewRequest(http.MethodPost, s.url+"/mcp", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Authorization", "Bearer "+token)
	if modern {
		req.Header.Set("Mcp-Protocol-Version", "2026-07-28")
		req.Header.Set("Mcp-Method", "tools/call")
		req.Header.Set("Mcp-Name", tool)
		var m struct {
			Params struct{ Arguments struct{ Tab, Target string } }
		}
		_ = json.Unmarshal([]byte(body), &m)
		// What a client mirrors of the x-mcp-header fields (SEP-2243).
		if m.Params.Arguments.Tab != "" {
			req.Header.Set("Mcp-Param-Tab", m.Params.Arguments.Tab)
		}
		if m.Params.Arguments.Target != "" {
			req.Header.Set("Mcp-Param-Target", m.Params.Arguments.Target)
		}
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, b, nil
}

const modernMeta = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"t","version":"1"}}`

type callResult struct {
	Status string `json:"status"`
	Facts  struct {
		Tab    string `json:"tab"`
		Reason string `json:"reason"`
	} `json:"facts"`
}

// call sends one 2026-07-28 tools/call and returns its envelope.
func (s *httpServer) call(t *testing.T, token, tool, args string) callResult {
	t.Helper()
	r, err := s.try(token, tool, args)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// try is call for a goroutine other than the test's: a failure is its
// error, so the test can report it instead of waiting for an answer that
// never comes.
func (s *httpServer) try(token, tool, args string) (callResult, error) {
	st, b, err := s.send(token, fmt.Sprintf(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":%q,"arguments":%s,%s}}`, tool, args, modernMeta), true, tool)
	if err != nil {
		return callResult{}, fmt.Errorf("%s: %v", tool, err)
	}
	body := string(b)
	if i := strings.Index(body, "data: "); i >= 0 { // an SSE answer
		body = strings.TrimSpace(strings.SplitN(body[i+6:], "\n", 2)[0])
	}
	var res struct {
		Result struct {
			StructuredContent callResult `json:"structuredContent"`
		} `json:"result"`
	}
	if err := json.Unmarshal([]byte(body), &res); err != nil || res.Result.StructuredContent.Status == "" {
		return callResult{}, fmt.Errorf("%s: %d %q: %v", tool, st, b, err)
	}
	return res.Result.StructuredContent, nil
}

// TestSigtermDrains: the shipped binary, with its own Chromium, gets SIGTERM
// while a navigate is held by its page: a new session is refused 503 with
// Retry-After, /readyz is 503 and /healthz 200, the held call still
// answers succeeded, and then the server exits 0 leaving nothing in its
// TMPDIR (the browser's profile and temp directories went with it).
func TestSigtermDrains(t *testing.T) {
	arrived, release := make(chan struct{}, 1), make(chan struct{})
	hangs := 0 // requests for /hang; the browser should make one
	var hmu sync.Mutex
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/hang" {
			hmu.Lock()
			hangs++
			hmu.Unlock()
			select { // a second request must not wait on a reader that is gone
			case arrived <- struct{}{}:
			default:
			}
			<-release
		}
		fmt.Fprint(w, `<!doctype html><title>t</title><p>hello</p>`)
	}))
	defer site.Close()
	defer func() {
		select {
		case <-release:
		default:
			close(release)
		}
	}()
	tmp := t.TempDir()
	s := startHTTP(t, tmp, "tok")
	nav := s.call(t, "tok", "browser_navigate", fmt.Sprintf(`{"url":%q,"timeout_ms":30000}`, site.URL+"/"))
	if nav.Status != "succeeded" {
		t.Fatalf("navigate: %+v\n%s", nav, s.log.String())
	}
	type answer struct {
		r   callResult
		err error
	}
	held := make(chan answer, 1)
	go func() {
		r, err := s.try("tok", "browser_navigate", fmt.Sprintf(`{"tab":%q,"url":%q,"timeout_ms":30000}`, nav.Facts.Tab, site.URL+"/hang"))
		held <- answer{r, err}
	}()
	select {
	case <-arrived:
	case a := <-held:
		t.Fatalf("the call answered before its page did: %+v %v", a.r, a.err)
	}
	if err := s.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	s.await(t, "draining: new workspaces are refused")
	initialize := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`
	req, _ := http.NewRequest(http.MethodPost, s.url+"/mcp", strings.NewReader(initialize))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Authorization", "Bearer tok")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 503 || resp.Header.Get("Retry-After") == "" {
		t.Errorf("a new session while draining: %d, Retry-After %q", resp.StatusCode, resp.Header.Get("Retry-After"))
	}
	for path, want := range map[string]int{"/readyz": 503, "/healthz": 200} {
		r, err := http.Get(s.url + path)
		if err != nil {
			t.Fatal(err)
		}
		r.Body.Close()
		if r.StatusCode != want {
			t.Errorf("%s while draining: %d, want %d", path, r.StatusCode, want)
		}
	}
	close(release)
	// Bounded: the call has timeout_ms 30000, the drain drain_ms 20000.
	select {
	case a := <-held:
		if a.err != nil || a.r.Status != "succeeded" {
			hmu.Lock()
			n := hangs
			hmu.Unlock()
			s.rest(5 * time.Second)
			t.Errorf("the call in flight at SIGTERM: %+v %v (the page was asked %d times)\n%s", a.r, a.err, n, s.log.String())
		}
	case <-time.After(60 * time.Second):
		t.Fatalf("the call in flight at SIGTERM never answered\n%s", s.log.String())
	}
	s.await(t, "drained finished=true")
	for range s.lines {
	}
	if err := s.cmd.Wait(); err != nil {
		t.Fatalf("exit: %v\n%s", err, s.log.String())
	}
	entries, _ := os.ReadDir(tmp)
	for _, e := range entries {
		if !strings.HasPrefix(e.Name(), "leakless-") { // rod's shared helper cache
			t.Errorf("left in TMPDIR: %s", e.Name())
		}
	}
}

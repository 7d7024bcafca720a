package conformance

import (
	"context"
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

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
)

// uploadSite serves a page whose file input says how many bytes it read.
func uploadSite(t *testing.T) string {
	page := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprint(w, `<title>Upload</title><label>Doc <input type="file" onchange="document.getElementById('out').textContent = 'page read ' + this.files[0].size + ' bytes'"></label><p id="out">nothing yet</p>`)
	}))
	t.Cleanup(page.Close)
	return page.URL + "/"
}

// rootsDirs makes two directories, each with one file of its own size.
func rootsDirs(t *testing.T) (a, b, fileA, fileB string) {
	a, b = t.TempDir(), t.TempDir()
	fileA, fileB = filepath.Join(a, "a.txt"), filepath.Join(b, "b.txt")
	os.WriteFile(fileA, []byte("aaaaa"), 0o600)
	os.WriteFile(fileB, []byte("bbbbbbb"), 0o600)
	return
}

// TestLiveUploadReadsTheClientsRoots over stdio: the client's MCP roots are
// asked for once, bound the files browser_upload reads, and are asked for
// again after notifications/roots/list_changed.
func TestLiveUploadReadsTheClientsRoots(t *testing.T) {
	url := uploadSite(t)
	dirA, dirB, fileA, fileB := rootsDirs(t)
	var mu sync.Mutex
	shared, asked := dirA, 0
	c := startRawStdio(t, []string{"TMPDIR=" + shortTempDir(t)})
	c.onRequest = func(method string) any {
		mu.Lock()
		defer mu.Unlock()
		if method != "roots/list" {
			t.Errorf("server asked %s", method)
		}
		asked++
		return map[string]any{"roots": []any{map[string]any{"uri": "file://" + shared, "name": "project"}}}
	}
	c.initialize(map[string]any{"roots": map[string]any{"listChanged": true}})
	if r := c.call("browser_navigate", map[string]any{"url": url}); r.StructuredContent.Status != "succeeded" {
		t.Fatalf("navigate: %s", r.Raw)
	}
	upload := func(path string) rawResult {
		t.Helper()
		return c.call("browser_upload", map[string]any{"paths": []string{path}})
	}
	if r := upload(fileA); r.StructuredContent.Status != "succeeded" {
		t.Fatalf("a file in the client's root: %s", r.Raw)
	}
	if r := c.call("browser_read", map[string]any{}); !strings.Contains(string(r.Raw), "page read 5 bytes") {
		t.Fatalf("the page did not read the file: %s", r.Raw)
	}
	r := upload(fileB)
	if r.StructuredContent.Status != "blocked" || r.StructuredContent.Facts.Reason != string(surface.ReasonPathDenied) || r.StructuredContent.Facts.Limit != "mcp_roots" ||
		strings.Contains(string(r.Raw), dirB) || strings.Contains(string(r.Raw), "b.txt") {
		t.Fatalf("a file outside the client's roots: %s", r.Raw)
	}
	mu.Lock()
	if asked != 1 {
		t.Fatalf("roots asked %d times for two uploads", asked)
	}
	shared = dirB
	mu.Unlock()
	// mcp-go handles a notification on its reader before the next request:
	// once the ping is answered, the change has been taken.
	c.send(map[string]any{"jsonrpc": "2.0", "method": "notifications/roots/list_changed"})
	c.request("ping", nil)
	if r := upload(fileB); r.StructuredContent.Status != "succeeded" {
		t.Fatalf("after the roots changed: %s", r.Raw)
	}
	if r := upload(fileA); r.StructuredContent.Facts.Reason != string(surface.ReasonPathDenied) {
		t.Fatalf("the old root still admits: %s", r.Raw)
	}
}

type staticRoots struct{ dir string }

func (s staticRoots) ListRoots(context.Context, mcp.ListRootsRequest) (*mcp.ListRootsResult, error) {
	return &mcp.ListRootsResult{Roots: []mcp.Root{{URI: "file://" + s.dir, Name: "project"}}}, nil
}

// TestLiveUploadRootsOverHTTP: a client listening on its GET stream is
// asked for its roots there; one without the stream cannot answer, and
// after roots_request_ms the server's working directory applies.
func TestLiveUploadRootsOverHTTP(t *testing.T) {
	url := uploadSite(t)
	dirA, _, fileA, fileB := rootsDirs(t)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	const token = "roots-token"
	cmd := exec.Command(serverBinary(t), "serve", "--http", addr, "--token", token)
	cmd.Env = append(os.Environ(), "TMPDIR="+shortTempDir(t))
	cmd.Dir = filepath.Dir(fileB) // the working directory: b's
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { cmd.Process.Signal(os.Interrupt); cmd.Wait() }()
	for try := 0; ; try++ { // the server is still starting
		if conn, err := net.Dial("tcp", addr); err == nil {
			conn.Close()
			break
		}
		if try == 100 {
			t.Fatal("the server does not listen")
		}
		time.Sleep(100 * time.Millisecond)
	}
	connect := func(listen bool) *liveServer {
		opts := []transport.StreamableHTTPCOption{transport.WithHTTPHeaders(map[string]string{"Authorization": "Bearer " + token})}
		if listen {
			//lint:ignore SA1019 a 2025-11-25 client with a standalone GET stream is exactly the case under test
			opts = append(opts, transport.WithContinuousListening())
		}
		tr, err := transport.NewStreamableHTTP("http://"+addr+"/mcp", opts...)
		if err != nil {
			t.Fatal(err)
		}
		c := client.NewClient(tr, client.WithRootsHandler(staticRoots{dirA}))
		init := mcp.InitializeRequest{}
		init.Params.ProtocolVersion = "2025-06-18"
		init.Params.ClientInfo = mcp.Implementation{Name: "conformance", Version: "1"}
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if err := c.Start(context.Background()); err != nil { // the GET stream lives as long as this context
			t.Fatal(err)
		}
		if _, err := c.Initialize(ctx, init); err != nil {
			t.Fatalf("initialize: %v", err)
		}
		t.Cleanup(func() { c.Close() })
		return &liveServer{c: c}
	}
	for _, listen := range []bool{true, false} {
		s := connect(listen)
		s.call(t, "browser_navigate", map[string]any{"url": url})
		allowed, denied := fileA, fileB
		if !listen {
			allowed, denied = fileB, fileA
		}
		if _, env := s.call(t, "browser_upload", map[string]any{"paths": []string{allowed}}); env.Status != surface.StatusSucceeded {
			t.Fatalf("listening %v: %+v", listen, env)
		}
		_, env := s.call(t, "browser_upload", map[string]any{"paths": []string{denied}})
		want := "mcp_roots"
		if !listen {
			want = "working_directory"
		}
		if env.Status != surface.StatusBlocked || !strings.Contains(string(env.Facts), `"limit":"`+want+`"`) {
			t.Fatalf("listening %v: %+v", listen, env)
		}
	}
}

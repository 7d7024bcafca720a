package conformance

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
)

// startStdioIn starts the binary over stdio with the given TMPDIR and hands back the
// process, so a test can kill it and start another server on the same TMPDIR.
func startStdioIn(t *testing.T, tmp string, args ...string) (*liveServer, *exec.Cmd) {
	t.Helper()
	stderr := &lockedWriter{w: &bytes.Buffer{}}
	var cmd *exec.Cmd
	spawn := func(ctx context.Context, command string, env, args []string) (*exec.Cmd, error) {
		cmd = exec.Command(command, args...)
		cmd.Env = append(os.Environ(), env...)
		return cmd, nil
	}
	c, err := client.NewStdioMCPClientWithOptions(serverBinary(t), []string{"TMPDIR=" + tmp}, append([]string{"serve"}, args...),
		transport.WithCommandStderrWriter(stderr), transport.WithCommandFunc(spawn))
	if err != nil {
		t.Fatal(err)
	}
	return initialized(t, c, tmp, stderr), cmd
}

// ghostlightEntries lists what of Ghostlight's a directory holds: every ghostlight-*
// entry, and Chromium's own singleton dirs a browser would make there.
func ghostlightEntries(dir string) []string {
	var out []string
	ents, _ := os.ReadDir(dir)
	for _, e := range ents {
		if strings.HasPrefix(e.Name(), "ghostlight-") || strings.HasPrefix(e.Name(), "org.chromium.") {
			out = append(out, e.Name())
		}
	}
	sort.Strings(out)
	return out
}

// TestLeavesNothingBehindAfterSIGKILL: a server that made every kind of temp
// directory (browser profile, the browser's short TMPDIR, upload staging, a session's
// download directory) is killed with SIGKILL; the next server on the same TMPDIR
// sweeps them all at its start, before any browser, and after it has started and
// stopped TMPDIR holds nothing of Ghostlight's.
func TestLeavesNothingBehindAfterSIGKILL(t *testing.T) {
	page := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/file" {
			w.Header().Set("Content-Disposition", `attachment; filename="kept.bin"`)
			w.Write(bytes.Repeat([]byte("x"), 1<<20))
			return
		}
		fmt.Fprint(w, `<title>Leftovers</title><label>Attachment <input type="file"></label> <a href="/file">Get the file</a>`)
	}))
	defer page.Close()
	tmp := shortTempDir(t)
	t.Cleanup(func() { killUnder(t, tmp) })

	s, cmd := startStdioIn(t, tmp, "--allow-downloads")
	if _, env := s.call(t, "browser_navigate", map[string]any{"url": page.URL + "/"}); env.Status != surface.StatusSucceeded {
		t.Fatalf("navigate: %+v", env)
	}
	if _, env := s.call(t, "browser_upload", map[string]any{"selector": map[string]any{"name": "Attachment"},
		"files": []any{map[string]any{"name": "note.txt", "data_base64": "aGVsbG8="}}}); env.Status != surface.StatusSucceeded {
		t.Fatalf("upload: %+v", env)
	}
	if _, env := s.call(t, "browser_click", map[string]any{"selector": map[string]any{"name": "Get the file"}}); !strings.Contains(string(env.Facts), `"completed"`) {
		t.Fatalf("download: %+v %s", env, env.Facts)
	}
	made := ghostlightEntries(tmp)
	for _, kind := range []string{"ghostlight-chromium-", "ghostlight-t", "ghostlight-stage-", "ghostlight-dl-"} {
		found := false
		for _, e := range made {
			found = found || strings.HasPrefix(e, kind)
		}
		if !found {
			t.Fatalf("the first server made no %s* dir under its TMPDIR: %v", kind, made)
		}
	}
	stage, _ := filepath.Glob(filepath.Join(tmp, "ghostlight-stage-*", "upload-*"))
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	cmd.Wait()
	if left := ghostlightEntries(tmp); len(left) != len(made) {
		t.Fatalf("before the next server: %v (made %v)", left, made)
	}

	s2, cmd2 := startStdioIn(t, tmp)
	// The sweep runs before the server answers initialize: nothing of the killed
	// server's is left, and the new server made only its own staging.
	for _, e := range ghostlightEntries(tmp) {
		if !strings.HasPrefix(e, "ghostlight-stage-") {
			t.Fatalf("after the next server's start: %v", ghostlightEntries(tmp))
		}
		for _, m := range made {
			if m == e {
				t.Fatalf("the killed server's %s survived the next server's start", e)
			}
		}
	}
	s2.c.Close() // stdin EOF: the server stops
	done := make(chan error, 1)
	go func() { done <- cmd2.Wait() }()
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		t.Fatalf("the second server did not stop\n%s", s2.stderr.String())
	}
	if left := ghostlightEntries(tmp); len(left) != 0 {
		t.Fatalf("TMPDIR still holds %v", left)
	}
	t.Logf("killed server left %d dirs (%v, %d staged uploads); the next server's start removed them and its stop its own; TMPDIR empty of Ghostlight's", len(made), made, len(stage))
}

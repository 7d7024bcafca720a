//go:build linux

package conformance

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
)

// elsewhereChromium starts a Chromium that cannot read the server's files in
// hide, as one on another host or in a container cannot. As root it runs as
// another user (nobody), to whom the server's 0600 files and 0700
// directories are closed; otherwise it runs in a user and mount namespace of
// its own with an empty file system mounted over each of hide. It returns
// its DevTools websocket URL.
func elsewhereChromium(t *testing.T, hide ...string) string {
	t.Helper()
	bin := "/usr/lib/chromium/chromium" // the real binary behind Debian's wrapper
	if _, err := os.Stat(bin); err != nil {
		bin = "/usr/bin/chromium"
	}
	base, err := os.MkdirTemp("/tmp", "gle")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(base) })
	const nobody = 65534
	for _, d := range []string{"profile", "home", "tmp", "xdg"} {
		if err := os.Mkdir(filepath.Join(base, d), 0o700); err != nil {
			t.Fatal(err)
		}
	}
	if os.Geteuid() == 0 {
		if err := filepath.Walk(base, func(p string, _ os.FileInfo, err error) error {
			if err != nil {
				return err
			}
			return os.Chown(p, nobody, nobody)
		}); err != nil {
			t.Fatal(err)
		}
	}
	profile := filepath.Join(base, "profile")
	args := []string{"--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
		"--remote-debugging-port=0", "--user-data-dir=" + profile, "about:blank"}
	cmd := exec.Command(bin, args...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Credential: &syscall.Credential{Uid: nobody, Gid: nobody}}
	if os.Geteuid() != 0 {
		// mount each hidden directory over with an empty tmpfs, then run Chromium.
		script := `for d in "$@"; do [ "$d" = -- ] && break; mount -t tmpfs tmpfs "$d" || exit 97; done; while [ "$1" != -- ]; do shift; done; shift; exec "$@"`
		cmd = exec.Command("unshare", append(append(append([]string{"--user", "--map-root-user", "--mount", "--propagation", "private", "sh", "-c", script, "sh"}, hide...), "--", bin), args...)...)
		cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	}
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + filepath.Join(base, "home"), "TMPDIR=" + filepath.Join(base, "tmp"),
		"XDG_CONFIG_HOME=" + filepath.Join(base, "xdg")}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan struct{})
	go func() { _ = cmd.Wait(); close(exited) }()
	t.Cleanup(func() { _ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL); <-exited })
	for deadline := time.Now().Add(30 * time.Second); ; {
		raw, _ := os.ReadFile(filepath.Join(profile, "DevToolsActivePort"))
		if p, wsPath, ok := strings.Cut(strings.TrimSpace(string(raw)), "\n"); ok {
			if _, err := strconv.Atoi(p); err == nil {
				return "ws://127.0.0.1:" + p + wsPath
			}
		}
		if time.Now().After(deadline) {
			t.Fatal("the browser did not listen")
		}
		select {
		case <-exited:
			t.Fatalf("the browser exited (%v); without root this test needs unprivileged user namespaces (unshare --user --map-root-user --mount)", cmd.ProcessState)
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// uploadPage reports what its file input got and what was dropped on its
// zone: each file's name, size and text.
const uploadPage = `<title>upload</title><body style="margin:0">
<div id=zone style="width:300px;height:100px;background:#ddd">drop here</div>
<input type=file multiple aria-label="Attachments">
<p id=picked>-</p><p id=dropped>-</p>
<script>
const list = async fs => { const out = []; for (const f of fs) out.push(f.name + ":" + f.size + ":" + (await f.text()).slice(0, 40)); return out.join("|"); };
document.querySelector("input").addEventListener("change", async e => { document.getElementById("picked").textContent = "picked " + await list(e.target.files); });
const zone = document.getElementById("zone");
zone.addEventListener("dragover", e => e.preventDefault());
zone.addEventListener("drop", async e => { e.preventDefault(); document.getElementById("dropped").textContent = "dropped " + await list(e.dataTransfer.files); });
</script></body>`

// TestUploadToABrowserElsewhere: attached to a browser that cannot open the
// server's paths, browser_upload hands it the bytes instead. A file by path
// (readable by the server only) and inline files reach the page with their
// names, sizes and contents, and a captured image dropped on a zone arrives
// as a file of the capture's size. Handing paths, the page got empty files.
func TestUploadToABrowserElsewhere(t *testing.T) {
	work, tmp := shortTempDir(t), shortTempDir(t)
	endpoint := elsewhereChromium(t, work, tmp)
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	site := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, uploadPage)
	})}
	go site.Serve(l)
	t.Cleanup(func() { site.Close() })

	// The server's working directory (its default upload root) holds a file
	// only the server may read.
	secret := filepath.Join(work, "notes.txt")
	if err := os.WriteFile(secret, []byte("server-side notes"), 0o600); err != nil {
		t.Fatal(err)
	}
	stderr := &lockedWriter{w: &bytes.Buffer{}}
	spawn := func(ctx context.Context, command string, env, args []string) (*exec.Cmd, error) {
		cmd := exec.Command(command, args...)
		cmd.Env, cmd.Dir = append(os.Environ(), env...), work
		return cmd, nil
	}
	c, err := client.NewStdioMCPClientWithOptions(serverBinary(t), []string{"TMPDIR=" + tmp}, []string{"serve", "--browser-endpoint", endpoint},
		transport.WithCommandStderrWriter(stderr), transport.WithCommandFunc(spawn))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	s := initialized(t, c, tmp, stderr)
	must := func(tool string, args map[string]any) surface.Envelope {
		t.Helper()
		_, env := s.call(t, tool, args)
		if env.Status != surface.StatusSucceeded {
			t.Fatalf("%s: %s %s", tool, env.Summary, env.Facts)
		}
		return env
	}
	waitText := func(text string) {
		t.Helper()
		must("browser_wait", map[string]any{"condition": "text_present", "value": text, "timeout_ms": 5000})
	}
	must("browser_navigate", map[string]any{"url": "http://" + l.Addr().String() + "/"})

	env := must("browser_upload", map[string]any{"selector": map[string]any{"name": "Attachments"}, "paths": []string{secret}})
	if !strings.Contains(string(env.Facts), `"uploaded_bytes":17`) {
		t.Fatalf("upload by path: %s", env.Facts)
	}
	waitText("picked notes.txt:17:server-side notes")

	inline := []map[string]any{
		{"name": "a.txt", "data_base64": base64.StdEncoding.EncodeToString([]byte("alpha"))},
		{"name": "b.csv", "data_base64": base64.StdEncoding.EncodeToString([]byte("1,2,3"))},
	}
	must("browser_upload", map[string]any{"selector": map[string]any{"name": "Attachments"}, "files": inline})
	waitText("picked a.txt:5:alpha|b.csv:5:1,2,3")

	shot := must("browser_screenshot", map[string]any{})
	var view struct {
		View string `json:"view"`
	}
	if err := json.Unmarshal(shot.Facts, &view); err != nil || view.View == "" {
		t.Fatalf("screenshot: %s", shot.Facts)
	}
	must("browser_upload", map[string]any{"source_image": view.View, "view": view.View, "x": 150, "y": 50})
	waitText("dropped capture.png:")
}

package browser

import (
	"bytes"
	"errors"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// paddedDir makes a directory under parent whose absolute path is exactly n bytes,
// ending in the given path elements (padded in the middle one).
func paddedDir(t *testing.T, parent string, n int, head, tail string) string {
	t.Helper()
	fixed := len(parent) + len(head) + len(tail)
	if fixed >= n {
		t.Fatalf("cannot make a %d-byte path under %s", n, parent)
	}
	p := parent + head + strings.Repeat("y", n-fixed) + tail
	if err := os.MkdirAll(p, 0o700); err != nil {
		t.Fatal(err)
	}
	if len(p) != n {
		t.Fatalf("made %d bytes, want %d", len(p), n)
	}
	return p
}

// TestLaunchWithLongTempDir launches under a 90-byte TMPDIR and under a macOS-shaped
// one (/var/folders/xx/…/T of 49 bytes). Before the browser got its own short TMPDIR,
// Chromium aborted in both ("Socket path too long") on macOS, and in the first here.
func TestLaunchWithLongTempDir(t *testing.T) {
	short, err := os.MkdirTemp("", "glm")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(short) })
	cases := []struct {
		name   string
		dir    string
		viaEnv bool // TMPDIR itself, else Config.TempDir
	}{
		{"tmpdir-90", paddedDir(t, t.TempDir(), 90, "/", ""), true},
		{"macos-shaped-49", paddedDir(t, short, 49, "/var/folders/zz/", "/T"), false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			cfg := testConfig()
			if tc.viaEnv {
				t.Setenv("TMPDIR", tc.dir)
			} else {
				cfg.TempDir = tc.dir
			}
			b := New(cfg)
			defer b.Close()
			ws := b.Workspace("long")
			tab := openTab(t, ws, pageURL("longtmp"))
			if got := eval(t, tab, "document.title"); got != "longtmp" {
				t.Fatalf("title %q", got)
			}
			c := liveConn(t, b)
			root, tmp := c.proc.root, c.proc.dirs[1].Path()
			if filepath.Dir(root) != tc.dir {
				t.Fatalf("the profile belongs under the temp dir %s, is at %s", tc.dir, root)
			}
			// Chromium's own socket is there, and short enough.
			socks, _ := filepath.Glob(filepath.Join(tmp, "org.chromium.Chromium.*", "SingletonSocket"))
			if len(socks) != 1 {
				t.Fatalf("want one singleton socket under %s, got %v", tmp, socks)
			}
			if len(socks[0]) > maxSocketPath() {
				t.Fatalf("socket path of %d bytes: %s", len(socks[0]), socks[0])
			}
			if err := b.Close(); err != nil {
				t.Fatal(err)
			}
			for _, d := range []string{root, tmp} {
				if exists(d) {
					t.Fatalf("%s left after Close", d)
				}
			}
		})
	}
}

// syncBuffer is a log sink tests read while the executor writes.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// failLaunch starts cfg's browser through a workspace call and returns the LaunchError
// and the log.
func failLaunch(t *testing.T, cfg Config) (*LaunchError, string) {
	t.Helper()
	var logs syncBuffer
	cfg.Logger = slog.New(slog.NewTextHandler(&logs, nil))
	cfg.TempDir = t.TempDir()
	b := New(cfg)
	defer b.Close()
	_, err := b.Workspace("fail").Open(ctxT(t, 40*time.Second), pageURL("never"), OpenOptions{})
	wantKind(t, err, KindLaunchFailed)
	var le *LaunchError
	if !errors.As(err, &le) {
		t.Fatalf("want a LaunchError, got %v", err)
	}
	b.Close()
	if left, _ := filepath.Glob(filepath.Join(cfg.TempDir, "ghostlight-*")); len(left) != 0 {
		t.Fatalf("a failed launch left %v", left)
	}
	return le, logs.String()
}

// TestLaunchFailureNamesBrowserError makes the real Chromium fail (a visible window with
// no display): the log's launch line and the error carry Chromium's own line, and the
// cause says what to change.
func TestLaunchFailureNamesBrowserError(t *testing.T) {
	for _, v := range []string{"DISPLAY", "WAYLAND_DISPLAY"} {
		t.Setenv(v, "")
		os.Unsetenv(v)
	}
	cfg := testConfig()
	cfg.Headless = false
	le, logs := failLaunch(t, cfg)
	const said = "Missing X server or $DISPLAY"
	if !strings.Contains(le.Line, said) || strings.Contains(le.Line, "dbus") {
		t.Fatalf("first error line %q", le.Line)
	}
	if !strings.Contains(le.Cause, said) || !strings.Contains(le.Cause, "headless") {
		t.Fatalf("cause %q", le.Cause)
	}
	if !strings.Contains(logs, `msg="`+LaunchFailedLog+`"`) || !strings.Contains(logs, said) {
		t.Fatalf("log lacks the launch line with Chromium's error:\n%s", logs)
	}
}

// TestLaunchFailureFakeBrowser: a browser of someone's own (a script) that prints noise
// and an error, then exits: its line is the one reported, the noise is not.
func TestLaunchFailureFakeBrowser(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "fakebrowser")
	script := `#!/bin/sh
echo "[1:2:0101/000000.000000:ERROR:dbus/bus.cc:405] Failed to connect to the bus: nothing here" >&2
echo "fakebrowser: cannot open the profile lock: read-only file system" >&2
exit 3
`
	if err := os.WriteFile(bin, []byte(script), 0o700); err != nil {
		t.Fatal(err)
	}
	cfg := testConfig()
	cfg.Path = bin
	le, logs := failLaunch(t, cfg)
	const said = "fakebrowser: cannot open the profile lock: read-only file system"
	if le.Line != said || le.Bin != bin {
		t.Fatalf("line %q from %s", le.Line, le.Bin)
	}
	if le.Cause != `it exited saying "`+said+`"` {
		t.Fatalf("cause %q", le.Cause)
	}
	if !strings.Contains(logs, `msg="`+LaunchFailedLog+`"`) || !strings.Contains(logs, `browser_error="`+said+`"`) {
		t.Fatalf("log lacks the launch line with the browser's error:\n%s", logs)
	}
}

func TestFirstErrorLine(t *testing.T) {
	for _, tc := range []struct{ out, want string }{
		{"", ""},
		{"[1:1:0101/0:ERROR:dbus/bus.cc:405] Failed to connect to the bus\n[1:1:0101/0:FATAL:process_singleton_posix.cc:315] Socket path too long: /x\n",
			"[1:1:0101/0:FATAL:process_singleton_posix.cc:315] Socket path too long: /x"},
		{"hello\nerror: no such thing\n", "error: no such thing"},
		{"just talking\n", "just talking"},
		{"[1:1:0101/0:ERROR:dbus/bus.cc:405] Failed\n", ""},
	} {
		if got := firstErrorLine(tc.out); got != tc.want {
			t.Fatalf("firstErrorLine(%q) = %q, want %q", tc.out, got, tc.want)
		}
	}
	if got := BrowserSaid("[1:1:0101/0:FATAL:process_singleton_posix.cc:315] Socket path too long: /x."); got != "Socket path too long: /x" {
		t.Fatalf("BrowserSaid: %q", got)
	}
}

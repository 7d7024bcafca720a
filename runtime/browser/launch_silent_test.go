//go:build linux

package browser

import (
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// silentBrowser writes a browser of someone's own (a script) whose first
// silent starts never answer on the DevTools pipe (they sleep holding it);
// later starts run the real Chromium. It returns the script and a func that
// reports the starts made and the pids of the silent ones.
func silentBrowser(t *testing.T, silent int) (string, func() (int, []int)) {
	t.Helper()
	found := FindBrowsers("")
	if len(found) == 0 {
		t.Fatal("no Chromium installed")
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "silentbrowser")
	script := fmt.Sprintf(`#!/bin/sh
n=$(cat %[1]s/count 2>/dev/null || echo 0); n=$((n+1)); echo $n > %[1]s/count
if [ $n -le %[2]d ]; then echo $$ >> %[1]s/silent; exec sleep 600; fi
exec %[3]s "$@"
`, dir, silent, found[0].Path)
	if err := os.WriteFile(bin, []byte(script), 0o700); err != nil {
		t.Fatal(err)
	}
	return bin, func() (int, []int) {
		b, _ := os.ReadFile(filepath.Join(dir, "count"))
		n, _ := strconv.Atoi(strings.TrimSpace(string(b)))
		var pids []int
		s, _ := os.ReadFile(filepath.Join(dir, "silent"))
		for _, f := range strings.Fields(string(s)) {
			p, _ := strconv.Atoi(f)
			pids = append(pids, p)
		}
		return n, pids
	}
}

func gone(t *testing.T, pids []int) {
	t.Helper()
	for _, p := range pids {
		if err := syscall.Kill(p, 0); err == nil {
			t.Fatalf("the silent start %d still runs", p)
		}
	}
}

// (Linux: the pipe launch is where a silent start is told.)

// A start that never answers on its pipe is killed once its hello window
// passes, and a fresh browser takes its place within the launch's bound (once
// seen in CI: a start silent for the whole 30 s).
func TestLaunchReplacesASilentStart(t *testing.T) {
	bin, starts := silentBrowser(t, 1)
	var logs syncBuffer
	cfg := testConfig()
	cfg.Path = bin
	cfg.TempDir = t.TempDir()
	cfg.Logger = slog.New(slog.NewTextHandler(&logs, nil))
	cfg.HelloTimeout = 3 * time.Second
	b := New(cfg)
	defer b.Close()
	res, err := b.Workspace("w").Open(ctxT(t, 40*time.Second), pageURL("after-silence"), OpenOptions{})
	if err != nil {
		t.Fatalf("open after a silent start: %v\n%s", err, logs.String())
	}
	if res.Tab == nil {
		t.Fatal("no tab")
	}
	n, silent := starts()
	if n < 2 || len(silent) != 1 {
		t.Fatalf("starts %d, silent %v", n, silent)
	}
	gone(t, silent)
	if !strings.Contains(logs.String(), "browser start went silent") {
		t.Fatalf("no log line for the replaced start:\n%s", logs.String())
	}
	// The silent start's profile went with it: one profile dir, the live one's.
	if dirs, _ := filepath.Glob(filepath.Join(cfg.TempDir, ProfilePrefix+"*")); len(dirs) != 1 {
		t.Fatalf("profile dirs %v", dirs)
	}
}

// A browser that never answers is given as many hello windows as fit in the
// launch's bound, then refused with what it did, leaving nothing behind.
func TestLaunchRefusesABrowserThatStaysSilent(t *testing.T) {
	bin, starts := silentBrowser(t, 1000)
	cfg := testConfig()
	cfg.Path = bin
	// Three windows fit in the bound, with half a window of slack for the
	// starts themselves on a loaded machine.
	cfg.HelloTimeout = time.Second
	cfg.LaunchTimeout = 3500 * time.Millisecond
	le, logs := failLaunch(t, cfg)
	n, silent := starts()
	if n != 3 || len(silent) != 3 {
		t.Fatalf("starts %d, silent %v", n, silent)
	}
	gone(t, silent)
	if want := "the browser did not answer on its DevTools pipe within 1s, 3 times"; le.Cause != want {
		t.Fatalf("cause %q, want %q", le.Cause, want)
	}
	if strings.Count(logs, "browser start went silent") != 2 {
		t.Fatalf("want two replaced starts logged:\n%s", logs)
	}
}

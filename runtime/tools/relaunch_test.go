package tools

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
	"github.com/ghostlight-dev/ghostlight/runtime/language"
)

// TestRelaunchIsSaid kills the package's Chromium under a session's tab: the
// next call relaunches it and its summary says so, once.
func TestRelaunchIsSaid(t *testing.T) {
	h := newHarness(t)
	srv := site(t, map[string]string{"/": `<title>R</title><p>x</p>`})
	h.must("browser_navigate", `{"url":`+quote(srv.URL+"/")+`,"reuse":"never"}`)
	pid := browserPID(t)
	if err := killPID(pid); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for testBrowser.Connected() && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
	}
	r := h.call("browser_tabs", `{"action":"list"}`)
	if !strings.HasPrefix(r.Envelope.Summary, language.RelaunchNote) {
		t.Fatalf("first call after the crash does not say so: %s", r.JSON)
	}
	r = h.call("browser_tabs", `{"action":"list"}`)
	if strings.Contains(r.Envelope.Summary, language.RelaunchNote) || r.Envelope.Status != surface.StatusSucceeded {
		t.Fatalf("relaunch said twice, or the browser is not back: %s", r.JSON)
	}
}

// browserPID finds the package's main Chromium process (the one whose
// command line names a Ghostlight profile and is not a child process type).
func browserPID(t *testing.T) int {
	entries, _ := os.ReadDir("/proc")
	self := strconv.Itoa(os.Getpid())
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		cmd, _ := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		stat, _ := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		exe, _ := os.Readlink(filepath.Join("/proc", e.Name(), "exe"))
		if strings.Contains(filepath.Base(exe), "chrom") && bytes.Contains(cmd, []byte("ghostlight-chromium-")) && !bytes.Contains(cmd, []byte("--type=")) && !bytes.Contains(stat, []byte(") Z ")) {
			if ppid := parentOf(stat); ppid == self || descendsFrom(ppid, self) {
				return pid
			}
		}
	}
	t.Fatal("Chromium process of this test binary not found")
	return 0
}

func parentOf(stat []byte) string {
	f := strings.Fields(string(stat[bytes.LastIndexByte(stat, ')')+1:]))
	if len(f) > 1 {
		return f[1]
	}
	return ""
}

func descendsFrom(pid, ancestor string) bool {
	for i := 0; i < 8 && pid != "" && pid != "1" && pid != "0"; i++ {
		if pid == ancestor {
			return true
		}
		stat, err := os.ReadFile(filepath.Join("/proc", pid, "stat"))
		if err != nil {
			return false
		}
		pid = parentOf(stat)
	}
	return false
}

// killPID kills a process outright (SIGKILL on Unix), portably.
func killPID(pid int) error {
	p, err := os.FindProcess(pid)
	if err != nil {
		return err
	}
	return p.Kill()
}

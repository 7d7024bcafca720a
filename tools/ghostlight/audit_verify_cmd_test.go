package main

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
	"github.com/ghostlight-dev/ghostlight/runtime/audit"
)

// chainedAudit writes 200 lines through rotations at the smallest size,
// keeping 3 rotated files: rotation removes older files, leaving tombstones.
func chainedAudit(t *testing.T) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "audit.jsonl")
	w := audit.Open(audit.Config{Path: p, MaxBytes: surface.AuditMaxBytesMin, Keep: 3}, nil)
	defer w.Close()
	for i := 1; i <= 200; i++ {
		r := audit.Record{Time: time.Date(2026, 5, 1, 10, 0, i, 0, time.UTC), Invocation: fmt.Sprintf("inv_%d", i), Workspace: "s",
			Tool: "browser_click", Capabilities: []string{"action"}, Decision: audit.DecisionAllow, Hosts: []string{}, Status: "succeeded", Effect: "applied", Policy: "sha256:x"}
		if err := w.Write(r); err != nil {
			t.Fatal(err)
		}
	}
	return p
}

// verifyBinary runs `ghostlight audit verify PATH` and returns its exit
// status, stdout and stderr.
func verifyBinary(t *testing.T, path string) (int, string, string) {
	t.Helper()
	cmd := exec.Command(binary(t), "audit", "verify", path)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return ee.ExitCode(), out.String(), errOut.String()
	}
	if err != nil {
		t.Fatal(err)
	}
	return 0, out.String(), errOut.String()
}

// TestAuditVerifyCommand: the shipped binary passes a clean chain across
// rotations (the removed files accounted for by their tombstones), and
// exits non-zero naming the file and line of an edited line, a deleted
// line and a deleted file.
func TestAuditVerifyCommand(t *testing.T) {
	p := chainedAudit(t)
	code, out, _ := verifyBinary(t, p)
	if code != 0 || !strings.Contains(out, "chain intact") || !strings.Contains(out, "rotated away as configured: file ") || !strings.Contains(out, "4 files") {
		t.Fatalf("clean chain: exit %d\n%s", code, out)
	}
	t.Logf("clean:\n%s", out)

	edit := func(name string, fn func([]string) []string) {
		b, _ := os.ReadFile(name)
		ls := strings.SplitAfter(string(b), "\n")
		os.WriteFile(name, []byte(strings.Join(fn(ls[:len(ls)-1]), "")), 0o600)
	}
	for _, c := range []struct {
		what, file string
		fn         func([]string) []string
		want       string
	}{
		{"an edited line", ".2", func(ls []string) []string {
			ls[4] = strings.Replace(ls[4], `"effect":"applied"`, `"effect":"none"`, 1)
			return ls
		}, "BROKEN audit.jsonl.2:5: line 5"},
		{"a deleted line", "", func(ls []string) []string { return append(ls[:3:3], ls[4:]...) }, "(gap)"},
		{"a deleted file", ".1", nil, "(missing_file)"},
	} {
		p := chainedAudit(t)
		if c.fn == nil {
			os.Remove(p + c.file)
		} else {
			edit(p+c.file, c.fn)
		}
		code, out, errOut := verifyBinary(t, p)
		if code == 0 || !strings.Contains(out, c.want) || !strings.Contains(errOut, "the audit chain is broken") {
			t.Fatalf("%s: exit %d\n%s%s", c.what, code, out, errOut)
		}
		t.Logf("%s: exit %d: %s", c.what, code, strings.Split(out, "\n")[len(strings.Split(out, "\n"))-4:])
	}
}

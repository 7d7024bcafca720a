package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestDemoCommand: `ghostlight demo` on the built binary starts itself as a
// stdio server, drives the demo session on real Chromium, prints one line
// per call and saves a PNG screenshot; it exits 0 only when every call
// succeeded.
func TestDemoCommand(t *testing.T) {
	bin := binary(t)
	out := filepath.Join(t.TempDir(), "shots")
	cmd := exec.Command(bin, "demo", "--out", out)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("ghostlight demo: %v\n%s\n%s", err, stdout.String(), stderr.String())
	}
	for _, tool := range []string{"browser_navigate", "browser_inspect", "browser_find", "browser_read", "browser_screenshot"} {
		if !strings.Contains(stdout.String(), tool+" ") || !strings.Contains(stdout.String(), "succeeded") {
			t.Errorf("the demo's output has no succeeded %s line:\n%s", tool, stdout.String())
		}
	}
	png, err := os.ReadFile(filepath.Join(out, "screenshot.png"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(png, []byte("\x89PNG\r\n\x1a\n")) {
		t.Fatalf("screenshot.png is not a PNG (%d bytes)", len(png))
	}
}

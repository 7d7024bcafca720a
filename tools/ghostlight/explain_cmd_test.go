package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestPolicyAudit: the layers' audit settings reach the audit, and
// --audit-path cannot move the audit away from a path a layer fixed.
func TestPolicyAudit(t *testing.T) {
	dir := t.TempDir()
	ws := filepath.Join(dir, "ws.cue")
	os.WriteFile(ws, []byte("audit: {path: \"/var/log/gl/audit.jsonl\", keep: 7}\n"), 0o600)
	t.Setenv("GHOSTLIGHT_ORG_POLICY", "")
	t.Setenv("GHOSTLIGHT_USER_POLICY", "")
	t.Setenv("GHOSTLIGHT_ORG_KEY", "")
	t.Setenv("GHOSTLIGHT_WORKSPACE_POLICY", ws)
	l, err := loadPolicy("", "", false, nil)
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := policyAudit(l.Current(), "")
	if err != nil || cfg.Path != "/var/log/gl/audit.jsonl" || cfg.Keep != 7 || cfg.MaxBytes != 0 {
		t.Fatalf("audit config %+v %v", cfg, err)
	}
	if _, err := policyAudit(l.Current(), "/tmp/elsewhere.jsonl"); err == nil || !strings.Contains(err.Error(), "workspace layer sets ("+ws+":1:9)") {
		t.Fatalf("a different --audit-path: %v", err)
	}
	var out bytes.Buffer
	if err := explain([]string{"--startup", "manual"}, &out); err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{"startup: manual (command-line)  [--startup manual]", "setting audit.keep: 7 (workspace)  [" + ws + ":1:42]", "file workspace: " + ws} {
		if !strings.Contains(out.String(), w) {
			t.Errorf("explain lacks %q:\n%s", w, out.String())
		}
	}
}

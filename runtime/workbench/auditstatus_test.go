package workbench_test

import (
	"encoding/json"
	"os/exec"
	"strings"
	"testing"
)

// chattr sets or clears the immutable flag: writes through the server's
// open audit descriptor then fail with EPERM (the tests run as root, so
// chmod would not make the file unwritable).
func chattr(t *testing.T, flag, path string) {
	t.Helper()
	if out, err := exec.Command("chattr", flag, path).CombinedOutput(); err != nil {
		t.Fatalf("chattr %s: %v %s", flag, err, out)
	}
}

// TestWorkbenchShowsTheAuditDown: with the audit file made unwritable under
// the running server, a call fails to write its line, and the person's page
// shows a banner naming the cause and what is refused; once the file is
// writable again the banner goes.
func TestWorkbenchShowsTheAuditDown(t *testing.T) {
	agent := mcpClient(t, nil)
	call(t, agent, "policy_explain", map[string]any{}) // the audit file exists
	p := personPage(t)
	status := func() string {
		_, body := get(t, entered(t), "/workbench/api/status")
		var s struct{ Audit string }
		json.Unmarshal([]byte(body), &s)
		return s.Audit
	}
	if s := status(); s != "" {
		t.Fatalf("status while writable: %q", s)
	}
	chattr(t, "+i", env.auditPath)
	t.Cleanup(func() { chattr(t, "-i", env.auditPath) })
	// policy_explain answers; its line cannot be written.
	if r := call(t, agent, "policy_explain", map[string]any{}); r.Status != "succeeded" || !strings.Contains(r.Summary, "held in memory") {
		t.Fatalf("policy_explain with the audit down: %+v", r)
	}
	s := status()
	if !strings.Contains(s, "permission is denied") || !strings.Contains(s, "operation not permitted") || !strings.Contains(s, "reads and navigations still run") {
		t.Fatalf("status while down: %q", s)
	}
	eventually(t, "the banner shown", func() bool {
		return strings.Contains(text(t, p, `() => { const b = document.getElementById('audit-banner'); return b.hidden ? '' : b.textContent }`), "The audit log cannot be written: permission is denied")
	})
	chattr(t, "-i", env.auditPath)
	if s := status(); s != "" {
		t.Fatalf("status once writable again: %q", s)
	}
	eventually(t, "the banner gone", func() bool {
		return text(t, p, `() => String(document.getElementById('audit-banner').hidden)`) == "true"
	})
}

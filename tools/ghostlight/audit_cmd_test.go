package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
	"github.com/ghostlight-dev/ghostlight/runtime/audit"
)

// writeAudit fills an audit file past several rotations: 120 lines, tools
// and statuses alternating, every tenth a step of the one before.
func writeAudit(t *testing.T) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "audit.jsonl")
	w := audit.Open(audit.Config{Path: p, MaxBytes: surface.AuditMaxBytesMin, Keep: surface.AuditKeepMax}, nil)
	defer w.Close()
	for i := 1; i <= 120; i++ {
		r := audit.Record{Time: time.Date(2026, 5, 1, 10, 0, i, 0, time.UTC), Invocation: fmt.Sprintf("inv_%d", i),
			Workspace: fmt.Sprintf("sess%d", i%2), Tool: "browser_read", Capabilities: []string{"read"},
			Decision: audit.DecisionAllow, Hosts: []string{"127.0.0.1:8080"}, Status: "succeeded", Effect: "none", DurationMS: 2.5, Policy: "sha256:x"}
		if i%3 == 0 {
			r.Tool, r.Branch, r.Capabilities, r.Status, r.Reason, r.Decision, r.Layer = "browser_click", "target", []string{"action"}, "blocked", "capability_denied", audit.DecisionDeny, "organization"
		}
		if i%10 == 0 {
			r.Parent = fmt.Sprintf("inv_%d", i-1)
		}
		if err := w.Write(r); err != nil {
			t.Fatal(err)
		}
	}
	if files, _ := audit.Files(p); len(files) < 3 {
		t.Fatalf("only %d files: the test must read rotated files", len(files))
	}
	return p
}

func runAudit(t *testing.T, args ...string) string {
	t.Helper()
	var out bytes.Buffer
	if err := auditCmd(args, &out); err != nil {
		t.Fatalf("audit %v: %v", args, err)
	}
	return out.String()
}

func TestAuditCommandTable(t *testing.T) {
	p := writeAudit(t)
	out := runAudit(t, "--audit-path", p)
	rows := strings.Split(strings.TrimSpace(out), "\n")
	if len(rows) != 21 || !strings.HasPrefix(rows[0], "TIME") || !strings.Contains(rows[20], "inv_120 (step of inv_119)") ||
		!strings.Contains(rows[1], "inv_101") {
		t.Fatalf("default tail:\n%s", out)
	}
	for _, want := range []string{"browser_click target", "deny (organization)", "blocked (capability_denied)", "127.0.0.1:8080", "2.5", "sess1"} {
		if !strings.Contains(out, want) {
			t.Fatalf("table lacks %q:\n%s", want, out)
		}
	}

	// -n 0 reads every file, oldest first.
	all := strings.Split(strings.TrimSpace(runAudit(t, "--audit-path", p, "-n", "0")), "\n")
	if len(all) != 121 || !strings.Contains(all[1], "inv_1 ") {
		t.Fatalf("-n 0: %d rows, first %q", len(all), all[1])
	}
}

func TestAuditCommandFiltersAndJSON(t *testing.T) {
	p := writeAudit(t)
	out := runAudit(t, "--audit-path", p, "--json", "-n", "5", "--session", "sess0", "--tool", "browser_click", "--status", "blocked")
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 5 {
		t.Fatalf("%d JSON lines:\n%s", len(lines), out)
	}
	for i, l := range lines {
		var r audit.Record
		if err := json.Unmarshal([]byte(l), &r); err != nil {
			t.Fatalf("line %d is not JSON: %q", i, l)
		}
		if r.Workspace != "sess0" || r.Tool != "browser_click" || r.Status != "blocked" {
			t.Fatalf("filter let through %+v", r)
		}
	}
	// i%2==0 and i%3==0: multiples of 6; the last five are 90…114 … 120 → 96,102,108,114,120.
	if !strings.Contains(lines[0], `"inv_96"`) || !strings.Contains(lines[4], `"inv_120"`) {
		t.Fatalf("wrong lines:\n%s", out)
	}
	if got := runAudit(t, "--audit-path", p, "--tool", "browser_nothing"); !strings.Contains(got, "No audit lines match") {
		t.Fatalf("empty result: %q", got)
	}
	var sink bytes.Buffer
	if err := auditCmd([]string{"--audit-path", p, "-n", "-1"}, &sink); err == nil {
		t.Fatal("-n -1 accepted")
	}
	if err := auditCmd([]string{"--audit-path", p, "extra"}, &sink); err == nil {
		t.Fatal("a stray argument accepted")
	}
}

// TestAuditWouldDenySummary: --would-deny counts what monitor-mode layers
// would have refused, by reason and layer, over every line by default.
func TestAuditWouldDenySummary(t *testing.T) {
	p := filepath.Join(t.TempDir(), "audit.jsonl")
	w := audit.Open(audit.Config{Path: p}, nil)
	for i := 0; i < 30; i++ {
		r := audit.Record{Time: time.Date(2026, 5, 1, 10, 0, i, 0, time.UTC), Invocation: fmt.Sprintf("inv_%d", i), Workspace: "s",
			Tool: "browser_navigate", Capabilities: []string{"read"}, Decision: audit.DecisionAllow, Hosts: []string{}, Status: "succeeded", Effect: "applied", Policy: "sha256:x"}
		switch {
		case i%3 == 0:
			r.WouldDeny = []audit.WouldDeny{{Reason: "host_denied", Layer: "organization", Host: "bank.example"}}
		case i%5 == 1:
			r.Tool = "browser_execute"
			r.WouldDeny = []audit.WouldDeny{{Reason: "capability_denied", Layer: "organization", Capability: "execute"}, {Reason: "data_flow_denied", Layer: "organization", From: "https://crm.example"}}
		}
		if err := w.Write(r); err != nil {
			t.Fatal(err)
		}
	}
	w.Close()
	out := runAudit(t, "--audit-path", p, "--would-deny")
	lines := strings.Split(strings.TrimSpace(out), "\n")
	// host_denied on i = 0,3,...,27 (10); the execute pair on i = 1,11,16,26
	// (i%5 == 1 but not a multiple of 3: 4).
	if len(lines) != 5 || !strings.HasPrefix(lines[0], "14 of 30 calls") || !strings.HasPrefix(lines[2], "host_denied") ||
		!strings.Contains(lines[2], " 10 ") || !strings.Contains(out, "browser_execute") {
		t.Fatalf("summary:\n%s", out)
	}
	for _, l := range lines[3:] {
		if !strings.Contains(l, " 4 ") {
			t.Errorf("row %q: want 4 decisions", l)
		}
	}
	if out := runAudit(t, "--audit-path", writeAudit(t), "--would-deny"); !strings.HasPrefix(out, "No would-deny decisions in 120 audit lines") {
		t.Fatalf("no monitor layer:\n%s", out)
	}
}

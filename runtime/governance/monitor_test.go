package governance

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
)

func loadLayers(t *testing.T, org, workspace string) (*Authority, error) {
	t.Helper()
	dir := t.TempDir()
	var files []File
	for _, l := range []struct{ layer, body string }{{surface.PolicyLayerOrganization, org}, {surface.PolicyLayerWorkspace, workspace}} {
		if l.body == "" {
			continue
		}
		p := filepath.Join(dir, l.layer+".cue")
		if err := os.WriteFile(p, []byte(l.body), 0o600); err != nil {
			t.Fatal(err)
		}
		files = append(files, File{Layer: l.layer, Path: p, Explicit: true})
	}
	a, _, err := load(Config{Files: files})
	return a, err
}

// TestMonitorLayerNotesInsteadOfRefusing: a monitor layer's capability,
// host, address and constraint refusals are noted on the watch and the
// checks pass; an enforcing layer below still refuses.
func TestMonitorLayerNotesInsteadOfRefusing(t *testing.T) {
	a, err := loadLayers(t, `mode: "monitor"
capabilities: execute: "deny"
hosts: {deny: ["bank.example"], addresses: deny: ["10.0.0.0/8"]}
tabs: close: "deny"`, `hosts: deny: ["shop.example"]`)
	if err != nil {
		t.Fatal(err)
	}
	w := a.Watched()
	if r := w.AdmitCapability(surface.CapabilityExecute); r != nil {
		t.Errorf("execute refused: %+v", r)
	}
	if r := w.AdmitURL("https://bank.example/x"); r != nil {
		t.Errorf("bank refused: %+v", r)
	}
	if r := w.AdmitHost("10.1.2.3"); r != nil {
		t.Errorf("10.1.2.3 refused: %+v", r)
	}
	if r := w.AdmitConstraint("tab_close"); r != nil {
		t.Errorf("tab close refused: %+v", r)
	}
	if r := w.AdmitURL("https://bank.example/again"); r != nil {
		t.Errorf("bank refused: %+v", r)
	}
	if r := w.AdmitURL("https://shop.example/"); r == nil || r.Layer != surface.PolicyLayerWorkspace {
		t.Errorf("the enforcing workspace layer did not refuse: %+v", r)
	}
	got := w.WouldDenied()
	want := []surface.WouldDeny{
		{Reason: surface.ReasonCapabilityDenied, Layer: "organization", Capability: surface.CapabilityExecute},
		{Reason: surface.ReasonHostDenied, Layer: "organization", Host: "bank.example"},
		{Reason: surface.ReasonHostDenied, Layer: "organization", Host: "10.1.2.3"},
		{Reason: surface.ReasonConstraintDenied, Layer: "organization"},
	}
	if len(got) != len(want) {
		t.Fatalf("would deny %+v, want %+v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("would deny %d: %+v, want %+v", i, got[i], want[i])
		}
	}
	if a.WouldDenied() != nil {
		t.Error("the configured authority holds a call's notes")
	}
	ex := a.Explain()
	if !strings.Contains(ex.Situation, "organization layer is in monitor mode") {
		t.Errorf("situation: %s", ex.Situation)
	}
	for _, c := range ex.Capabilities {
		if !c.Allowed {
			t.Errorf("explain says %s is denied; the monitor layer refuses nothing", c.Capability)
		}
	}
}

// TestEnforceForbidsMonitorBelow: an organization that sets mode: enforce
// forbids monitor in the layers below; without it, they may monitor.
func TestEnforceForbidsMonitorBelow(t *testing.T) {
	if _, err := loadLayers(t, `mode: "enforce"`, `mode: "monitor"`); err == nil || !strings.Contains(err.Error(), "mode") {
		t.Fatalf("monitor under enforce: %v", err)
	}
	if _, err := loadLayers(t, `hosts: deny: ["x.example"]`, `mode: "monitor"`); err != nil {
		t.Fatal(err)
	}
}

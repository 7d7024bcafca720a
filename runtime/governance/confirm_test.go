package governance

import (
	"os"
	"strings"
	"testing"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
)

// TestConfirmActionMatchesWholeWords: names match case-insensitively on
// whole, consecutive words; a role, when named, must be the control's.
func TestConfirmActionMatchesWholeWords(t *testing.T) {
	for _, c := range []struct {
		action, role, name string
		want               bool
	}{
		{"place order", "button", "Place order", true},
		{"place order", "link", "PLACE ORDER now", true},
		{"place order", "button", "Place your order", false},
		{"send", "button", "Send", true},
		{"send", "button", "Sender settings", false},
		{"send", "button", "Resend code", false},
		{"delete", "button", "Delete account…", true},
		{"button: delete", "link", "Delete", false},
		{"button: delete", "button", "delete", true},
		{"remove account", "menuitem", "Remove-account", true},
		{"pay", "button", "Payment", false},
		{"note: to self", "button", "note to self", true}, // "note" is no role: part of the name
	} {
		if got := ParseConfirmAction(c.action).Matches(c.role, c.name); got != c.want {
			t.Errorf("%q on %s %q: %v, want %v", c.action, c.role, c.name, got, c.want)
		}
	}
}

// TestConfirmLayersAddAndSitesScope: defaults, a layer's own actions, a
// site entry's on its pages only, submit hosts and downloads; a monitor
// layer notes instead; a lower layer cannot turn a higher layer's off.
func TestConfirmLayersAddAndSitesScope(t *testing.T) {
	a, err := loadLayers(t, `confirm: defaults: true
sites: "*.bank.example": confirm: {actions: ["button: approve"], submit_to: ["pay.example"]}`,
		`confirm: {actions: ["archive"], downloads: true}`)
	if err != nil {
		t.Fatal(err)
	}
	if r := a.ConfirmAction("https://shop.example/", "button", "Place order"); r == nil || r.Reason != surface.ReasonActionConfirm || r.Layer != "organization" {
		t.Fatalf("default: %+v", r)
	}
	if r := a.ConfirmAction("https://shop.example/", "button", "Archive"); r == nil || r.Layer != "workspace" {
		t.Fatalf("workspace action: %+v", r)
	}
	if r := a.ConfirmAction("https://shop.example/", "button", "Approve"); r != nil {
		t.Fatalf("site action off its site: %+v", r)
	}
	if r := a.ConfirmAction("https://www.bank.example/", "button", "Approve"); r == nil || !strings.Contains(r.Message, "*.bank.example") {
		t.Fatalf("site action: %+v", r)
	}
	if r := a.ConfirmSubmit("https://www.bank.example/", "https://pay.example/go"); r == nil {
		t.Fatal("submit on the site: nil")
	}
	if r := a.ConfirmSubmit("https://shop.example/", "https://pay.example/go"); r != nil {
		t.Fatalf("submit off the site: %+v", r)
	}
	if r := a.ConfirmDownload("https://shop.example/"); r == nil || r.Layer != "workspace" {
		t.Fatalf("download: %+v", r)
	}
	if r := a.ConfirmAction("https://shop.example/", "button", "Save"); r != nil {
		t.Fatalf("save: %+v", r)
	}
	if got := strings.Join(a.Confirmations(), "|"); !strings.Contains(got, `action "place order" (organization)`) || !strings.Contains(got, "submission to pay.example on *.bank.example (organization)") || !strings.Contains(got, "downloads (workspace)") {
		t.Fatalf("confirmations: %s", got)
	}
	// Narrowing: a lower layer may not turn defaults or downloads off.
	if _, err := loadLayers(t, `confirm: defaults: true`, `confirm: defaults: false`); err == nil {
		t.Fatal("defaults turned off below")
	}
	if _, err := loadLayers(t, `confirm: downloads: true`, `confirm: downloads: false`); err == nil {
		t.Fatal("downloads turned off below")
	}
	// Monitor: noted, not asked.
	m, err := loadLayers(t, `mode: "monitor"
confirm: defaults: true`, "")
	if err != nil {
		t.Fatal(err)
	}
	m = m.Watched()
	if r := m.ConfirmAction("https://shop.example/", "button", "Buy now"); r != nil {
		t.Fatalf("monitor asked: %+v", r)
	}
	if w := m.WouldDenied(); len(w) != 1 || w[0].Reason != surface.ReasonActionConfirm {
		t.Fatalf("would_deny: %+v", w)
	}
}

// BenchmarkConfirmAction: one click's check under defaults and a site
// entry (prints ns/op; no assertion on time).
func BenchmarkConfirmAction(b *testing.B) {
	dir := b.TempDir()
	p := dir + "/org.cue"
	if err := writeFile(p, `confirm: defaults: true
sites: "*.bank.example": confirm: {actions: ["button: approve"], submit_to: ["pay.example"]}`); err != nil {
		b.Fatal(err)
	}
	a, _, err := load(Config{Files: []File{{Layer: surface.PolicyLayerOrganization, Path: p, Explicit: true}}})
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if a.ConfirmAction("https://shop.example/cart", "button", "Save for later") != nil {
			b.Fatal("matched")
		}
	}
}

func writeFile(p, s string) error { return os.WriteFile(p, []byte(s), 0o600) }

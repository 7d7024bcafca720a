package governance

import (
	"strings"
	"testing"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
)

// TestSiteRulesNarrowOnTheirPagesOnly: a sites entry denies its
// capabilities on pages its pattern matches, any spelling of the host
// included, and nowhere else; its data_flow applies to writes to its
// sites; policy_explain states per capability where it differs.
func TestSiteRulesNarrowOnTheirPagesOnly(t *testing.T) {
	a, err := loadLayers(t, `sites: {
	"*.bank.example": {capabilities: {write: "deny", execute: "deny"}, data_flow: cross_site: "deny"}
	"127.0.0.2": {capabilities: read: "deny"}
}`, `sites: "shop.example": capabilities: action: "deny"`)
	if err != nil {
		t.Fatal(err)
	}
	w := surface.CapsOf([]string{"write"})
	ex := surface.CapsOf([]string{"execute"})
	rd := surface.CapsOf([]string{"read"})
	for _, c := range []struct {
		url   string
		need  surface.Caps
		layer string
	}{
		{"https://www.bank.example/pay", w, "organization"},
		{"https://online.bank.example/", ex, "organization"},
		{"https://WWW.Bank.Example:443/", w, "organization"},
		{"http://127.0.0.2:8080/", rd, "organization"},
		{"http://2130706434/", rd, "organization"},
		{"https://shop.example/", surface.CapsOf([]string{"action"}), "workspace"},
	} {
		r := a.AdmitSite(c.url, c.need)
		if r == nil || r.Reason != surface.ReasonCapabilityDenied || r.Layer != c.layer {
			t.Errorf("%s: %+v", c.url, r)
		}
	}
	for _, c := range []struct {
		url  string
		need surface.Caps
	}{
		{"https://www.bank.example/", rd},
		{"https://bank.example/", w}, // *. is subdomains only, as in hosts.allow
		{"https://notbank.example/", w},
		{"http://127.0.0.1/", rd},
		{"https://shop.example/", w},
	} {
		if r := a.AdmitSite(c.url, c.need); r != nil {
			t.Errorf("%s: refused %+v", c.url, r)
		}
	}
	if d, l := a.DataFlow("https://crm.example", "https://bank.example"); d != FlowDeny || l != "organization" {
		t.Errorf("flow to the bank: %s by %s", d, l)
	}
	if d, _ := a.DataFlow("https://crm.example", "https://mail.example"); d != FlowLog {
		t.Errorf("flow elsewhere: %s", d)
	}
	e := a.Explain()
	for _, line := range e.Capabilities {
		want := map[surface.Capability]string{"write": "*.bank.example (organization)", "execute": "*.bank.example (organization)", "read": "127.0.0.2 (organization)", "action": "shop.example (workspace)"}[line.Capability]
		if !line.Allowed || strings.Join(line.DeniedOn, ",") != want {
			t.Errorf("explain %s: allowed %v denied_on %v, want %q", line.Capability, line.Allowed, line.DeniedOn, want)
		}
	}
	if !strings.Contains(e.Situation, "write is denied on pages of *.bank.example (organization)") {
		t.Errorf("situation: %s", e.Situation)
	}
	if lines := strings.Join(Render(e, nil), "\n"); !strings.Contains(lines, "capability write: denied on pages of *.bank.example (organization)") {
		t.Errorf("rendered:\n%s", lines)
	}
	if _, err := loadLayers(t, `sites: "*.127.0.0.1": capabilities: read: "deny"`, ""); err == nil || !strings.Contains(err.Error(), "sites") {
		t.Errorf("a key that is no pattern: %v", err)
	}
	if _, err := loadLayers(t, `sites: "a.example": capabilities: fly: "deny"`, ""); err == nil {
		t.Error("an unknown setting in an entry loaded")
	}
}

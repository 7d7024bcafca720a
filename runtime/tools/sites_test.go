package tools

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
)

// TestSiteRulesLive: per-site rules on real Chromium. A workspace layer
// denies execute and write on pages of 127.0.0.2 and read (so navigation)
// on 127.0.0.3: there, those calls are refused before they reach the page
// (the site's server sees none of their requests); the same calls on
// 127.0.0.1, and an action on 127.0.0.2, run; policy_explain says per
// capability where it differs.
func TestSiteRulesLive(t *testing.T) {
	a, b, c := newFlowSite(t, "127.0.0.1"), newFlowSite(t, "127.0.0.2"), newFlowSite(t, "127.0.0.3")
	h := workspaceHarness(t, "", `sites: {
	"127.0.0.2": capabilities: {execute: "deny", write: "deny"}
	"127.0.0.3": capabilities: read: "deny"
}`)
	refused := func(what string, r flowResult, capb string) {
		t.Helper()
		var f struct{ Reason, Capability, Layer, Host string }
		var env struct {
			Facts json.RawMessage `json:"facts"`
		}
		_ = json.Unmarshal([]byte(r.raw), &env)
		_ = json.Unmarshal(env.Facts, &f)
		if r.status != surface.StatusBlocked || f.Reason != "capability_denied" || f.Capability != capb || f.Layer != "workspace" || !strings.Contains(r.raw, "on pages of 127.0.0.") {
			t.Errorf("%s: %s", what, r.raw)
		}
	}
	beacon := `{"script":"fetch('/beacon-x').then(r => r.status)"}`
	h.must("browser_navigate", `{"url":`+quote(a.base+"/sink")+`}`)
	h.must("browser_execute", beacon)
	h.must("browser_fill_form", `{"fields":[{"selector":{"name":"Full name","role":"textbox"},"value":"Ada"}]}`)
	if !a.received("/beacon-x") {
		t.Fatal("the script did not run on the unruled site")
	}
	h.must("browser_navigate", `{"url":`+quote(b.base+"/sink")+`}`)
	refused("execute on 127.0.0.2", result(h, "browser_execute", beacon), "execute")
	if b.received("/beacon-x") {
		t.Error("the refused script ran")
	}
	refused("fill_form on 127.0.0.2", result(h, "browser_fill_form", `{"fields":[{"selector":{"name":"Full name","role":"textbox"},"value":"Ada"}]}`), "write")
	h.must("browser_type_text", `{"selector":{"name":"Message","role":"textbox"},"text":"hello"}`) // action is allowed there
	refused("navigate to 127.0.0.3", result(h, "browser_navigate", `{"url":`+quote(c.base+"/sink")+`}`), "read")
	if c.received("/sink") {
		t.Error("the refused navigation reached 127.0.0.3")
	}
	var ex struct {
		Situation    string
		Capabilities []struct {
			Capability string
			Allowed    bool
			DeniedOn   []string `json:"denied_on"`
		}
	}
	h.facts(h.must("policy_explain", `{}`), &ex)
	for _, l := range ex.Capabilities {
		want := map[string]string{"execute": "127.0.0.2 (workspace)", "write": "127.0.0.2 (workspace)", "read": "127.0.0.3 (workspace)"}[l.Capability]
		if !l.Allowed || strings.Join(l.DeniedOn, ",") != want {
			t.Errorf("explain %s: %+v, want denied_on %q", l.Capability, l, want)
		}
	}
	if !strings.Contains(ex.Situation, "execute is denied on pages of 127.0.0.2 (workspace)") {
		t.Errorf("situation: %s", ex.Situation)
	}
}

package governance

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
)

func pair(t *testing.T, s string) flowPair {
	t.Helper()
	p, err := parseFlowException(s)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestDecideFlow(t *testing.T) {
	crm, mail, bank := "https://crm.example", "https://mail.example", "https://bank.example"
	org := flowRule{layer: "organization", crossSite: FlowLog}
	user := flowRule{layer: "user", crossSite: FlowDeny, allow: []flowPair{pair(t, "*.crm.example -> *.mail.example")}}
	cases := []struct {
		name         string
		rules        []flowRule
		from, to     string
		want, layerW string
	}{
		{"nobody sets it: the default", nil, crm, mail, FlowLog, "default"},
		{"one layer logs", []flowRule{org}, crm, bank, FlowLog, "organization"},
		{"the narrower layer wins", []flowRule{org, user}, crm, bank, FlowDeny, "user"},
		{"an exception lifts its own layer only", []flowRule{org, user}, crm, mail, FlowLog, "organization"},
		{"an exception in the only deciding layer allows", []flowRule{user}, crm, mail, FlowAllow, "user"},
		{"exceptions have a direction", []flowRule{user}, mail, crm, FlowDeny, "user"},
		{"a higher deny holds over a lower exception", []flowRule{{layer: "organization", crossSite: FlowDeny}, user}, crm, mail, FlowDeny, "organization"},
		{"confirm is narrower than log", []flowRule{org, {layer: "user", crossSite: FlowConfirm}}, crm, bank, FlowConfirm, "user"},
		{"deny is narrower than confirm", []flowRule{{layer: "organization", crossSite: FlowConfirm}, {layer: "user", crossSite: FlowDeny}}, crm, bank, FlowDeny, "user"},
		{"allow everywhere", []flowRule{{layer: "workspace", crossSite: FlowAllow}}, crm, mail, FlowAllow, "workspace"},
	}
	for _, c := range cases {
		d, l, _ := decideFlow(c.rules, FlowLog, c.from, c.to)
		if d != c.want || l != c.layerW {
			t.Errorf("%s: %s by %s, want %s by %s", c.name, d, l, c.want, c.layerW)
		}
	}
}

func TestDecideFlowMonitor(t *testing.T) {
	org := flowRule{layer: "organization", crossSite: FlowDeny, monitor: true}
	user := flowRule{layer: "user", crossSite: FlowConfirm}
	d, l, would := decideFlow([]flowRule{org}, FlowLog, "https://crm.example", "https://bank.example")
	if d != FlowLog || l != "default" || len(would) != 1 || would[0] != (wouldFlow{"organization", FlowDeny}) {
		t.Errorf("monitor alone: %s by %s, would %v", d, l, would)
	}
	d, l, would = decideFlow([]flowRule{org, user}, FlowLog, "https://crm.example", "https://bank.example")
	if d != FlowConfirm || l != "user" || len(would) != 1 {
		t.Errorf("monitor above an enforcing layer: %s by %s, would %v", d, l, would)
	}
	if _, _, would = decideFlow([]flowRule{{layer: "organization", crossSite: FlowLog, monitor: true}}, FlowLog, "https://a.example", "https://b.example"); would != nil {
		t.Errorf("a monitor layer that only logs would deny: %v", would)
	}
}

func TestPatternCoversSite(t *testing.T) {
	for _, c := range []struct {
		pat, site string
		want      bool
	}{
		{"crm.example", "https://crm.example", true},
		{"*.crm.example", "https://crm.example", true},
		{"*.example", "https://crm.example", true},
		{"app.crm.example", "https://crm.example", false},
		{"127.0.0.1", "http://127.0.0.1", true},
		{"127.0.0.1", "http://127.0.0.2", false},
		{"*.mail.example", "https://crm.example", false},
	} {
		p, err := parsePattern(c.pat)
		if err != nil {
			t.Fatal(err)
		}
		if got := patternCoversSite(p, c.site); got != c.want {
			t.Errorf("%s covers %s: %v, want %v", c.pat, c.site, got, c.want)
		}
	}
}

func TestDataFlowLayersLoadAndNarrow(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	org := write("org.cue", `data_flow: {cross_site: "deny", allow: ["*.crm.example -> *.mail.example"]}`)
	ok := write("ok.cue", `data_flow: {cross_site: "deny", allow: ["app.crm.example -> *.mail.example"]}`)
	wide := write("wide.cue", `data_flow: {cross_site: "log"}`)
	outside := write("outside.cue", `data_flow: {allow: ["*.crm.example -> *.bank.example"]}`)
	bad := write("bad.cue", `data_flow: {allow: ["*.crm.example -> a b"]}`)
	load := func(user string) (*Authority, error) {
		a, _, err := load(Config{Files: []File{{Layer: surface.PolicyLayerOrganization, Path: org, Explicit: true}, {Layer: surface.PolicyLayerUser, Path: user, Explicit: true}}})
		return a, err
	}
	a, err := load(ok)
	if err != nil {
		t.Fatal(err)
	}
	// The user's exception names one host below the site, so it covers no
	// site: the user layer's deny holds, narrower than the org's exception.
	if d, l := a.DataFlow("https://crm.example", "https://mail.example"); d != FlowDeny || l != surface.PolicyLayerUser {
		t.Errorf("crm to mail: %s by %s", d, l)
	}
	if d, l := a.DataFlow("https://crm.example", "https://bank.example"); d != FlowDeny || l != surface.PolicyLayerOrganization {
		t.Errorf("crm to bank: %s by %s", d, l)
	}
	for name, p := range map[string]string{"log under deny": wide, "exception outside the org's": outside, "malformed exception": bad} {
		if _, err := load(p); err == nil {
			t.Errorf("%s: loaded", name)
		} else if !strings.Contains(err.Error(), "data_flow") {
			t.Errorf("%s: %v does not name data_flow", name, err)
		}
	}
}

package tools

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
	"github.com/ghostlight-dev/ghostlight/runtime/governance"
	"github.com/ghostlight-dev/ghostlight/runtime/pipeline"
)

const monitoredRules = `capabilities: execute: "deny"
hosts: deny: ["127.0.0.2"]
data_flow: cross_site: "deny"
`

// monitorHarness serves a workspace layer through a pipeline whose audit
// records the test reads.
func monitorHarness(t *testing.T, name, policy string) (*policyHarness, func() []pipeline.AuditRecord) {
	t.Helper()
	p := filepath.Join(t.TempDir(), "policy.cue")
	if err := os.WriteFile(p, []byte(policy), 0o600); err != nil {
		t.Fatal(err)
	}
	ld, err := governance.Load(governance.Config{Files: []governance.File{{Layer: "workspace", Path: p}}, DefaultStartup: "auto"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var recs []pipeline.AuditRecord
	pipe := pipeline.New(pipeline.Options{Handler: testHandler, Authority: ld.Current, Audit: func(r pipeline.AuditRecord) { mu.Lock(); recs = append(recs, r); mu.Unlock() }})
	h := &policyHarness{t: t, pipe: pipe, session: strings.ReplaceAll(t.Name(), "/", "_") + name}
	t.Cleanup(func() { testHandler.Release(context.Background(), h.session) })
	return h, func() []pipeline.AuditRecord {
		mu.Lock()
		defer mu.Unlock()
		return append([]pipeline.AuditRecord(nil), recs...)
	}
}

type wouldFacts struct {
	Reason    string `json:"reason"`
	WouldDeny []struct {
		Reason, Layer, Capability, Host, From string
	} `json:"would_deny"`
	DataFlow *struct{ Decision, Layer string } `json:"data_flow"`
}

// TestMonitorModeLive: a workspace layer in monitor mode that denies
// execute, the host 127.0.0.2 and cross-site flows refuses none of them on
// real Chromium: each call runs, its result's would_deny fact and its audit
// line name the reason and the layer; the same rules enforced refuse the
// same calls.
func TestMonitorModeLive(t *testing.T) {
	a, b := newFlowSite(t, "127.0.0.1"), newFlowSite(t, "127.0.0.2")
	h, audited := monitorHarness(t, "", `mode: "monitor"
`+monitoredRules)
	facts := func(r pipeline.Result) wouldFacts {
		var f wouldFacts
		if err := json.Unmarshal(r.Envelope.Facts, &f); err != nil {
			t.Fatal(err)
		}
		return f
	}
	secret := flowSecrets[0].secret
	h.must("browser_navigate", `{"url":`+quote(a.base+"/src/0")+`}`)
	h.must("browser_read", `{}`)

	nav := h.must("browser_navigate", `{"url":`+quote(b.base+"/sink")+`}`)
	if f := facts(nav); len(f.WouldDeny) == 0 || f.WouldDeny[0].Reason != "host_denied" || f.WouldDeny[0].Layer != "workspace" || !strings.HasPrefix(f.WouldDeny[0].Host, "127.0.0.2") {
		t.Fatalf("navigate to the monitored host: %s", nav.JSON)
	}
	if !b.received("/sink") {
		t.Fatal("the monitored host was not reached")
	}
	ex := h.must("browser_execute", `{"script":"fetch('/beacon').then(r => r.status)"}`)
	f := facts(ex)
	found := false
	for _, w := range f.WouldDeny {
		found = found || w.Reason == "capability_denied" && w.Capability == "execute" && w.Layer == "workspace"
	}
	if !found {
		t.Fatalf("execute under a monitored deny: %s", ex.JSON)
	}
	if !b.received("/beacon") {
		t.Fatal("the page's own request to the monitored host was blocked")
	}
	wr := h.must("browser_type_text", `{"selector":{"name":"Message","role":"textbox"},"text":`+quote(secret)+`}`)
	f = facts(wr)
	found = false
	for _, w := range f.WouldDeny {
		found = found || w.Reason == "data_flow_denied" && w.Layer == "workspace" && w.From == "http://127.0.0.1"
	}
	if !found || f.DataFlow == nil || f.DataFlow.Decision != "log" || f.DataFlow.Layer != "default" {
		t.Fatalf("a cross-site write under a monitored deny: %s", wr.JSON)
	}
	var lines int
	for _, r := range audited() {
		if r.Invocation == wr.Envelope.Invocation || r.Invocation == ex.Envelope.Invocation || r.Invocation == nav.Envelope.Invocation {
			line, _ := json.Marshal(r.Line())
			if len(r.WouldDeny) == 0 || !strings.Contains(string(line), `"would_deny":[{"reason":`) || strings.Contains(string(line), secret) {
				t.Errorf("audit line: %s", line)
			}
			lines++
		}
	}
	if lines != 3 {
		t.Fatalf("%d audit lines for the three calls", lines)
	}

	// The same rules, enforced, refuse the same calls.
	e, _ := monitorHarness(t, "_enforced", monitoredRules)
	if r := e.call("browser_navigate", `{"url":`+quote(b.base+"/sink")+`}`); r.Envelope.Status != surface.StatusBlocked {
		t.Fatalf("enforced: %s", r.JSON)
	}
}

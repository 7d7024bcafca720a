package pipeline

import (
	"testing"
	"time"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
	"github.com/ghostlight-dev/ghostlight/runtime/audit"
)

// TestAuditLayerIsTheTypedFact: the audit's deciding layer is the refusal's
// typed layer fact, never words read out of its message (a message naming
// another layer, or a host that looks like one, changes nothing).
func TestAuditLayerIsTheTypedFact(t *testing.T) {
	p := &Pipeline{}
	for _, c := range []struct {
		r    surface.Refusal
		want string
	}{
		{surface.Refusal{Reason: surface.ReasonHostDenied, Host: "b.test", Layer: "workspace", Message: "the organization layer denies b.test"}, "workspace"},
		{surface.Refusal{Reason: surface.ReasonCapabilityDenied, Capability: "execute", Layer: "restriction", Message: "the user layer does not allow execute"}, "restriction"},
		{surface.Refusal{Reason: surface.ReasonConstraintDenied, Layer: "user", Message: "the user layer preserves tabs, so none is closed"}, "user"},
		{surface.Refusal{Reason: surface.ReasonHostDenied, Host: "b.test", Message: "the page left the hosts of the evil layer"}, ""},
		{surface.Refusal{Reason: surface.ReasonAuditUnavailable, Message: "disk full"}, audit.LayerAudit},
	} {
		r := c.r
		rec := p.record(&Invocation{ID: "inv_1", Tool: "browser_navigate"}, time.Now(), nil, surface.StatusBlocked, surface.EffectNone, nil, &r)
		if rec.Decision != audit.DecisionDeny || rec.Layer != c.want {
			t.Errorf("%+v: decision %q, layer %q, want %q", c.r, rec.Decision, rec.Layer, c.want)
		}
	}
}

package governance

import (
	"testing"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
)

func TestRestrictionsOnlyNarrow(t *testing.T) {
	base := New("auto", "test", Layer{Name: "configuration", Caps: surface.CapRead | surface.CapAction, Hosts: []string{"*.example.com", "example.com"}})
	if r := base.Admit(surface.Needs{Caps: surface.CapRead, URLs: []string{"https://a.example.com/x"}}); r != nil {
		t.Fatalf("admit: %+v", r)
	}
	// A restriction naming a capability the configuration denies does not grant it.
	n := base.Narrow(surface.Restrictions{Capabilities: []string{"read", "execute"}})
	if r := n.Admit(surface.Needs{Caps: surface.CapExecute}); r == nil || r.Reason != surface.ReasonCapabilityDenied || r.Capability != surface.CapabilityExecute {
		t.Fatalf("execute admitted or wrong refusal: %+v", r)
	}
	if r := n.Admit(surface.Needs{Caps: surface.CapAction}); r == nil || r.Capability != surface.CapabilityAction {
		t.Fatalf("action survived a restriction to read+execute: %+v", r)
	}
	// A restriction naming another host does not widen the configured hosts.
	h := base.Narrow(surface.Restrictions{Hosts: []string{"other.org"}})
	for _, u := range []string{"https://other.org/", "https://example.com/"} {
		if r := h.Admit(surface.Needs{URLs: []string{u}}); r == nil || r.Reason != surface.ReasonHostDenied {
			t.Errorf("%s admitted under hosts narrowed to other.org ∩ example.com: %+v", u, r)
		}
	}
	// The base snapshot is unchanged by narrowing.
	if r := base.Admit(surface.Needs{Caps: surface.CapAction}); r != nil {
		t.Fatalf("narrowing changed the base authority: %+v", r)
	}
}

func TestCeilings(t *testing.T) {
	a := AllOpen("auto")
	for _, u := range []string{"file:///etc/passwd", "javascript:alert(1)", "data:text/html,x", "chrome://settings", "https:///nohost"} {
		if r := a.AdmitURL(u); r == nil || r.Reason != surface.ReasonHostDenied {
			t.Errorf("%s passed the permanent ceiling: %+v", u, r)
		}
	}
	if r := a.AdmitURL("http://127.0.0.1:8080/x"); r != nil {
		t.Errorf("loopback http refused: %+v", r)
	}
}

func TestConstraint(t *testing.T) {
	a := New("auto", "org", Layer{Name: "configuration", Caps: AllCaps, DenyConstraints: []string{"tab_close"}})
	if r := a.Admit(surface.Needs{Caps: surface.CapAction, Constraints: []string{"tab_close"}}); r == nil || r.Reason != surface.ReasonConstraintDenied {
		t.Fatalf("tab_close admitted: %+v", r)
	}
}

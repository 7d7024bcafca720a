package governance

import "github.com/ghostlight-dev/ghostlight/generated/surface"

// audit.required has a default that depends on another setting: an
// organization layer that sets audit.path requires the audit unless it
// says otherwise, so a lower layer may not turn it off (narrow.go holds
// the lower layers to the implied value as if the organization wrote it).

const auditRequiredPointer = "/audit/required"

// impliedAuditRequired is the value a layer sets for audit.required,
// written or implied: the organization layer that sets audit.path and
// says nothing of required implies true.
func impliedAuditRequired(l Layer) (any, bool) {
	if l.policy == nil {
		return nil, false
	}
	if v, ok := l.policy.Lookup(auditRequiredPointer); ok {
		return v, true
	}
	if l.Name == surface.PolicyLayerOrganization {
		if _, ok := l.policy.Lookup("/audit/path"); ok {
			return true, true
		}
	}
	return nil, false
}

// AuditRequired says whether every call that reaches the browser needs the
// audit (audit.required, or its implied default), and the layer that
// decided it ("default" when none).
func (a *Authority) AuditRequired() (bool, string) {
	for _, l := range a.layers {
		if v, ok := impliedAuditRequired(l); ok && v == true {
			return true, l.Name
		}
	}
	if _, layer, ok := a.Value(auditRequiredPointer); ok {
		return false, layer
	}
	return false, LayerDefault
}

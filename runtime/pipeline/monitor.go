package pipeline

import "github.com/ghostlight-dev/ghostlight/generated/surface"

// carryWouldDeny puts the call's would-deny decisions (layers in monitor
// mode) in its facts, up to the would_deny bound; the audit keeps them all.
func (inv *Invocation) carryWouldDeny() {
	if inv.Authority == nil {
		return
	}
	would := inv.Authority.WouldDenied()
	if len(would) == 0 {
		return
	}
	if len(would) > surface.WouldDenyMax {
		would = would[:surface.WouldDenyMax]
	}
	list := make([]*surface.WouldDeny, len(would))
	for i := range would {
		w := would[i]
		list[i] = &w
	}
	inv.Carry(func(r *surface.Refusal) { r.WouldDeny = list })
}

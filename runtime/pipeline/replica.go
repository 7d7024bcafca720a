package pipeline

import (
	"github.com/ghostlight-dev/ghostlight/generated/surface"
	"github.com/ghostlight-dev/ghostlight/runtime/handle"
)

// otherReplica refuses a call that names a handle another replica minted:
// that replica holds the tab, its targets and views; this one holds none of
// it, and a lookup here would only say unknown (or, for a tab handle, open
// a new tab where the model meant its own). The refusal names the owner.
func (p *Pipeline) otherReplica(args surface.Args) *surface.Refusal {
	if p.replica == "" {
		return nil
	}
	for _, h := range args.Handles() {
		if owner, ok := handle.ReplicaOf(h); ok && owner != p.replica && handle.CheckReplica(owner) == nil {
			return &surface.Refusal{Reason: surface.ReasonOtherReplica, Replica: owner,
				Message: "the handle " + h + " was minted by replica " + owner + ", and this is replica " + p.replica}
		}
	}
	return nil
}

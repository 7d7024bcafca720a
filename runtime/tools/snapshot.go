package tools

import (
	"github.com/ghostlight-dev/ghostlight/generated/surface"
	"github.com/ghostlight-dev/ghostlight/runtime/browser/pagejs"
	"github.com/ghostlight-dev/ghostlight/runtime/handle"
)

// A snapshot handle is "snap_", the replica's name and seven base62 characters: the session's
// snapshot number under its own key (runtime/handle). Snapshots are only
// ever returned, never taken as input.
const snapBody = surface.HandleCharsMax - len(surface.HandlePrefixSnapshot) - 1 - handle.ReplicaChars

// snapshot is the current document-scope inspect result of one tab, kept to
// diff the next one against. A newer snapshot of the tab supersedes it, so
// a session keeps at most one tree per tab.
type snapshot struct {
	handle string
	gen    uint64
	tree   pagejs.Tree
}

// recordSnapshot stores tree as the tab's current snapshot and returns it
// with the one it superseded (nil when the tab had none). Any prior
// generation counts: the diff then says what a navigation changed.
func (s *session) recordSnapshot(tab string, gen uint64, tree pagejs.Tree) (cur, prev *snapshot) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.snapCodec == nil {
		s.snapCodec = handle.NewTagged(snapBody, s.h.b.Replica())
	}
	s.snapSeq++
	cur = &snapshot{handle: surface.HandlePrefixSnapshot + "_" + s.snapCodec.Encode(s.snapSeq), gen: gen, tree: tree}
	prev = s.snapshots[tab]
	s.snapshots[tab] = cur
	return cur, prev
}

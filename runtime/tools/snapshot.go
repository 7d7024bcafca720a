package tools

import (
	"strconv"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
	"github.com/ghostlight-dev/ghostlight/runtime/browser/pagejs"
)

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
	s.snapSeq++
	cur = &snapshot{handle: surface.HandlePrefixSnapshot + "_" + strconv.FormatUint(s.snapSeq, 10), gen: gen, tree: tree}
	prev = s.snapshots[tab]
	s.snapshots[tab] = cur
	return cur, prev
}

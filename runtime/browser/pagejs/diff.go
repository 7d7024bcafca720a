package pagejs

import (
	"fmt"
	"strings"

	"github.com/ghostlight-dev/ghostlight/generated/limits"
)

// DiffSampleLimit is how many sample lines Diff keeps.
const DiffSampleLimit = limits.DiffSamplesMax

// TreeDiff summarises structural change between two snapshots.
type TreeDiff struct {
	Added   int      `json:"added"`
	Removed int      `json:"removed"`
	Changed int      `json:"changed"`
	Samples []string `json:"samples,omitempty"`
}

// Diff compares two trees by (role, name, path), where path is the chain
// of ancestor roles (names left out so a renamed container does not make
// its whole subtree look replaced). A removed and an added node with the same
// path and role count as one Changed node (a rename). Ids are ignored:
// they do not survive a new document.
func Diff(prev, cur Tree) TreeDiff {
	return DiffLimited(prev, cur, DiffSampleLimit)
}

type keyed struct {
	key, slot string // slot = path + role, for pairing renames
	node      TreeNode
	parent    string
}

func keyNodes(t Tree) []keyed {
	out := make([]keyed, 0, len(t.Nodes))
	var stack []string // ancestor roles by depth
	var parents []string
	for _, n := range t.Nodes {
		d := n.Depth
		if d < 0 {
			d = 0
		}
		if d < len(stack) {
			stack, parents = stack[:d], parents[:d]
		}
		for len(stack) < d {
			stack, parents = append(stack, ""), append(parents, "")
		}
		path := strings.Join(stack, "/")
		parent := ""
		if d > 0 {
			parent = parents[d-1]
		}
		self := n.Role + ":" + n.Name
		out = append(out, keyed{key: path + "|" + self, slot: path + "|" + n.Role, node: n, parent: parent})
		stack = append(stack, n.Role)
		parents = append(parents, describeNode(n))
	}
	return out
}

func describeNode(n TreeNode) string {
	if n.Name == "" {
		return n.Role
	}
	return fmt.Sprintf("%s %q", n.Role, n.Name)
}

// DiffLimited is Diff keeping at most maxSamples sample lines.
func DiffLimited(prev, cur Tree, maxSamples int) TreeDiff {
	pk, ck := keyNodes(prev), keyNodes(cur)
	have := map[string]int{}
	for _, k := range pk {
		have[k.key]++
	}
	var added []keyed
	for _, k := range ck {
		if have[k.key] > 0 {
			have[k.key]--
			continue
		}
		added = append(added, k)
	}
	have = map[string]int{}
	for _, k := range ck {
		have[k.key]++
	}
	var removed []keyed
	for _, k := range pk {
		if have[k.key] > 0 {
			have[k.key]--
			continue
		}
		removed = append(removed, k)
	}
	// Pair renames: same path and role on both sides.
	open := map[string][]int{}
	for i, r := range removed {
		open[r.slot] = append(open[r.slot], i)
	}
	usedRemoved := make([]bool, len(removed))
	var d TreeDiff
	sample := func(s string) {
		if len(d.Samples) < maxSamples {
			d.Samples = append(d.Samples, s)
		}
	}
	where := func(k keyed) string {
		if k.parent == "" {
			return ""
		}
		return " in " + k.parent
	}
	var plainAdded []keyed
	for _, a := range added {
		if q := open[a.slot]; len(q) > 0 {
			i := q[0]
			open[a.slot] = q[1:]
			usedRemoved[i] = true
			d.Changed++
			sample(fmt.Sprintf("~ %s %q -> %q%s", a.node.Role, removed[i].node.Name, a.node.Name, where(a)))
			continue
		}
		plainAdded = append(plainAdded, a)
	}
	for _, a := range plainAdded {
		d.Added++
		sample("+ " + describeNode(a.node) + where(a))
	}
	for i, r := range removed {
		if usedRemoved[i] {
			continue
		}
		d.Removed++
		sample("- " + describeNode(r.node) + where(r))
	}
	return d
}

package governance

// RootList is one layer's files.read_roots.
type RootList struct {
	Layer string   // the layer that wrote it
	Roots []string // as written: absolute, not yet resolved
}

// ReadRootLists returns files.read_roots of every layer that sets it, from
// the top (nil when none does). Loading checked each list lies within the
// ones above it as written; an upload holds a file to every list after
// resolving symlinks in both, so a root that is a symlink out of a higher
// layer's root widens nothing.
func (a *Authority) ReadRootLists() []RootList {
	var out []RootList
	for _, l := range a.layers {
		v, ok := l.policy.Lookup("/files/read_roots")
		if !ok {
			continue
		}
		roots, _ := v.([]string)
		out = append(out, RootList{Layer: l.Name, Roots: append([]string{}, roots...)})
	}
	return out
}

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

// ExcludeList is one layer's files.exclude.
type ExcludeList struct {
	Layer string   // the layer that wrote it
	Globs []string // as written
}

// ExcludeLists returns files.exclude of every layer that sets it, from the
// top: every one applies (narrow=adds).
func (a *Authority) ExcludeLists() []ExcludeList {
	var out []ExcludeList
	for _, l := range a.layers {
		v, ok := l.policy.Lookup("/files/exclude")
		if !ok {
			continue
		}
		globs, _ := v.([]string)
		if len(globs) > 0 {
			out = append(out, ExcludeList{Layer: l.Name, Globs: append([]string{}, globs...)})
		}
	}
	return out
}

// UploadDotfiles is files.dotfiles in force ("exclude" or "include") and
// the layer that decided it.
func (a *Authority) UploadDotfiles() (string, string) {
	v, layer, _ := a.Value("/files/dotfiles")
	s, _ := v.(string)
	return s, layer
}

// UploadHardLinks is files.hard_links in force ("deny" or "allow") and the
// layer that decided it.
func (a *Authority) UploadHardLinks() (string, string) {
	v, layer, _ := a.Value("/files/hard_links")
	s, _ := v.(string)
	return s, layer
}

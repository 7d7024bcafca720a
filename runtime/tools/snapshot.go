package tools

// snapshot is the current document-scope inspect result of one tab, kept to
// diff the next one against. A newer snapshot of the tab supersedes it.
type snapshot struct {
	handle string
	gen    uint64
	tree   any // pagejs.Tree; typed by the inspect handler
}

package tools

import (
	"strconv"
	"sync"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
	"github.com/ghostlight-dev/ghostlight/runtime/browser/capture"
)

// views is a session's bounded registry of screenshot views: at most
// ViewsKeptMax, the oldest forgotten first. A view keeps its image bytes so an
// upload can reuse the capture (source_image); they never leave memory.
type views struct {
	mu    sync.Mutex
	seq   uint64
	order []string
	byID  map[string]*viewEntry
}

type viewEntry struct {
	handle string
	tab    string
	view   capture.View
	mime   string
	data   []byte
}

func newViews() *views { return &views{byID: map[string]*viewEntry{}} }

func (v *views) add(tab string, view capture.View, mime string, data []byte) *viewEntry {
	v.mu.Lock()
	defer v.mu.Unlock()
	v.seq++
	e := &viewEntry{handle: surface.HandlePrefixView + "_" + strconv.FormatUint(v.seq, 10), tab: tab, view: view, mime: mime, data: data}
	v.byID[e.handle] = e
	v.order = append(v.order, e.handle)
	for len(v.order) > surface.ViewsKeptMax {
		delete(v.byID, v.order[0])
		v.order = v.order[1:]
	}
	return e
}

func (v *views) get(handle string) *viewEntry {
	v.mu.Lock()
	defer v.mu.Unlock()
	return v.byID[handle]
}

package tools

import (
	"strings"
	"sync"

	"github.com/ghostlight-dev/ghostlight/runtime/language"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
	"github.com/ghostlight-dev/ghostlight/runtime/browser/capture"
	"github.com/ghostlight-dev/ghostlight/runtime/handle"
)

// views is a session's bounded registry of screenshot views: at most
// ViewsKeptMax, the oldest forgotten first. A view keeps its image bytes so an
// upload can reuse the capture (source_image); they never leave memory.
// A view handle is "view_" and seven base62 characters, the view's sequence
// number under the session's own key (runtime/handle): a forgotten view of
// this session is stale, another session's view is unknown.
type views struct {
	mu    sync.Mutex
	codec *handle.Codec
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

func newViews(replica string) *views {
	return &views{codec: handle.NewTagged(viewBody, replica), byID: map[string]*viewEntry{}}
}

const viewBody = surface.HandleCharsMax - len(surface.HandlePrefixView) - 1 - handle.ReplicaChars

func (v *views) add(tab string, view capture.View, mime string, data []byte) *viewEntry {
	v.mu.Lock()
	defer v.mu.Unlock()
	v.seq++
	e := &viewEntry{handle: surface.HandlePrefixView + "_" + v.codec.Encode(v.seq), tab: tab, view: view, mime: mime, data: data}
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

// missing refuses a view handle get did not find: stale_view when this
// session issued it (and has forgotten it), unknown_handle otherwise.
func (v *views) missing(h, pointer string) *surface.Refusal {
	body, ok := strings.CutPrefix(h, surface.HandlePrefixView+"_")
	v.mu.Lock()
	defer v.mu.Unlock()
	if ok {
		if n, ok := v.codec.Decode(body); ok && n >= 1 && n <= v.seq {
			return &surface.Refusal{Reason: surface.ReasonStaleView, Pointer: pointer, Message: language.MsgViewForgotten}
		}
	}
	return unknownHandle(pointer, "view")
}

// View is the tab and geometry of view handle h, or missing's refusal.
func (s *session) View(h, pointer string) (string, capture.View, *surface.Refusal) {
	e := s.views.get(h)
	if e == nil {
		return "", capture.View{}, s.views.missing(h, pointer)
	}
	return e.tab, e.view, nil
}

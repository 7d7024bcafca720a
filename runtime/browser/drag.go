package browser

import (
	"context"
	"encoding/json"
	"sync/atomic"

	"github.com/go-rod/rod/lib/proto"
)

// DragWatch watches one tab for the browser's drag interception
// (Input.dragIntercepted) from the connection's read loop; it is the
// input.Interceptions of browser_drag.
type DragWatch struct {
	tab *Tab
	got atomic.Pointer[proto.InputDragData]
	obs *Observation
}

// WatchDrags starts a DragWatch; Stop it when the drag is over.
func (t *Tab) WatchDrags() (*DragWatch, error) {
	w := &DragWatch{tab: t}
	o, err := t.Observe(func(method string, params json.RawMessage) {
		if method != "Input.dragIntercepted" || w.got.Load() != nil {
			return
		}
		var e proto.InputDragIntercepted
		if json.Unmarshal(params, &e) == nil && e.Data != nil {
			w.got.Store(e.Data)
		}
	})
	if err != nil {
		return nil, err
	}
	w.obs = o
	return w, nil
}

// Seen reports the interception delivered so far, without waiting.
func (w *DragWatch) Seen() *proto.InputDragData { return w.got.Load() }

// Settle is the event barrier (Tab.Sync), then Seen.
func (w *DragWatch) Settle(ctx context.Context) *proto.InputDragData {
	if d := w.got.Load(); d != nil {
		return d
	}
	_ = w.tab.Sync(ctx)
	return w.got.Load()
}

// Stop ends the watch.
func (w *DragWatch) Stop() { w.obs.Stop() }

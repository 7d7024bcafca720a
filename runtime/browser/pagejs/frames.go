package pagejs

// Cross-origin frames. Page code enters same-origin frames through
// contentDocument; a cross-origin frame (with site isolation, an
// out-of-process iframe with its own target) gets a World of its own on the
// frame's session. Perception (inspect, find, selectors) walks the main
// document and then every frame the caller admits; an element id names the
// world that issued it (ids carry their installation's serial, drawn from
// one counter per tab), so every call on an id goes to its frame's world,
// and a located point is moved from the frame's viewport into the top one.

import (
	"context"
	"encoding/json"
	"sort"
	"sync/atomic"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/proto"
)

// Frame is a cross-origin frame of the page that page code cannot enter.
type Frame struct {
	Page    *rod.Page         // a session on the frame's own target
	FrameID proto.PageFrameID // the frame (its target's main frame)
	URL     string
	// Owner is the session of the document embedding the frame; Parent is
	// that document's frame when it is itself a cross-origin frame ("" for
	// the top document).
	Owner  *rod.Page
	Parent proto.PageFrameID
}

// FrameSource lists the frames a call may perceive and act in (the caller
// leaves out frames of hosts it may not reach).
type FrameSource func(ctx context.Context) []Frame

// idStride is core.js's ID_STRIDE: an id's installation serial is id / idStride.
const idStride = 1000000

// SetFrames sets where the world finds the page's cross-origin frames.
func (w *World) SetFrames(src FrameSource) {
	w.mu.Lock()
	w.frames = src
	if w.serials == nil {
		w.serials = new(atomic.Int64)
		w.serials.Store(w.serial)
	}
	w.mu.Unlock()
}

// frameWorlds returns a World per admitted frame, reusing the one a frame
// already has while its session is the same.
func (w *World) frameWorlds(ctx context.Context) []*frameWorld {
	w.mu.Lock()
	src := w.frames
	w.mu.Unlock()
	if src == nil {
		return nil
	}
	frames := src(ctx)
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.kids == nil {
		w.kids = map[proto.PageFrameID]*frameWorld{}
	}
	var out []*frameWorld
	keep := map[proto.PageFrameID]bool{}
	for _, f := range frames {
		if f.Page == nil || f.Owner == nil {
			continue
		}
		keep[f.FrameID] = true
		k := w.kids[f.FrameID]
		if k == nil || k.frame.Page.SessionID != f.Page.SessionID {
			kw := NewWorld(f.Page)
			kw.limits = w.limits
			kw.serials = w.serials
			k = &frameWorld{w: kw}
			w.kids[f.FrameID] = k
		}
		k.frame = f
		out = append(out, k)
	}
	for id := range w.kids {
		if !keep[id] {
			delete(w.kids, id)
		}
	}
	for _, k := range out {
		k.parent = w.kids[k.frame.Parent]
	}
	return out
}

type frameWorld struct {
	w      *World
	frame  Frame
	parent *frameWorld // nil: embedded in the top document
}

// Local reports whether id was issued by this world's current installation
// (not by a frame's world): page code on it runs on this world's session.
func (w *World) Local(id int) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	return id > 0 && int64(id/idStride) == w.serial
}

// ownerOf is the frame world whose installation issued id (nil: the main
// world, or none, which then answers stale).
func (w *World) ownerOf(ctx context.Context, id int) *frameWorld {
	if id <= 0 {
		return nil
	}
	serial := int64(id / idStride)
	w.mu.Lock()
	if w.frames == nil || serial == w.serial {
		w.mu.Unlock()
		return nil
	}
	w.mu.Unlock()
	for _, k := range w.frameWorlds(ctx) {
		k.w.mu.Lock()
		s := k.w.serial
		k.w.mu.Unlock()
		if s == serial {
			return k
		}
	}
	return nil
}

// nextSerial is the serial of a new installation: one counter for the page
// and all its frames, so no two worlds of a tab issue the same id.
func (w *World) nextSerial() int64 {
	if w.serials != nil {
		return w.serials.Add(1)
	}
	return w.serial + 1
}

// elementID reads the element id a request names, if any.
func elementID(b []byte) int {
	var p struct {
		ID     int `json:"id"`
		Target int `json:"target"`
		Root   int `json:"root"`
	}
	if json.Unmarshal(b, &p) != nil {
		return 0
	}
	switch {
	case p.ID > 0:
		return p.ID
	case p.Target > 0:
		return p.Target
	}
	return p.Root
}

// spread runs a perception method in the main world and in every admitted
// frame, and merges what they found. It reports false only for a method it
// has no merge for.
func (w *World) spread(ctx context.Context, method string, b []byte, out any) (bool, error) {
	// The main world's call and the frame tree's read are independent round
	// trips: both are in flight at once, so a page without frames pays one.
	type reply struct {
		raw json.RawMessage
		err error
	}
	first := make(chan reply, 1)
	go func() {
		var r reply
		r.err = w.invokeLocal(ctx, method, b, &r.raw)
		first <- r
	}()
	kids := w.frameWorlds(ctx)
	top := <-first
	if len(kids) == 0 {
		if top.err != nil || out == nil {
			return true, top.err
		}
		if err := json.Unmarshal(top.raw, out); err != nil {
			return true, &Error{Kind: KindInternal, Op: method, Detail: "undecodable page result", Err: err}
		}
		return true, nil
	}
	var raws []json.RawMessage
	var srcs []string // the URL of the frame each raw came from ("" the page's own document)
	var firstErr error
	misses := 0
	unread := 0 // frames whose call failed: their text is unknown
	for i, world := range append([]*World{w}, worldsOf(kids)...) {
		raw, err, src := top.raw, top.err, ""
		if i > 0 {
			raw, src = nil, kids[i-1].frame.URL
			err = world.invokeLocal(ctx, method, b, &raw)
		}
		if err != nil {
			if i == 0 && method != "resolve" {
				return true, err
			}
			if e, ok := err.(*Error); ok && e.Kind == KindNoMatch {
				misses++
				firstErr = err
				continue
			}
			if method == "resolve" || method == "selectorNames" {
				return true, err // ambiguity (or a failure) in any frame decides
			}
			unread++
			continue // a frame that went away adds nothing
		}
		raws, srcs = append(raws, raw), append(srcs, src)
	}
	switch method {
	case "resolve":
		switch len(raws) {
		case 0:
			return true, firstErr
		case 1:
			return true, json.Unmarshal(raws[0], out)
		}
		return true, &Error{Kind: KindAmbiguous, Op: "resolve", Count: len(raws), Detail: "matches in more than one frame"}
	case "selectorNames":
		// Each document's sets, judged one document at a time (judge.go).
		return true, remarshal(struct {
			Frames []json.RawMessage `json:"frames"`
		}{raws}, out)
	case "find":
		var req FindRequest
		_ = json.Unmarshal(b, &req)
		all := FindResult{}
		for _, r := range raws {
			var one FindResult
			if json.Unmarshal(r, &one) == nil {
				all.Matches = append(all.Matches, one.Matches...)
				all.Total += one.Total
			}
		}
		// Best score first; within a score the main document, then frames,
		// each in its own order (a stable sort keeps it).
		sort.SliceStable(all.Matches, func(i, j int) bool { return all.Matches[i].Score > all.Matches[j].Score })
		if req.Max > 0 && len(all.Matches) > req.Max {
			all.Matches = all.Matches[:req.Max]
		}
		if all.Matches == nil {
			all.Matches = []Match{}
		}
		return true, remarshal(all, out)
	case "fileInputs":
		all := FileInputs{IDs: []int{}}
		for _, r := range raws {
			var one FileInputs
			if json.Unmarshal(r, &one) == nil {
				all.IDs = append(all.IDs, one.IDs...)
				all.Count += one.Count
			}
		}
		return true, remarshal(all, out)
	case "inspect":
		var req InspectRequest
		_ = json.Unmarshal(b, &req)
		all := InspectResult{Items: []Item{}}
		for _, r := range raws {
			var one InspectResult
			if json.Unmarshal(r, &one) == nil {
				for _, it := range one.Items {
					if req.MaxItems > 0 && len(all.Items) >= req.MaxItems {
						all.Truncated = true
						break
					}
					all.Items = append(all.Items, it)
				}
				all.Total += one.Total
				all.Truncated = all.Truncated || one.Truncated
			}
		}
		return true, remarshal(all, out)
	}
	if method == "textPresent" && unread > 0 {
		// Text found anywhere is present; text not found while a frame
		// could not be read (its world not ready, the call's time up) is
		// not known to be absent: a wait for it to go must not end on it.
		var m struct {
			Present bool `json:"present"`
		}
		if err := mergeDocument(method, b, raws, srcs, out); err != nil {
			return true, err
		}
		if got, err := json.Marshal(out); err == nil && json.Unmarshal(got, &m) == nil && !m.Present {
			return true, &Error{Kind: KindUnavailable, Op: method, Detail: "a frame could not be read"}
		}
		return true, nil
	}
	if docMethods[method] {
		return true, mergeDocument(method, b, raws, srcs, out)
	}
	return false, nil
}

func worldsOf(kids []*frameWorld) []*World {
	out := make([]*World, len(kids))
	for i, k := range kids {
		out[i] = k.w
	}
	return out
}

func remarshal(v, out any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	return json.Unmarshal(b, out)
}

// spreadMethods are the perception entry points that see into frames.
var spreadMethods = map[string]bool{"find": true, "inspect": true, "resolve": true, "selectorNames": true, "fileInputs": true}

// inFrame runs an id's method in its frame's world; a located point is then
// moved into the top viewport. handled is false when the id is the main
// world's.
func (w *World) inFrame(ctx context.Context, method string, b []byte, out any) (handled bool, err error) {
	k := w.ownerOf(ctx, elementID(b))
	if k == nil {
		return false, nil
	}
	if method == "locate" || method == "reveal" {
		// The frame's element is only reachable when the frame itself is in
		// view; the browser routes input to a frame's process by what it last
		// drew, so the top page draws twice after the scroll.
		k.revealOwner(ctx)
		w.nextFrames(ctx)
	}
	var raw json.RawMessage
	if err := k.w.invokeLocal(ctx, method, b, &raw); err != nil {
		return true, err
	}
	if method == "locate" {
		var p Point
		if err := json.Unmarshal(raw, &p); err != nil {
			return true, &Error{Kind: KindInternal, Op: method, Detail: "undecodable page result", Err: err}
		}
		ox, oy, err := k.offset(ctx)
		if err != nil {
			return true, err
		}
		p.X, p.Y, p.Box.X, p.Box.Y = p.X+ox, p.Y+oy, p.Box.X+ox, p.Box.Y+oy
		p.ScrollX, p.ScrollY = nil, nil // the frame's own, not the page's
		return true, remarshal(p, out)
	}
	if method == "reveal" {
		var r Revealed
		if err := json.Unmarshal(raw, &r); err != nil {
			return true, &Error{Kind: KindInternal, Op: method, Detail: "undecodable page result", Err: err}
		}
		r.ScrollX, r.ScrollY = nil, nil // the frame's own, not the page's
		return true, remarshal(r, out)
	}
	if out == nil {
		return true, nil
	}
	return true, json.Unmarshal(raw, out)
}

// revealOwner scrolls the frame's element into view in every embedding
// document, outermost first.
func (k *frameWorld) revealOwner(ctx context.Context) {
	if k.parent != nil {
		k.parent.revealOwner(ctx)
	}
	if id, err := k.ownerNode(ctx); err == nil {
		_, _ = k.frame.Owner.Call(ctx, string(k.frame.Owner.SessionID), "DOM.scrollIntoViewIfNeeded", map[string]any{"backendNodeId": id})
	}
}

func (k *frameWorld) ownerNode(ctx context.Context) (proto.DOMBackendNodeID, error) {
	raw, err := k.frame.Owner.Call(ctx, string(k.frame.Owner.SessionID), "DOM.getFrameOwner", map[string]any{"frameId": k.frame.FrameID})
	if err != nil {
		return 0, transportError("frame", err)
	}
	var res struct {
		BackendNodeID proto.DOMBackendNodeID `json:"backendNodeId"`
	}
	if err := json.Unmarshal(raw, &res); err != nil || res.BackendNodeID == 0 {
		return 0, &Error{Kind: KindStale, Op: "frame", Detail: "the frame is no longer in the page"}
	}
	return res.BackendNodeID, nil
}

// offset is where the frame's viewport sits in the top viewport: its
// element's content box in the embedding document, plus that document's own
// offset when it is a frame too.
func (k *frameWorld) offset(ctx context.Context) (float64, float64, error) {
	id, err := k.ownerNode(ctx)
	if err != nil {
		return 0, 0, err
	}
	// The box model says where the content box sits inside the border box;
	// the content quads say where the element is in the viewport.
	owner, sid := k.frame.Owner, string(k.frame.Owner.SessionID)
	raw, err := owner.Call(ctx, sid, "DOM.getBoxModel", map[string]any{"backendNodeId": id})
	if err != nil {
		return 0, 0, &Error{Kind: KindHidden, Op: "frame", Detail: "the frame is not rendered", Err: err}
	}
	var bm struct {
		Model struct {
			Content []float64 `json:"content"`
			Border  []float64 `json:"border"`
		} `json:"model"`
	}
	if err := json.Unmarshal(raw, &bm); err != nil || len(bm.Model.Content) < 2 || len(bm.Model.Border) < 2 {
		return 0, 0, &Error{Kind: KindHidden, Op: "frame", Detail: "the frame has no box"}
	}
	raw, err = owner.Call(ctx, sid, "DOM.getContentQuads", map[string]any{"backendNodeId": id})
	if err != nil {
		return 0, 0, &Error{Kind: KindHidden, Op: "frame", Detail: "the frame is not rendered", Err: err}
	}
	var cq struct {
		Quads [][]float64 `json:"quads"`
	}
	if err := json.Unmarshal(raw, &cq); err != nil || len(cq.Quads) == 0 || len(cq.Quads[0]) < 2 {
		return 0, 0, &Error{Kind: KindHidden, Op: "frame", Detail: "the frame is not in view"}
	}
	x := cq.Quads[0][0] + bm.Model.Content[0] - bm.Model.Border[0]
	y := cq.Quads[0][1] + bm.Model.Content[1] - bm.Model.Border[1]
	if k.parent != nil {
		px, py, err := k.parent.offset(ctx)
		if err != nil {
			return 0, 0, err
		}
		x, y = x+px, y+py
	}
	return x, y, nil
}

// nextFrames waits, in the top page, until two animation frames were drawn.
func (w *World) nextFrames(ctx context.Context) {
	api, err := w.ensure(ctx)
	if err != nil {
		return
	}
	p := callParams{FunctionDeclaration: `function(){return new Promise(r => requestAnimationFrame(() => requestAnimationFrame(() => r(true))))}`,
		ObjectID: api, ReturnByValue: true, Silent: true, AwaitPromise: true}
	_, _ = w.page.Call(ctx, string(w.page.SessionID), "Runtime.callFunctionOn", p)
}

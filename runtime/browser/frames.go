package browser

import (
	"context"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/proto"
)

// Frame is a cross-origin frame of a tab's page that page code in the
// embedding document cannot enter: an out-of-process frame (a cross-site
// iframe under site isolation), perceived and acted in through its own
// target's session, or a cross-origin frame Chromium keeps in the embedding
// document's process (same site, another port or origin), perceived through
// an isolated world of that frame on the process's session (framedoc.go).
type Frame struct {
	// Page is a session on the frame's document: the frame's own target, or
	// for an in-process frame its process's session with Page.FrameID set.
	Page    *rod.Page
	FrameID proto.PageFrameID // the frame (an out-of-process frame's target id)
	URL     string            // as the browser last announced it
	// HostURL is the URL whose host the boundary checks for this frame: its
	// own, or, for a document with no host of its own (a srcdoc, a data:
	// document, sandboxed or not), its nearest embedder's that has one. Such
	// a document's content came from that embedder, and any request it makes
	// is held by the boundary like its embedder's.
	HostURL string
	// Owner is the session of the document embedding the frame; Parent is
	// the frame whose viewport the owner's coordinates are in when that is
	// itself such a frame ("" for the page's viewport).
	Owner  *rod.Page
	Parent proto.PageFrameID
	// InProcess: the frame shares its embedding document's process.
	InProcess bool
}

// Frames lists the tab's cross-origin frames, outermost first: every
// out-of-process frame, and every in-process frame whose origin differs from
// the document that would have to enter it.
func (t *Tab) Frames(ctx context.Context) []Frame {
	bd := t.live()
	if bd == nil {
		return nil
	}
	c := bd.conn
	var out []Frame
	for _, g := range c.guardsOf(bd.targetID) {
		if g.typ != "iframe" || g.parent == nil {
			continue
		}
		g.mu.Lock()
		u := g.url
		g.mu.Unlock()
		f := Frame{Page: c.guardPage(g), FrameID: proto.PageFrameID(g.target), URL: u, HostURL: hostURLOf(g), Owner: c.guardPage(g.parent)}
		if g.parent.typ == "iframe" {
			f.Parent = proto.PageFrameID(g.parent.target)
		}
		out = append(out, f)
	}
	out = sortOutermost(out)
	// Each process's own cross-origin frames: the page's, then each
	// out-of-process frame's (whose viewport their coordinates are in).
	roots := []Frame{{Page: t.Page(), HostURL: t.URL()}}
	roots = append(roots, out...)
	var local []Frame
	for _, r := range roots {
		if r.Page == nil {
			continue
		}
		local = append(local, c.localFrames(ctx, r.Page, r.FrameID, r.HostURL)...)
	}
	return append(out, local...)
}

// sortOutermost orders frames so that a frame's parent is listed before it.
func sortOutermost(out []Frame) []Frame {
	depth := func(f Frame) int {
		n := 0
		for p := f.Parent; p != ""; n++ {
			found := false
			for _, o := range out {
				if o.FrameID == p {
					p, found = o.Parent, true
					break
				}
			}
			if !found || n > 16 {
				break
			}
		}
		return n
	}
	for i := 1; i < len(out); i++ {
		for j := i; j > 0 && depth(out[j]) < depth(out[j-1]); j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	return out
}

// hostURLOf is the URL whose host governs guard g's document: its own when it
// has a host, else its nearest ancestor's that has one ("" when none has).
func hostURLOf(g *guard) string {
	for depth := 0; g != nil && depth <= maxFrameDepth; depth++ {
		g.mu.Lock()
		u := g.url
		g.mu.Unlock()
		if _, web := requestHost(u); web {
			return u
		}
		g = g.parent
	}
	return ""
}

// guardPage is a rod page on a guard's session (made once).
func (c *conn) guardPage(g *guard) *rod.Page {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.page == nil {
		g.page = c.rod.PageFromSession(g.session)
	}
	return g.page
}

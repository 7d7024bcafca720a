package browser

import (
	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/proto"
)

// Frame is an out-of-process frame of a tab's page (a cross-site iframe
// under site isolation): page code in the main frame cannot enter it, so it
// is perceived and acted in through its own target's session.
type Frame struct {
	Page    *rod.Page         // a session on the frame's target
	FrameID proto.PageFrameID // the frame (its target's id)
	URL     string            // as the browser last announced it
	// Owner is the session of the document embedding the frame; Parent is
	// that document's frame when it is itself such a frame ("" for the page).
	Owner  *rod.Page
	Parent proto.PageFrameID
}

// Frames lists the out-of-process frames of the tab's page, outermost first.
func (t *Tab) Frames() []Frame {
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
		f := Frame{Page: c.guardPage(g), FrameID: proto.PageFrameID(g.target), URL: u, Owner: c.guardPage(g.parent)}
		if g.parent.typ == "iframe" {
			f.Parent = proto.PageFrameID(g.parent.target)
		}
		out = append(out, f)
	}
	// Outermost first: a frame's parent is listed before it.
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

// guardPage is a rod page on a guard's session (made once).
func (c *conn) guardPage(g *guard) *rod.Page {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.page == nil {
		g.page = c.rod.PageFromSession(g.session)
	}
	return g.page
}

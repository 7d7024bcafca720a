package browser

// In-process cross-origin frames. Site isolation puts a cross-site frame in
// its own process (an out-of-process frame with a target of its own), but a
// frame of the same site and another origin (another port of the same host,
// measured on Chromium 156: 127.0.0.1:A embedding 127.0.0.1:B) stays in the
// embedding document's process. Page code there cannot enter it either
// (contentDocument is null across origins), so such a frame gets an isolated
// world of its own, created for that frame on the process's session.

import (
	"context"
	"encoding/json"
	"strings"
	"sync"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/proto"

	"github.com/ghostlight-dev/ghostlight/generated/limits"
)

// frameNode is the part of Page.getFrameTree the perception reads.
type frameNode struct {
	Frame struct {
		ID             proto.PageFrameID `json:"id"`
		URL            string            `json:"url"`
		SecurityOrigin string            `json:"securityOrigin"`
	} `json:"frame"`
	ChildFrames []frameNode `json:"childFrames"`
}

// localFrames lists the frames of one process's document tree (rooted at the
// session's main frame) that a world of an ancestor cannot enter: a frame
// gets its own world when its origin differs from the nearest ancestor that
// has one; a same-origin descendant is entered by that world's page code.
// parent is the frame whose viewport the session's coordinates are in ("" for
// the page); hostURL is the URL whose host governs the session's main frame.
func (c *conn) localFrames(ctx context.Context, session *rod.Page, parent proto.PageFrameID, hostURL string) []Frame {
	raw, err := session.Call(ctx, string(session.SessionID), "Page.getFrameTree", struct{}{})
	if err != nil {
		return nil
	}
	var tree struct {
		FrameTree frameNode `json:"frameTree"`
	}
	if json.Unmarshal(raw, &tree) != nil {
		return nil
	}
	if _, web := requestHost(tree.FrameTree.Frame.URL); web {
		hostURL = tree.FrameTree.Frame.URL
	}
	return c.crossOriginKids(session, parent, tree.FrameTree, tree.FrameTree.Frame.SecurityOrigin, hostURL, 0)
}

// crossOriginKids walks n's children: world is the origin of the world whose
// page code reaches n's document, hostURL the URL whose host governs it.
func (c *conn) crossOriginKids(session *rod.Page, parent proto.PageFrameID, n frameNode, world, hostURL string, depth int) []Frame {
	if depth > maxFrameDepth {
		return nil
	}
	var out []Frame
	for _, k := range n.ChildFrames {
		origin := k.Frame.SecurityOrigin
		_, web := requestHost(k.Frame.URL)
		// A frame of another origin gets a world of its own. So does one
		// with no web URL that is not about: (a data: document: its origin
		// is opaque, and page code outside cannot enter it); its host is its
		// embedder's. An about:blank or srcdoc frame of the same origin is
		// entered by the world above it.
		if origin != world && (web || !strings.HasPrefix(k.Frame.URL, "about:")) {
			host := hostURL
			if web {
				host = k.Frame.URL
			}
			// A session of the frame's document: the process's session with
			// the frame named, so its isolated world is created in it.
			p := c.framePage(session.SessionID, k.Frame.ID)
			out = append(out, Frame{Page: p, FrameID: k.Frame.ID, URL: boundURL(k.Frame.URL), HostURL: boundURL(host), Owner: session, Parent: parent, InProcess: true})
			out = append(out, c.crossOriginKids(session, parent, k, origin, host, depth+1)...)
			continue
		}
		out = append(out, c.crossOriginKids(session, parent, k, world, hostURL, depth+1)...)
	}
	return out
}

// maxFrameDepth bounds the frame tree walk (Chromium nests at most a few
// dozen levels); page code walks as many.
const maxFrameDepth = limits.FrameDepthMax

// framePages keeps one rod page per (session, frame): each rod page holds a
// context of the browser's until the browser goes, so one is made per frame
// ever perceived, not per call. Bounded: past maxFramePages the oldest
// generation is let go.
var framePages struct {
	mu   sync.Mutex
	byID map[framePageKey]*rod.Page
}

type framePageKey struct {
	c       *conn
	session proto.TargetSessionID
	frame   proto.PageFrameID
}

const maxFramePages = limits.FrameSessionsKeptMax

func (c *conn) framePage(session proto.TargetSessionID, frame proto.PageFrameID) *rod.Page {
	framePages.mu.Lock()
	defer framePages.mu.Unlock()
	k := framePageKey{c, session, frame}
	if p := framePages.byID[k]; p != nil {
		return p
	}
	if framePages.byID == nil || len(framePages.byID) >= maxFramePages {
		framePages.byID = map[framePageKey]*rod.Page{}
	}
	p := c.rod.PageFromSession(session)
	p.FrameID = frame
	framePages.byID[k] = p
	return p
}

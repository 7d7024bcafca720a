package mcpedge

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/base32"
	"encoding/json"
	"net/http"
	"sync"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
)

// Stateless calls. MCP 2026-07-28 has no protocol session over HTTP: every
// request stands alone, without Mcp-Session-Id (mcp-go serves each on an
// ephemeral session whose id is ""). State lives in server-minted handles
// passed as ordinary arguments, so a stateless call's workspace is found
// through the handles it names:
//
//   - a call naming handles that the Dispatcher (Owners) says belong to one
//     workspace this edge minted for stateless calls runs in that workspace;
//   - any other call (no handle, unknown handles, handles of two
//     workspaces, handles of a session-bearing client's workspace) runs in a
//     fresh workspace with an unguessable id, so a client reaches only the
//     tabs whose handles it was given;
//   - a workspace is released when its last call returns and it controls no
//     tab, or after Limits.SessionIdle without a call, or at Edge.Close.
//
// Workspaces of session-bearing clients are never reached from here: the
// edge routes only to workspaces it minted.

// Owners is what a Dispatcher offers so that stateless calls can reach the
// workspace that issued their handles. A Dispatcher without it serves each
// stateless call in a fresh workspace.
type Owners interface {
	// Owner is the workspace that issued handle (a string value of a call's
	// arguments), when it names a live tab there.
	Owner(handle string) (workspace string, ok bool)
	// Holds reports whether workspace still controls a tab.
	Holds(workspace string) bool
}

// StatelessPrefix starts every workspace id minted for stateless calls.
const StatelessPrefix = "stateless-"

// maxRouteStrings bounds the string values of one call's arguments offered
// to Owners.Owner (a handle sits near the top of any real call).
const maxRouteStrings = surface.RouteStringsMax

type statelessWorkspace struct {
	calls int
	idle  *time.Timer // armed while no call runs
}

type stateless struct {
	e    *Edge
	idle time.Duration

	mu     sync.Mutex
	spaces map[string]*statelessWorkspace
	closed bool
}

func newStateless(e *Edge) *stateless {
	return &stateless{e: e, idle: e.limits.SessionIdle, spaces: map[string]*statelessWorkspace{}}
}

var workspaceEncoding = base32.NewEncoding("abcdefghijklmnopqrstuvwxyz234567").WithPadding(base32.NoPadding)

// mint is a fresh workspace id: 128 random bits.
func mint() string {
	var raw [16]byte
	_, _ = rand.Read(raw[:])
	return StatelessPrefix + workspaceEncoding.EncodeToString(raw[:])
}

// enter picks the workspace of one stateless call and holds it until the
// returned leave runs.
func (s *stateless) enter(args json.RawMessage) (workspace string, leave func()) {
	owners, _ := s.e.d.(Owners)
	s.mu.Lock()
	defer s.mu.Unlock()
	if owners != nil {
		workspace = s.route(owners, args)
	}
	w := s.spaces[workspace]
	if w == nil {
		workspace = mint()
		w = &statelessWorkspace{}
		if !s.closed {
			s.spaces[workspace] = w
		}
	}
	w.calls++
	if w.idle != nil {
		w.idle.Stop()
		w.idle = nil
	}
	return workspace, func() { s.leave(workspace, w) }
}

// route is the one minted workspace every routable handle of args belongs
// to, or "" (caller holds mu).
func (s *stateless) route(owners Owners, args json.RawMessage) string {
	found := ""
	n := 0
	ok := true
	walkStrings(args, func(v string) bool {
		if n++; n > maxRouteStrings {
			return false
		}
		ws, owned := owners.Owner(v)
		if !owned || s.spaces[ws] == nil {
			return true // not a handle of a stateless workspace
		}
		if found != "" && found != ws {
			ok = false // handles of two workspaces: reach neither
			return false
		}
		found = ws
		return true
	})
	if !ok {
		return ""
	}
	return found
}

func (s *stateless) leave(workspace string, w *statelessWorkspace) {
	owners, _ := s.e.d.(Owners)
	s.mu.Lock()
	w.calls--
	release := false
	if w.calls == 0 && s.spaces[workspace] == w {
		if owners == nil || !owners.Holds(workspace) || s.closed {
			delete(s.spaces, workspace)
			release = true
		} else if s.idle > 0 {
			w.idle = time.AfterFunc(s.idle, func() { s.expire(workspace, w) })
		}
	} else if w.calls == 0 && s.spaces[workspace] == nil {
		release = true // minted after Close, or never kept
	}
	s.mu.Unlock()
	if release {
		s.e.calls.end(workspace, func() { s.e.d.SessionClosed(workspace) })
	}
}

// expire releases a workspace idle for Limits.SessionIdle.
func (s *stateless) expire(workspace string, w *statelessWorkspace) {
	s.mu.Lock()
	if s.spaces[workspace] != w || w.calls > 0 {
		s.mu.Unlock()
		return
	}
	delete(s.spaces, workspace)
	s.mu.Unlock()
	s.e.calls.end(workspace, func() { s.e.d.SessionClosed(workspace) })
}

// close releases every idle stateless workspace; busy ones are released as
// their last call returns (their calls end with the HTTP server).
func (s *stateless) close() {
	s.mu.Lock()
	s.closed = true
	var idle []string
	for id, w := range s.spaces {
		if w.calls == 0 {
			if w.idle != nil {
				w.idle.Stop()
			}
			idle = append(idle, id)
			delete(s.spaces, id)
		}
	}
	s.mu.Unlock()
	for _, id := range idle {
		s.e.calls.end(id, func() { s.e.d.SessionClosed(id) })
	}
}

// count is how many stateless workspaces are kept (tests).
func (s *stateless) count() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.spaces)
}

// walkStrings calls fn with every string of the JSON document raw (object
// keys too: no key is a handle), in order, until fn returns false.
func walkStrings(raw json.RawMessage, fn func(string) bool) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	for {
		tok, err := dec.Token()
		if err != nil {
			return
		}
		if v, ok := tok.(string); ok && !fn(v) {
			return
		}
	}
}

// StatelessWorkspaces is how many workspaces of stateless calls this edge
// keeps now (tests and diagnostics).
func (e *Edge) StatelessWorkspaces() int { return e.stateless.count() }

// statelessCall reports whether ctx is a 2026-07-28 request without a
// protocol session (streamable HTTP): such a call needs a workspace of its own.
func statelessCall(ctx context.Context) bool {
	return server.IsModernRequest(ctx) && sessionID(ctx) == ""
}

// statelessCancel reports whether r posts notifications/cancelled in
// 2026-07-28 without a session: there is no call table to look it up in
// (the request it names ended its own stream, which cancelled it).
func statelessCancel(r *http.Request, method string) bool {
	return method == string(mcp.MethodNotificationCancelled) && r.Header.Get(server.HeaderKeySessionID) == "" &&
		mcp.IsModernProtocol(r.Header.Get(mcp.HeaderProtocolVersion))
}

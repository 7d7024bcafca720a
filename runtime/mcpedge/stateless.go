package mcpedge

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base32"
	"encoding/hex"
	"net"
	"net/http"
	"sync"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// Stateless calls. MCP 2026-07-28 has no protocol session over HTTP: every
// request stands alone, without Mcp-Session-Id (mcp-go serves each on an
// ephemeral session whose id is ""). So a stateless call runs in the
// workspace of its principal, whoever the request authenticated as:
//
//   - with a bearer token, the token (a SHA-256 digest of it: the token
//     itself is kept in no map and no log);
//   - under --insecure-no-token, the client identity the request carries:
//     its remote IP address (not the port: a client may open a new
//     connection for every request), its User-Agent header and the
//     clientInfo name and version of its _meta.
//
// A principal has one workspace at a time, so "omit tab for the only tab"
// holds for one agent per token, and every handle a call names (tab, target,
// view, snapshot) is looked up in the workspace that issued it. Agents
// sharing a token share its workspace: once it holds two tabs, a call that
// omits tab is refused ambiguous_tab, never given one of them. Two principals
// never reach each other's tabs: a handle of another principal's workspace
// is unknown in this one.
//
// A principal's workspace is released, with its browser context, when its
// last call returns and it controls no tab, after Limits.StatelessIdle
// without a call, or at Edge.Close. A principal whose workspace was released
// for idleness is remembered (at most Limits.StatelessPrincipals of them), so
// a later call on one of its released handles is told so (Call.ReleasedIdle).
// Workspaces of session-bearing clients are never reached from here.

// Owners is what a Dispatcher offers so that a stateless workspace holding
// no tab is released at once. A Dispatcher without it has every stateless
// workspace released when its last call returns.
type Owners interface {
	// Holds reports whether workspace still controls a tab.
	Holds(workspace string) bool
}

// StatelessPrefix starts every workspace id minted for stateless calls.
const StatelessPrefix = "stateless-"

type statelessWorkspace struct {
	principal string
	calls     int
	idle      *time.Timer // armed while no call runs
}

// principal is what the edge keeps of one principal.
type principal struct {
	workspace string // its workspace now ("" while none is kept)
	http      string // the HTTP part of it (httpPrincipal), for a drain's holds
	released  bool   // its last workspace was released for idleness
	seen      uint64 // when it last called (s.seq), to forget the oldest first
}

type stateless struct {
	e    *Edge
	idle time.Duration
	keep int // principals remembered without a workspace

	mu         sync.Mutex
	spaces     map[string]*statelessWorkspace
	principals map[string]*principal
	seq        uint64
	closed     bool
}

func newStateless(e *Edge) *stateless {
	return &stateless{e: e, idle: e.limits.StatelessIdle, keep: e.limits.StatelessPrincipals,
		spaces: map[string]*statelessWorkspace{}, principals: map[string]*principal{}}
}

var workspaceEncoding = base32.NewEncoding("abcdefghijklmnopqrstuvwxyz234567").WithPadding(base32.NoPadding)

// mint is a fresh workspace id: 128 random bits.
func mint() string {
	var raw [16]byte
	_, _ = rand.Read(raw[:])
	return StatelessPrefix + workspaceEncoding.EncodeToString(raw[:])
}

// enter picks the workspace of one stateless call of principal who and
// holds it until the returned leave runs. released says who's previous
// workspace was released for idleness. A call with no principal (who == "")
// runs in a fresh workspace of its own.
func (s *stateless) enter(who, http string) (workspace string, released bool, leave func()) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var p *principal
	if who != "" {
		s.seq++
		p = s.principals[who]
		if p == nil {
			p = &principal{seen: s.seq, http: http}
			s.principals[who] = p
			s.forget(who)
		}
		p.seen = s.seq
		released = p.released
	}
	var w *statelessWorkspace
	if p != nil && p.workspace != "" {
		workspace, w = p.workspace, s.spaces[p.workspace]
	}
	if w == nil {
		workspace = mint()
		w = &statelessWorkspace{principal: who}
		if !s.closed {
			s.spaces[workspace] = w
			if p != nil {
				p.workspace = workspace
			}
		}
	}
	w.calls++
	if w.idle != nil {
		w.idle.Stop()
		w.idle = nil
	}
	return workspace, released, func() { s.leave(workspace, w) }
}

// forget drops the longest-silent principals, other than the one entering,
// that keep no workspace while more than s.keep are remembered (caller
// holds mu).
func (s *stateless) forget(entering string) {
	for len(s.principals) > s.keep {
		oldest, at := "", uint64(0)
		for who, p := range s.principals {
			if who != entering && p.workspace == "" && (oldest == "" || p.seen < at) {
				oldest, at = who, p.seen
			}
		}
		if oldest == "" {
			return // every one keeps a workspace
		}
		delete(s.principals, oldest)
	}
}

// drop forgets workspace as its principal's (caller holds mu).
func (s *stateless) drop(workspace string, w *statelessWorkspace, idled bool) {
	delete(s.spaces, workspace)
	if p := s.principals[w.principal]; p != nil && p.workspace == workspace {
		p.workspace = ""
		p.released = idled
	}
}

func (s *stateless) leave(workspace string, w *statelessWorkspace) {
	owners, _ := s.e.d.(Owners)
	s.mu.Lock()
	w.calls--
	release := false
	if w.calls == 0 && s.spaces[workspace] == w {
		if owners == nil || !owners.Holds(workspace) || s.closed {
			s.drop(workspace, w, false)
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

// expire releases a workspace idle for Limits.StatelessIdle.
func (s *stateless) expire(workspace string, w *statelessWorkspace) {
	s.mu.Lock()
	if s.spaces[workspace] != w || w.calls > 0 {
		s.mu.Unlock()
		return
	}
	s.drop(workspace, w, true)
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
			s.drop(id, w, false)
		}
	}
	s.mu.Unlock()
	for _, id := range idle {
		s.e.calls.end(id, func() { s.e.d.SessionClosed(id) })
	}
}

// holds reports whether a principal whose HTTP part is http keeps a
// workspace (a draining edge serves its calls).
func (s *stateless) holds(http string) bool {
	if http == "" {
		return false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, p := range s.principals {
		if p.http == http && p.workspace != "" {
			return true
		}
	}
	return false
}

// count is how many stateless workspaces are kept (tests).
func (s *stateless) count() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.spaces)
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

// principalKey carries the HTTP part of a request's principal (httpEdge.ServeHTTP).
type principalKey struct{}

// httpPrincipal is the HTTP part of r's principal: the digest of the bearer
// token it authenticated with, or, without one, of its remote IP address and
// User-Agent. Only digests are kept.
func httpPrincipal(r *http.Request, token string) string {
	h := sha256.New()
	if token != "" {
		h.Write([]byte("token\x00"))
		h.Write([]byte(token))
	} else {
		ip, _, err := net.SplitHostPort(r.RemoteAddr)
		if err != nil {
			ip = r.RemoteAddr
		}
		h.Write([]byte("client\x00"))
		h.Write([]byte(ip))
		h.Write([]byte{0})
		h.Write([]byte(r.Header.Get("User-Agent")))
	}
	return hex.EncodeToString(h.Sum(nil))
}

// principalOf is the principal of a stateless call: the HTTP part, and
// without a token the clientInfo its _meta carries. "" when ctx came through
// no HTTP edge.
func principalOf(ctx context.Context) string {
	p, _ := ctx.Value(principalKey{}).(httpPrincipalValue)
	if p.digest == "" {
		return ""
	}
	if p.token {
		return p.digest
	}
	h := sha256.New()
	h.Write([]byte(p.digest))
	if info := server.RequestProtocolInfoFromContext(ctx); info != nil && info.ClientInfo != nil {
		h.Write([]byte{0})
		h.Write([]byte(info.ClientInfo.Name))
		h.Write([]byte{0})
		h.Write([]byte(info.ClientInfo.Version))
	}
	return hex.EncodeToString(h.Sum(nil))
}

// httpPartOf is the HTTP part of a stateless call's principal ("" when
// ctx came through no HTTP edge).
func httpPartOf(ctx context.Context) string {
	p, _ := ctx.Value(principalKey{}).(httpPrincipalValue)
	return p.digest
}

type httpPrincipalValue struct {
	digest string
	token  bool // digest is the token's
}

package mcpedge

import (
	"context"
	"net/url"
	"path/filepath"
	"sync"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// Client roots (Call.Roots). The directories a client shares as MCP roots
// are asked for (roots/list) the first time a call needs them, and kept per
// session until the client says they changed
// (notifications/roots/list_changed) or the session ends. A client that did
// not declare the roots capability is never asked. The wait for an answer
// is bounded by Options.RootsWait: an HTTP client reads server requests
// only on its GET stream, and one without it never answers.

type rootsCache struct {
	wait time.Duration

	mu       sync.Mutex
	sessions map[string]*sessionRoots
}

type sessionRoots struct {
	gen   uint64 // bumped by list_changed: an answer asked for earlier is stale
	known bool
	dirs  []string
	ok    bool
}

func newRootsCache(wait time.Duration) *rootsCache {
	if wait <= 0 {
		return nil
	}
	return &rootsCache{wait: wait, sessions: map[string]*sessionRoots{}}
}

func (c *rootsCache) entry(session string) *sessionRoots {
	s := c.sessions[session]
	if s == nil {
		s = &sessionRoots{}
		c.sessions[session] = s
	}
	return s
}

// changed forgets a session's roots (the client said they changed).
func (c *rootsCache) changed(session string) {
	c.mu.Lock()
	s := c.entry(session)
	s.gen++
	s.known, s.dirs, s.ok = false, nil, false
	c.mu.Unlock()
}

func (c *rootsCache) end(session string) {
	c.mu.Lock()
	delete(c.sessions, session)
	c.mu.Unlock()
}

// rootsOf is the Call.Roots of a call in session (nil without a cache).
func (e *Edge) rootsOf(session string) func(context.Context) ([]string, bool) {
	c := e.roots
	if c == nil {
		return nil
	}
	return func(ctx context.Context) ([]string, bool) {
		c.mu.Lock()
		s := c.entry(session)
		if s.known {
			dirs, ok := append([]string(nil), s.dirs...), s.ok
			c.mu.Unlock()
			return dirs, ok
		}
		gen := s.gen
		c.mu.Unlock()

		dirs, ok, answered := e.askRoots(ctx)
		c.mu.Lock()
		defer c.mu.Unlock()
		// An answer, or a client that cannot be asked, is kept; a wait
		// that ran out is tried again by the next call.
		if s := c.entry(session); answered && s.gen == gen {
			s.known, s.dirs, s.ok = true, dirs, ok
		}
		return dirs, ok
	}
}

// askRoots asks the call's client for its roots. answered is false when
// the wait ran out (or the call ended) before an answer.
func (e *Edge) askRoots(ctx context.Context) (dirs []string, ok, answered bool) {
	cs := server.ClientSessionFromContext(ctx)
	info, isInfo := cs.(server.SessionWithClientInfo)
	if !isInfo || info.GetClientCapabilities().Roots == nil {
		return nil, false, true
	}
	rctx, cancel := context.WithTimeout(ctx, e.roots.wait)
	defer cancel()
	res, err := e.srv.RequestRoots(rctx, mcp.ListRootsRequest{})
	if err != nil {
		e.log.Debug("mcpedge: roots/list unanswered", "err", err)
		return nil, false, rctx.Err() == nil
	}
	for _, r := range res.Roots {
		if d := rootDir(r.URI); d != "" {
			dirs = append(dirs, d)
		}
	}
	return dirs, len(dirs) > 0, true
}

// rootDir turns a file:// root URI into an absolute local path ("" for any
// other URI).
func rootDir(uri string) string {
	u, err := url.Parse(uri)
	if err != nil || u.Scheme != "file" || (u.Host != "" && u.Host != "localhost") {
		return ""
	}
	p := filepath.FromSlash(u.Path)
	if !filepath.IsAbs(p) {
		return ""
	}
	return filepath.Clean(p)
}

// registerRoots forgets a session's roots when its client says they
// changed.
func (e *Edge) registerRoots() {
	if e.roots == nil {
		return
	}
	e.srv.AddNotificationHandler(string(mcp.MethodNotificationRootsListChanged), func(ctx context.Context, _ mcp.JSONRPCNotification) {
		e.roots.changed(sessionID(ctx))
	})
}

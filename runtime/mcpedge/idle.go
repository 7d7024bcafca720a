package mcpedge

import (
	"context"
	"net/http"
	"sync"
	"time"

	"github.com/mark3labs/mcp-go/server"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
)

// HTTP sessions end after SessionIdleTTL with no request, and never while a
// request of theirs is open. mcp-go's own sweeper counts only when requests
// arrive, so a call running longer than the TTL had its session (and its
// tabs) swept from under it: 3 of 10 `make test` runs under load lost a
// navigate that way (measured). Ghostlight keeps its own clock per session,
// touched when a request starts and when it ends, and holds a session with
// an open request whatever its age. mcp-go's sweeper still runs, later by
// twice the call ceiling, only to drop its transport state of sessions that
// ended here: no request can stay open that long.

// idleSessions decides which sessions have idled out.
type idleSessions struct {
	ttl time.Duration

	mu   sync.Mutex
	seen map[string]*idleClock
}

type idleClock struct {
	last time.Time
	open int // requests in flight
}

func newIdleSessions(ttl time.Duration) *idleSessions {
	return &idleSessions{ttl: ttl, seen: map[string]*idleClock{}}
}

// begin records a request of session starting at now; end its finish.
// Only sessions created here (touch) are tracked: a request naming an id
// that never existed or already ended adds nothing.
func (s *idleSessions) begin(id string, now time.Time) func(time.Time) {
	return s.start(id, now, false)
}

func (s *idleSessions) start(id string, now time.Time, create bool) func(time.Time) {
	s.mu.Lock()
	c := s.seen[id]
	if c == nil {
		if !create {
			s.mu.Unlock()
			return func(time.Time) {}
		}
		c = &idleClock{}
		s.seen[id] = c
	}
	c.last = now
	c.open++
	s.mu.Unlock()
	return func(at time.Time) {
		s.mu.Lock()
		c.open--
		if at.After(c.last) {
			c.last = at
		}
		s.mu.Unlock()
	}
}

// touch records activity without a request (a session just created).
func (s *idleSessions) touch(id string, now time.Time) { s.start(id, now, true)(now) }

// expired removes and returns the sessions idle past ttl at now with no
// request open. It is the whole decision, fed times by its callers.
func (s *idleSessions) expired(now time.Time) []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []string
	for id, c := range s.seen {
		if c.open == 0 && now.Sub(c.last) > s.ttl {
			out = append(out, id)
			delete(s.seen, id)
		}
	}
	return out
}

// forget drops a session that ended otherwise (DELETE, Close).
func (s *idleSessions) forget(id string) {
	s.mu.Lock()
	delete(s.seen, id)
	s.mu.Unlock()
}

// idleManager is mcp-go's stateful session id manager, telling the clock
// about each new session.
type idleManager struct {
	*server.InsecureStatefulSessionIdManager
	idle *idleSessions
}

func (m idleManager) Generate() string {
	id := m.InsecureStatefulSessionIdManager.Generate()
	m.idle.touch(id, time.Now())
	return id
}

func (m idleManager) Terminate(id string) (bool, error) {
	m.idle.forget(id)
	return m.InsecureStatefulSessionIdManager.Terminate(id)
}

// mcpIdleTTL is the TTL handed to mcp-go's own sweeper.
func mcpIdleTTL(ttl time.Duration) time.Duration {
	return ttl + 2*time.Duration(surface.TimeoutMsMax)*time.Millisecond
}

// sweepIdle ends idle sessions every tick until ctx ends: their ids are
// terminated (later requests get 404) and their workspaces released.
func (e *Edge) sweepIdle(ctx context.Context, s *idleSessions, m idleManager) {
	tick := time.NewTicker(max(s.ttl/4, time.Duration(surface.IdleSweepMsMax)*time.Millisecond))
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case now := <-tick.C:
			for _, id := range s.expired(now) {
				e.log.Info("mcpedge: HTTP session idle past its expiry", "session", id)
				_, _ = m.InsecureStatefulSessionIdManager.Terminate(id)
				e.srv.UnregisterSession(context.Background(), id)
			}
		}
	}
}

// idleRequest wraps one HTTP request in the session's clock.
func idleRequest(s *idleSessions, r *http.Request) func() {
	if s == nil {
		return func() {}
	}
	id := r.Header.Get("Mcp-Session-Id")
	if id == "" {
		return func() {}
	}
	end := s.begin(id, time.Now())
	return func() { end(time.Now()) }
}

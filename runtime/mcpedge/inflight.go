package mcpedge

import (
	"context"
	"sync"
)

// inflight admits tool calls per session: at most limit at once, each on its
// own goroutine, none waiting behind another. It also ends a session in the
// right order: its calls are cancelled, and the session's release runs once
// the last of them has returned (never under a call still using its tabs).
type inflight struct {
	limit int

	mu sync.Mutex
	by map[string]*sessionCalls
}

// sessionCalls are the calls of one session in flight; guarded by inflight.mu.
type sessionCalls struct {
	calls   map[*admittedCall]struct{}
	ended   bool
	onEmpty func() // the session's release, once it ended and its calls returned
}

type admittedCall struct{ cancel context.CancelFunc }

func newInflight(limit int) *inflight {
	return &inflight{limit: limit, by: map[string]*sessionCalls{}}
}

// enter admits one call of session. ok is false, at once, when the session
// already has limit calls in flight. Otherwise ctx is parent cancelled also
// when the session ends, and leave must be called when the call returns.
func (f *inflight) enter(parent context.Context, session string) (ctx context.Context, leave func(), ok bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	s := f.by[session]
	if s == nil {
		s = &sessionCalls{calls: map[*admittedCall]struct{}{}}
		f.by[session] = s
	}
	if len(s.calls) >= f.limit {
		return nil, nil, false
	}
	ctx, cancel := context.WithCancel(parent)
	c := &admittedCall{cancel: cancel}
	s.calls[c] = struct{}{}
	return ctx, func() { f.leave(session, s, c) }, true
}

func (f *inflight) leave(session string, s *sessionCalls, c *admittedCall) {
	c.cancel()
	f.mu.Lock()
	delete(s.calls, c)
	var run func()
	if len(s.calls) == 0 {
		if f.by[session] == s {
			delete(f.by, session)
		}
		if s.ended {
			run, s.onEmpty = s.onEmpty, nil
		}
	}
	f.mu.Unlock()
	if run != nil {
		run()
	}
}

// end cancels the session's calls and runs release once they have all
// returned: now when none is in flight. A call admitted for the same session
// id afterwards starts a new entry.
func (f *inflight) end(session string, release func()) {
	f.mu.Lock()
	s := f.by[session]
	delete(f.by, session)
	if s == nil || len(s.calls) == 0 {
		f.mu.Unlock()
		release()
		return
	}
	s.ended, s.onEmpty = true, release
	calls := make([]*admittedCall, 0, len(s.calls))
	for c := range s.calls {
		calls = append(calls, c)
	}
	f.mu.Unlock()
	for _, c := range calls {
		c.cancel()
	}
}

// count is how many calls of session are in flight (tests, benchmarks).
func (f *inflight) count(session string) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	if s := f.by[session]; s != nil {
		return len(s.calls)
	}
	return 0
}

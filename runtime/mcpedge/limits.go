package mcpedge

import (
	"fmt"
	"time"
)

// Limits are the edge's bounds. The wiring fills them from the generated
// constants of spec/bounds.cue; New refuses a missing one, so no bound is
// ever off by omission.
type Limits struct {
	// SessionCalls is how many tool calls one session may have in flight.
	// A call past it is answered at once with Dispatcher.Busy; nothing
	// waits in a queue behind calls that may be stuck.
	SessionCalls int
	// RequestBytes bounds one inbound JSON-RPC message: an HTTP body (413
	// past it) or a stdio line (refused, and skipped without buffering).
	RequestBytes int
	// SessionIdle ends an HTTP session idle that long, which releases its
	// tabs. HTTPOptions.SessionIdleTTL overrides it per handler.
	SessionIdle time.Duration
	// EchoChars bounds the message of every JSON-RPC error the edge sends:
	// those messages may echo client-sent names (an unknown tool, a method).
	EchoChars int
	// LogValueChars bounds the message and every value the edge logs.
	LogValueChars int
	// StatelessIdle releases a stateless principal's workspace (its tabs and
	// browser context) idle that long (stateless.go).
	StatelessIdle time.Duration
	// StatelessPrincipals bounds the principals remembered without a
	// workspace, so a call on a released handle is told it was released.
	StatelessPrincipals int
	// DrainRetryAfter is the Retry-After a draining edge sends with its 503
	// to a request that would open a new workspace (ops.go).
	DrainRetryAfter time.Duration
}

func (l Limits) check() error {
	for _, f := range []struct {
		name string
		v    int64
	}{
		{"SessionCalls", int64(l.SessionCalls)},
		{"RequestBytes", int64(l.RequestBytes)},
		{"SessionIdle", int64(l.SessionIdle)},
		{"EchoChars", int64(l.EchoChars)},
		{"LogValueChars", int64(l.LogValueChars)},
		{"StatelessIdle", int64(l.StatelessIdle)},
		{"StatelessPrincipals", int64(l.StatelessPrincipals)},
		{"DrainRetryAfter", int64(l.DrainRetryAfter)},
	} {
		if f.v <= 0 {
			return &Error{Kind: KindInvalidOptions, Detail: fmt.Sprintf("Limits.%s must be positive", f.name)}
		}
	}
	return nil
}

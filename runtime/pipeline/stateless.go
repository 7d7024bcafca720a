package pipeline

import (
	"context"

	"github.com/ghostlight-dev/ghostlight/runtime/language"
)

type statelessKey struct{}

// WithStateless marks a call that has no protocol session (MCP 2026-07-28
// over HTTP): it runs in its principal's workspace, and a refusal about a
// missing or unknown tab or handle is worded for such a client
// (language.Stateless).
func WithStateless(ctx context.Context, st language.Stateless) context.Context {
	return context.WithValue(ctx, statelessKey{}, st)
}

func statelessOf(ctx context.Context) language.Stateless {
	st, _ := ctx.Value(statelessKey{}).(language.Stateless)
	return st
}

// stateless is how this invocation's client keeps its tabs (a composite's
// steps inherit their call's).
func (inv *Invocation) stateless() language.Stateless {
	for ; inv != nil; inv = inv.Parent {
		if inv.transport.On {
			return inv.transport
		}
	}
	return language.Stateless{}
}

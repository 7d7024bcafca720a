package pipeline

import "context"

type traceKey struct{}

// WithTraceParent carries the caller's W3C traceparent (validated by the
// MCP edge) to the call's audit line.
func WithTraceParent(ctx context.Context, tp string) context.Context {
	if tp == "" {
		return ctx
	}
	return context.WithValue(ctx, traceKey{}, tp)
}

func traceParentFrom(ctx context.Context) string {
	tp, _ := ctx.Value(traceKey{}).(string)
	return tp
}

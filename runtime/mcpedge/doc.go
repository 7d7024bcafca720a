// Package mcpedge is Ghostlight's MCP edge: it serves the generated tool
// surface over stdio and streamable HTTP with mcp-go (v1.2.1), and hands every
// tool call to the pipeline through the Dispatcher interface. It knows nothing
// of the browser nor of what the tools do.
//
// Where mcp-go falls short of what the edge promises, the edge works on the
// messages the transports write (outbound.go):
//   - tools/list serves each Definition byte for byte, also when mcp.Tool
//     would re-marshal it differently (annotation key order, HTML escaping);
//   - a call the client cancelled gets no answer (mcp-go would still send
//     the handler's result);
//   - over HTTP, progress travels on the call's own stream (mcp-go's shared
//     session channel can lose or misroute it).
//
// And on the way in, before mcp-go (stdio.go, inflight.go, inbound.go,
// http_body.go):
//   - over stdio the edge reads stdin itself and runs each tools/call on a
//     goroutine of its own, so mcp-go's reader (ping, cancellations) never
//     waits for a tool;
//   - a session has at most Limits.SessionCalls calls in flight; the next is
//     answered busy at once (Dispatcher.Busy), never queued;
//   - a message past Limits.RequestBytes is refused without being buffered
//     (HTTP: 413), and a malformed one is answered with its id when readable;
//   - error messages and log values are bounded (bound.go).
//
// Per session (advertise.go, roots.go):
//   - tools/list names the tools Options.Advertise allows when the session
//     starts, grows with notifications/tools/list_changed when it allows
//     more, and never shrinks; calls are not filtered (the pipeline refuses);
//   - the client's MCP roots are asked for once (roots/list) and kept until
//     notifications/roots/list_changed, for Call.Roots.
//
// Every MCP revision mcp-go speaks is served on both transports
// (versions.go). A 2026-07-28 request over HTTP has no session: it runs in
// the workspace its tab handles route to, or a fresh one (stateless.go).
//
// The in-process transport (tests only) bypasses the outbound filtering,
// and its tool calls meet the advertising filter.
package mcpedge

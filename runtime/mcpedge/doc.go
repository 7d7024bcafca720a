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
// The in-process transport (tests only) bypasses the first two.
package mcpedge

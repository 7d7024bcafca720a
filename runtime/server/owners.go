package server

import "github.com/ghostlight-dev/ghostlight/runtime/mcpedge"

// The edge releases a stateless principal's workspace at once when it holds
// no tab (MCP 2026-07-28 over HTTP, runtime/mcpedge/stateless.go).
var _ mcpedge.Owners = dispatcher{}

func (d dispatcher) Holds(session string) bool { return d.s.handler.Holds(session) }

package server

import "github.com/ghostlight-dev/ghostlight/runtime/mcpedge"

// The dispatcher routes calls without a protocol session (MCP 2026-07-28
// over HTTP) to the workspace their handles belong to.
var _ mcpedge.Owners = dispatcher{}

func (d dispatcher) Owner(handle string) (string, bool) { return d.s.handler.Owner(handle) }

func (d dispatcher) Holds(session string) bool { return d.s.handler.Holds(session) }

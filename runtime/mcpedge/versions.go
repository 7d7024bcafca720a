package mcpedge

import (
	"slices"

	"github.com/mark3labs/mcp-go/mcp"
)

// ProtocolVersions are the MCP revisions the edge serves over stdio and
// streamable HTTP, newest first: mcp-go's own list, never retyped.
func ProtocolVersions() []string { return slices.Clone(mcp.ValidProtocolVersions) }

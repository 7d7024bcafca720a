// Package clients drives the built ghostlight binary with real MCP client
// libraries, as users' clients do: the official Go SDK (over stdio and
// streamable HTTP, MCP 2026-07-28 and 2025-11-25), and, through Node, the
// Vercel AI SDK (@ai-sdk/mcp), the TypeScript SDK, the MCP Inspector CLI and
// Claude Code, run as `claude -p` against a stand-in model server on loopback
// (node/). It is a module of its own so that the main module carries none of
// these dependencies; `make clients` runs it.
package clients

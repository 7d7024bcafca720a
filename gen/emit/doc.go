// Package emit renders the IR into files in memory: Go (jennifer), MCP tool
// JSON and schemas, markdown docs, fixtures and the Operator claim.
package emit

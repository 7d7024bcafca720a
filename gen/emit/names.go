// Package emit renders the IR into files: Go (with jennifer), MCP tool JSON,
// Markdown docs and conformance fixtures. Every emitter is a pure function of
// the IR, so output is deterministic.
package emit

import "strings"

var initialisms = map[string]string{"url": "URL", "id": "ID", "urls": "URLs", "ms": "Ms", "mcp": "MCP", "json": "JSON", "gif": "GIF"}

// Camel turns snake_case into an exported Go name.
func Camel(s string) string {
	var b strings.Builder
	for _, part := range strings.FieldsFunc(s, func(r rune) bool { return r == '_' || r == '-' || r == ' ' }) {
		if v, ok := initialisms[part]; ok {
			b.WriteString(v)
			continue
		}
		b.WriteString(strings.ToUpper(part[:1]) + part[1:])
	}
	return b.String()
}

func lowerFirst(s string) string { return strings.ToLower(s[:1]) + s[1:] }

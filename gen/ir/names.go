package ir

import "strings"

var initialisms = map[string]string{"url": "URL", "id": "ID", "urls": "URLs", "ms": "Ms", "mcp": "MCP", "json": "JSON", "gif": "GIF"}

// Camel turns snake_case (or words separated by -, or spaces) into an
// exported Go name, keeping the initialisms Go spells in capitals. The
// loader computes every Go name with it once; emitters read the names.
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

package mcpedge

import (
	"bytes"
	"encoding/json"
	"fmt"
	"unicode/utf8"

	"github.com/mark3labs/mcp-go/mcp"
)

// definitionKeys are the tool keys the edge serves; any other key is refused
// at startup rather than silently dropped by mcp.Tool.
var definitionKeys = map[string]bool{
	"annotations": true, "description": true, "icons": true, "inputSchema": true,
	"name": true, "outputSchema": true, "title": true,
}

// rewrite maps the bytes mcp-go writes for one tool to the generator's bytes.
type rewrite struct {
	tool     string
	from, to []byte
}

// buildTools turns the generator's definitions into mcp.Tool values. mcp-go
// re-marshals a tool through a map and a fixed annotations struct, so a
// definition whose annotation keys are ordered differently, or whose strings
// are escaped differently, comes out changed; for those the returned rewrites
// let the transports serve the generator's bytes instead.
func buildTools(tools []Tool) ([]mcp.Tool, []rewrite, error) {
	out := make([]mcp.Tool, 0, len(tools))
	var rewrites []rewrite
	seen := make(map[string]bool, len(tools))
	for _, t := range tools {
		if seen[t.Name] {
			return nil, nil, &Error{Kind: KindDuplicateTool, Tool: t.Name}
		}
		seen[t.Name] = true
		mt, err := parseDefinition(t)
		if err != nil {
			return nil, nil, err
		}
		canonical, err := json.Marshal(mt)
		if err != nil {
			return nil, nil, &Error{Kind: KindInvalidDefinition, Tool: t.Name, Detail: "mcp-go cannot marshal it", Err: err}
		}
		if !bytes.Equal(canonical, t.Definition) {
			rewrites = append(rewrites, rewrite{tool: t.Name, from: canonical, to: bytes.Clone(t.Definition)})
		}
		out = append(out, mt)
	}
	return out, rewrites, nil
}

func parseDefinition(t Tool) (mcp.Tool, error) {
	bad := func(detail string, err error) (mcp.Tool, error) {
		return mcp.Tool{}, &Error{Kind: KindInvalidDefinition, Tool: t.Name, Detail: detail, Err: err}
	}
	def := t.Definition
	if t.Name == "" {
		return bad("empty tool name", nil)
	}
	if !utf8.Valid(def) {
		return bad("not UTF-8", nil)
	}
	var compact bytes.Buffer
	if err := json.Compact(&compact, def); err != nil {
		return bad("not JSON", err)
	}
	// The bytes are written verbatim into newline-framed stdio messages: only
	// compact JSON is safe there.
	if !bytes.Equal(compact.Bytes(), def) {
		return bad("not compact JSON", nil)
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(def, &fields); err != nil {
		return bad("not a JSON object", err)
	}
	for k := range fields {
		if !definitionKeys[k] {
			return bad(fmt.Sprintf("unsupported key %q", k), nil)
		}
	}
	var d struct {
		Name         string             `json:"name"`
		Title        string             `json:"title"`
		Description  string             `json:"description"`
		InputSchema  json.RawMessage    `json:"inputSchema"`
		OutputSchema json.RawMessage    `json:"outputSchema"`
		Annotations  mcp.ToolAnnotation `json:"annotations"`
		Icons        []mcp.Icon         `json:"icons"`
	}
	if err := json.Unmarshal(def, &d); err != nil {
		return bad("malformed tool object", err)
	}
	if d.Name != t.Name {
		return bad(fmt.Sprintf("definition names %q", d.Name), nil)
	}
	if !isObject(d.InputSchema) {
		return bad("inputSchema must be an object", nil)
	}
	if d.OutputSchema != nil && !isObject(d.OutputSchema) {
		return bad("outputSchema must be an object", nil)
	}
	// InputSchema.Type stays "": mcp-go refuses a tool with both schemas set.
	return mcp.Tool{
		Name:            d.Name,
		Title:           d.Title,
		Description:     d.Description,
		RawInputSchema:  d.InputSchema,
		RawOutputSchema: d.OutputSchema,
		Annotations:     d.Annotations,
		Icons:           d.Icons,
	}, nil
}

func isObject(raw json.RawMessage) bool {
	raw = bytes.TrimLeft(raw, " \t\r\n")
	return len(raw) > 0 && raw[0] == '{'
}

package conformance

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
)

// declarationBytes measures the catalog the way issue 24 compares it with
// the peers: what a model reads (name, description, inputSchema; compact
// JSON), every outputSchema together, and the whole tools/list result.
func declarationBytes(t *testing.T) (model, output, whole int) {
	t.Helper()
	var defs []json.RawMessage
	for _, tool := range surface.Catalog {
		var d map[string]json.RawMessage
		if err := json.Unmarshal(tool.Definition, &d); err != nil {
			t.Fatal(err)
		}
		visible := map[string]json.RawMessage{"name": d["name"], "description": d["description"], "inputSchema": d["inputSchema"]}
		b, err := json.Marshal(visible)
		if err != nil {
			t.Fatal(err)
		}
		model += len(b)
		var compact bytes.Buffer
		if err := json.Compact(&compact, d["outputSchema"]); err != nil {
			t.Fatalf("%s: %v", tool.Name, err)
		}
		output += compact.Len()
		defs = append(defs, tool.Definition)
	}
	list, err := json.Marshal(map[string]any{"tools": defs})
	if err != nil {
		t.Fatal(err)
	}
	return model, output, len(list)
}

// TestDeclarationBytes prints the three figures and holds each to its bound
// in spec/bounds_declarations.cue. Before issue 24: 39,897 B, 146,837 B and
// 193,930 B.
func TestDeclarationBytes(t *testing.T) {
	model, output, whole := declarationBytes(t)
	t.Logf("%d tools: model-visible declarations %d B (bound %d), output schemas %d B (bound %d), tools/list %d B (bound %d)",
		len(surface.Catalog), model, surface.DeclarationModelBytesMax, output, surface.OutputSchemaBytesMax, whole, surface.ToolsListBytesMax)
	for _, c := range []struct {
		what     string
		got, max int
	}{
		{"model-visible declarations", model, surface.DeclarationModelBytesMax},
		{"output schemas", output, surface.OutputSchemaBytesMax},
		{"tools/list", whole, surface.ToolsListBytesMax},
	} {
		if c.got > c.max {
			t.Errorf("%s: %d bytes exceed the bound of %d (spec/bounds_declarations.cue)", c.what, c.got, c.max)
		}
	}
}

// Package conformance holds the generated surface and the live server to the
// contract: schemas, fixtures, profile, budget, and (in live tests) every
// envelope the server returns.
package conformance

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
)

// definition is the decoded MCP tool definition.
type definition struct {
	Name         string          `json:"name"`
	Title        string          `json:"title"`
	Description  string          `json:"description"`
	InputSchema  json.RawMessage `json:"inputSchema"`
	OutputSchema json.RawMessage `json:"outputSchema"`
	Annotations  map[string]bool `json:"annotations"`
}

func definitionOf(t *testing.T, tool *surface.Tool) definition {
	t.Helper()
	var d definition
	if err := json.Unmarshal(tool.Definition, &d); err != nil {
		t.Fatalf("%s: definition is not JSON: %v", tool.Name, err)
	}
	return d
}

// compile compiles one schema under draft 2020-12 with format assertions.
func compile(t testing.TB, url string, raw json.RawMessage) *jsonschema.Schema {
	t.Helper()
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		t.Fatalf("%s: %v", url, err)
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	c.AssertFormat()
	if err := c.AddResource(url, doc); err != nil {
		t.Fatalf("%s: %v", url, err)
	}
	s, err := c.Compile(url)
	if err != nil {
		t.Fatalf("%s: does not compile: %v", url, err)
	}
	return s
}

// inputSchemas compiles every tool's input schema once.
func inputSchemas(t testing.TB) map[string]*jsonschema.Schema {
	out := map[string]*jsonschema.Schema{}
	for _, tool := range surface.Catalog {
		var d definition
		if err := json.Unmarshal(tool.Definition, &d); err != nil {
			t.Fatal(err)
		}
		out[tool.Name] = compile(t, "mem://"+tool.Name+"/input.json", d.InputSchema)
	}
	return out
}

// OutputSchemas compiles every tool's output schema once.
func outputSchemas(t testing.TB) map[string]*jsonschema.Schema {
	out := map[string]*jsonschema.Schema{}
	for _, tool := range surface.Catalog {
		var d definition
		if err := json.Unmarshal(tool.Definition, &d); err != nil {
			t.Fatal(err)
		}
		out[tool.Name] = compile(t, "mem://"+tool.Name+"/output.json", d.OutputSchema)
	}
	return out
}

func TestEverySchemaCompiles(t *testing.T) {
	in, out := inputSchemas(t), outputSchemas(t)
	if len(in) != len(surface.Catalog) || len(out) != len(surface.Catalog) {
		t.Fatalf("compiled %d input and %d output schemas for %d tools", len(in), len(out), len(surface.Catalog))
	}
}

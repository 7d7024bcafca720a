// Package conformance holds the generated surface and the live server to the
// contract: schemas, fixtures, profile, budget, and (in live tests) every
// envelope the server returns.
package conformance

import (
	"encoding/json"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/ghostlight-dev/ghostlight/conformance/schemacheck"
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
	Icons        []struct {
		Src string `json:"src"`
	} `json:"icons"`
}

func definitionOf(t *testing.T, tool *surface.Tool) definition {
	t.Helper()
	var d definition
	if err := json.Unmarshal(tool.Definition, &d); err != nil {
		t.Fatalf("%s: definition is not JSON: %v", tool.Name, err)
	}
	return d
}

// compile compiles one schema, failing the test when it does not.
func compile(t testing.TB, url string, raw json.RawMessage) *jsonschema.Schema {
	t.Helper()
	s, err := schemacheck.Compile(url, raw)
	if err != nil {
		t.Fatalf("%s: does not compile: %v", url, err)
	}
	return s
}

// inputSchemas compiles every tool's input schema.
func inputSchemas(t testing.TB) map[string]*jsonschema.Schema {
	out := map[string]*jsonschema.Schema{}
	for _, tool := range surface.Catalog {
		in, _, err := schemacheck.Schemas(tool.Name)
		if err != nil {
			t.Fatal(err)
		}
		out[tool.Name] = in
	}
	return out
}

func TestEverySchemaCompiles(t *testing.T) {
	for _, tool := range surface.Catalog {
		d := definitionOf(t, tool)
		compile(t, "mem://"+tool.Name+"/input.json", d.InputSchema)
		compile(t, "mem://"+tool.Name+"/output.json", d.OutputSchema)
	}
}

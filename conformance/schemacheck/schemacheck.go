// Package schemacheck compiles the generated tool schemas with
// santhosh-tekuri/jsonschema (draft 2020-12, formats asserted) and validates
// inputs and envelopes against them. Tests anywhere in the repository use it
// to hold what they see to the published contract.
package schemacheck

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
)

// Definition is a decoded MCP tool definition.
type Definition struct {
	Name         string          `json:"name"`
	Title        string          `json:"title"`
	Description  string          `json:"description"`
	InputSchema  json.RawMessage `json:"inputSchema"`
	OutputSchema json.RawMessage `json:"outputSchema"`
	Annotations  map[string]bool `json:"annotations"`
}

// DefinitionOf decodes a catalog entry's definition.
func DefinitionOf(t *surface.Tool) (Definition, error) {
	var d Definition
	err := json.Unmarshal(t.Definition, &d)
	return d, err
}

// Compile compiles one schema document.
func Compile(url string, raw json.RawMessage) (*jsonschema.Schema, error) {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", url, err)
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	c.AssertFormat()
	if err := c.AddResource(url, doc); err != nil {
		return nil, fmt.Errorf("%s: %w", url, err)
	}
	return c.Compile(url)
}

type compiled struct{ in, out *jsonschema.Schema }

var (
	once    sync.Once
	schemas map[string]compiled
	loadErr error
)

func load() {
	schemas = map[string]compiled{}
	for _, t := range surface.Catalog {
		d, err := DefinitionOf(t)
		if err != nil {
			loadErr = err
			return
		}
		in, err := Compile("mem://"+t.Name+"/input.json", d.InputSchema)
		if err != nil {
			loadErr = err
			return
		}
		out, err := Compile("mem://"+t.Name+"/output.json", d.OutputSchema)
		if err != nil {
			loadErr = err
			return
		}
		schemas[t.Name] = compiled{in, out}
	}
}

// Schemas returns a tool's compiled input and output schemas.
func Schemas(tool string) (in, out *jsonschema.Schema, err error) {
	once.Do(load)
	if loadErr != nil {
		return nil, nil, loadErr
	}
	c, ok := schemas[tool]
	if !ok {
		return nil, nil, fmt.Errorf("no tool %q", tool)
	}
	return c.in, c.out, nil
}

// Envelope validates one envelope (JSON) against the tool's output schema.
func Envelope(tool string, envelope []byte) error {
	_, out, err := Schemas(tool)
	if err != nil {
		return err
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(envelope))
	if err != nil {
		return err
	}
	return out.Validate(doc)
}

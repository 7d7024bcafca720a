package conformance

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// TestRegistryEntry: server.json, Ghostlight's MCP registry entry, is valid
// against the registry's published schema (vendored in docs/registry, see its
// README), formats asserted, and so is the copy `make dist` stamps with a
// release version. It names the npm launcher `make dist` builds, run as
// `npx ghostlight-mcp serve` over stdio.
func TestRegistryEntry(t *testing.T) {
	root := filepath.Join("..")
	schemaBytes, err := os.ReadFile(filepath.Join(root, "docs", "registry", "server.schema.json"))
	if err != nil {
		t.Fatal(err)
	}
	schemaDoc, err := jsonschema.UnmarshalJSON(bytes.NewReader(schemaBytes))
	if err != nil {
		t.Fatal(err)
	}
	const id = "https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json"
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	if err := c.AddResource(id, schemaDoc); err != nil {
		t.Fatal(err)
	}
	sch, err := c.Compile(id)
	if err != nil {
		t.Fatal(err)
	}
	raw, err := os.ReadFile(filepath.Join(root, "server.json"))
	if err != nil {
		t.Fatal(err)
	}
	var entry struct {
		Schema   string `json:"$schema"`
		Name     string `json:"name"`
		Version  string `json:"version"`
		Packages []struct {
			RegistryType, Identifier, Version string
			Transport                         struct{ Type string }
			PackageArguments                  []struct{ Type, Value string }
		}
	}
	if err := json.Unmarshal(raw, &entry); err != nil {
		t.Fatal(err)
	}
	if entry.Schema != id {
		t.Errorf("server.json's $schema is %q, want the vendored schema's %q", entry.Schema, id)
	}
	if entry.Name != "io.github.ghostlight-dev/ghostlight" || len(entry.Packages) != 1 {
		t.Fatalf("server.json: %+v", entry)
	}
	p := entry.Packages[0]
	if p.RegistryType != "npm" || p.Identifier != "ghostlight-mcp" || p.Transport.Type != "stdio" ||
		len(p.PackageArguments) != 1 || p.PackageArguments[0].Value != "serve" || p.Version != entry.Version {
		t.Errorf("server.json's package is %+v, want npm ghostlight-mcp, stdio, argument serve, version %s", p, entry.Version)
	}
	// As published: the entry, then dist's copy with a release version.
	for _, version := range []string{entry.Version, "1.4.0", "0.0.0-dev.g4468756-dirty"} {
		stamped := strings.ReplaceAll(string(raw), `"version": "`+entry.Version+`"`, `"version": "`+version+`"`)
		doc, err := jsonschema.UnmarshalJSON(strings.NewReader(stamped))
		if err != nil {
			t.Fatal(err)
		}
		if err := sch.Validate(doc); err != nil {
			t.Errorf("server.json with version %s is not valid against the registry's schema: %v", version, err)
		}
	}
	// The schema does bite: a description over its 100 characters is refused.
	var bad map[string]any
	if err := json.Unmarshal(raw, &bad); err != nil {
		t.Fatal(err)
	}
	bad["description"] = strings.Repeat("x", 101)
	if err := sch.Validate(bad); err == nil {
		t.Error("a 101-character description passed the registry schema")
	}
}

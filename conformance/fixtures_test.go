package conformance

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
)

type fixtureFile struct {
	Tool  string    `json:"tool"`
	Cases []fixture `json:"cases"`
}

type fixture struct {
	Name      string          `json:"name"`
	Input     json.RawMessage `json:"input"`
	InputText string          `json:"input_text"`
	Schema    string          `json:"schema"`
	Stricter  string          `json:"stricter"`
	Decode    struct {
		OK      bool            `json:"ok"`
		Value   json.RawMessage `json:"value"`
		Pointer *string         `json:"pointer"`
		Rule    string          `json:"rule"`
	} `json:"decode"`
}

func (f fixture) raw() []byte {
	if f.InputText != "" {
		return []byte(f.InputText)
	}
	return f.Input
}

func loadFixtures(t testing.TB) []fixtureFile {
	t.Helper()
	paths, err := filepath.Glob("../generated/fixtures/*.json")
	if err != nil || len(paths) == 0 {
		t.Fatalf("no fixtures: %v", err)
	}
	var out []fixtureFile
	for _, p := range paths {
		if filepath.Base(p) == "capabilities.json" {
			continue // the capability table, not a tool's cases (capabilities_test.go)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		var ff fixtureFile
		if err := json.Unmarshal(b, &ff); err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		out = append(out, ff)
	}
	return out
}

func semanticEqual(a, b []byte) bool {
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return false
	}
	return reflect.DeepEqual(x, y)
}

// TestFixtures runs every fixture through the tool's JSON Schema and the
// generated decoder. Where the decoder refuses what the schema accepts, the
// fixture names the decoder-only rule (branch rules, handle formats, bounds
// the schema leaves out to keep discovery small) and the test checks exactly
// that case by case.
func TestFixtures(t *testing.T) {
	schemas := inputSchemas(t)
	total, stricter := 0, map[string]int{}
	for _, ff := range loadFixtures(t) {
		tool := surface.Lookup(ff.Tool)
		if tool == nil {
			t.Fatalf("fixtures for unknown tool %s", ff.Tool)
		}
		for _, c := range ff.Cases {
			total++
			t.Run(ff.Tool+"/"+c.Name, func(t *testing.T) {
				if c.Schema != "n/a" {
					doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(c.raw()))
					if err != nil {
						t.Fatalf("fixture input is not JSON: %v", err)
					}
					err = schemas[ff.Tool].Validate(doc)
					if got := map[bool]string{true: "accept", false: "reject"}[err == nil]; got != c.Schema {
						t.Errorf("schema: got %s, want %s (%v)", got, c.Schema, err)
					}
				}
				args, derr := tool.Decode(c.raw())
				if c.Decode.OK {
					if derr != nil {
						t.Fatalf("decode refused: %v (%s %s)", derr, derr.Pointer, derr.Rule)
					}
					got, err := json.Marshal(args)
					if err != nil {
						t.Fatal(err)
					}
					if !semanticEqual(got, c.Decode.Value) {
						t.Errorf("decoded\n got %s\nwant %s", got, c.Decode.Value)
					}
					return
				}
				if derr == nil {
					t.Fatalf("decode accepted, want %s at %q", c.Decode.Rule, *c.Decode.Pointer)
				}
				if derr.Pointer != *c.Decode.Pointer || string(derr.Rule) != c.Decode.Rule {
					t.Errorf("decode error %q %s, want %q %s (%s)", derr.Pointer, derr.Rule, *c.Decode.Pointer, c.Decode.Rule, derr.Message)
				}
				if derr.Message == "" {
					t.Error("decode error has no message")
				}
				if c.Schema == "accept" {
					if c.Stricter != c.Decode.Rule {
						t.Errorf("schema accepts but the fixture names stricter %q, not %q", c.Stricter, c.Decode.Rule)
					}
				}
			})
			if c.Schema == "accept" && !c.Decode.OK {
				stricter[c.Decode.Rule]++
			}
		}
	}
	t.Logf("%d fixtures; decoder stricter than schema by rule: %v", total, stricter)
}

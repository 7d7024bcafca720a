package conformance

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
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
	Lenient   string          `json:"lenient"`
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
					if !acrossFields[c.Stricter] {
						t.Errorf("the decoder refuses by %q what the schema accepts: a limit of one field must be in the schema", c.Stricter)
					}
				}
			})
			if c.Schema == "reject" && c.Decode.OK {
				checkLenient(t, ff.Tool, c)
			}
			if c.Schema == "accept" && !c.Decode.OK {
				stricter[c.Decode.Rule]++
			}
		}
	}
	t.Logf("%d fixtures; decoder stricter than schema by rule: %v", total, stricter)
}

// acrossFields are the only rules by which the decoder may refuse what a
// schema accepts: rules between fields (branches, conflicts, a text empty
// only with a flag, items unique by one member), a key given twice, a lone
// surrogate (JSON Schema sees decoded text, where it is U+FFFD), and the
// decoder-only limits the schema leaves out to keep declarations small:
// string length caps, list item caps, handle and format patterns (a key's
// pattern stays). Types, required fields, enums, numeric ranges and
// minimum lengths are stated (docs/decisions/discovery-budget.md).
var acrossFields = map[string]bool{"branch_forbidden": true, "branch_required": true, "conflict": true,
	"empty_text": true, "unique": true, "duplicate_field": true, "utf8": true,
	"max_length": true, "max_items": true, "handle": true, "url": true, "format": true}

// checkLenient holds the decoder's only leniencies beyond the schema: a null
// for an optional field reads as not given, and a client-added field is
// ignored at the root.
func checkLenient(t *testing.T, tool string, c fixture) {
	t.Helper()
	var in map[string]any
	if err := json.Unmarshal(c.raw(), &in); err != nil {
		t.Fatal(err)
	}
	switch c.Lenient {
	case "null":
		if !holdsNull(in) {
			t.Errorf("%s/%s: the decoder accepts what the schema refuses, and the input holds no null", tool, c.Name)
		}
	case "client_added":
		found := false
		for _, n := range surface.ClientAddedFields {
			_, ok := in[n]
			found = found || ok
		}
		if !found {
			t.Errorf("%s/%s: lenient client_added without a client-added field", tool, c.Name)
		}
	default:
		t.Errorf("%s/%s: the decoder accepts what the schema refuses (lenient %q)", tool, c.Name, c.Lenient)
	}
}

func holdsNull(v any) bool {
	switch v := v.(type) {
	case nil:
		return true
	case map[string]any:
		for _, x := range v {
			if holdsNull(x) {
				return true
			}
		}
	case []any:
		for _, x := range v {
			if holdsNull(x) {
				return true
			}
		}
	}
	return false
}

// TestEveryFieldHasAgreementCases walks every tool's input schema: each
// property (nested objects and list items included) has generated fixtures
// for a wrong type and for null, so the schema and the decoder are compared
// on it. Sequence steps and flow arguments decode with their tool's own
// decoder and are compared there.
func TestEveryFieldHasAgreementCases(t *testing.T) {
	names := map[string]map[string]bool{}
	for _, ff := range loadFixtures(t) {
		names[ff.Tool] = map[string]bool{}
		for _, c := range ff.Cases {
			names[ff.Tool][c.Name] = true
		}
	}
	fields := 0
	for _, tool := range surface.Catalog {
		var in map[string]any
		if err := json.Unmarshal(definitionOf(t, tool).InputSchema, &in); err != nil {
			t.Fatal(err)
		}
		var walk func(path string, s map[string]any)
		walk = func(path string, s map[string]any) {
			props, _ := s["properties"].(map[string]any)
			for name, p := range props {
				ps := p.(map[string]any)
				at := strings.TrimPrefix(path+"/"+name, "/")
				fields++
				if !names[tool.Name][at+": wrong type"] {
					t.Errorf("%s: no wrong-type fixture for %s", tool.Name, at)
				}
				if !names[tool.Name][at+": null"] && !names[tool.Name][at+": null reads as not given"] && !strings.HasSuffix(at, "/0") && !requiredBy(in, at) {
					t.Errorf("%s: no null fixture for %s", tool.Name, at)
				}
				switch {
				case ps["type"] == "object" && ps["properties"] != nil:
					walk(at, ps)
				case ps["type"] == "array":
					if items, _ := ps["items"].(map[string]any); items["type"] == "object" && !(tool.Name == "browser_sequence" || tool.Name == "browser_flow") {
						walk(at+"/0", items)
					}
				}
			}
		}
		walk("", in)
	}
	t.Logf("%d input fields compared between schema and decoder", fields)
}

// requiredBy reports whether the schema requires the field at a path: its
// null is a type error, which the wrong-type family covers.
func requiredBy(root map[string]any, at string) bool {
	s := root
	parts := strings.Split(at, "/")
	for i, p := range parts {
		if p == "0" {
			s, _ = s["items"].(map[string]any)
			continue
		}
		if i == len(parts)-1 {
			req, _ := s["required"].([]any)
			for _, r := range req {
				if r == p {
					return true
				}
			}
			return false
		}
		props, _ := s["properties"].(map[string]any)
		s, _ = props[p].(map[string]any)
	}
	return false
}

package conformance

import (
	"encoding/json"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
)

// contractTools is the 1.0 catalog, typed here on purpose: this test is the
// check that the spec still matches the contract document.
var contractTools = []string{
	"browser_click", "browser_diagnose", "browser_dialog", "browser_drag", "browser_execute",
	"browser_fill_form", "browser_find", "browser_flow", "browser_history", "browser_hover",
	"browser_inspect", "browser_navigate", "browser_press_key", "browser_read", "browser_record",
	"browser_screenshot", "browser_scroll", "browser_sequence", "browser_tabs", "browser_type_text",
	"browser_upload", "browser_wait", "browser_window", "policy_explain",
}

func TestSurfaceIsExactlyTheContract(t *testing.T) {
	var got []string
	name := regexp.MustCompile(`^[a-z][a-z0-9_]*$`)
	for _, tool := range surface.Catalog {
		got = append(got, tool.Name)
		if !name.MatchString(tool.Name) || len(tool.Name) > 30 {
			t.Errorf("tool name %q breaks ^[a-z][a-z0-9_]*$ or 30 characters", tool.Name)
		}
		d := definitionOf(t, tool)
		if d.Name != tool.Name || d.Title != tool.Title || d.Description == "" {
			t.Errorf("%s: definition name/title/description disagree with the catalog", tool.Name)
		}
	}
	sort.Strings(got)
	if strings.Join(got, ",") != strings.Join(contractTools, ",") {
		t.Fatalf("surface\n got %v\nwant %v", got, contractTools)
	}
}

// TestAnnotations checks the effective hints (MCP defaults applied) match the
// catalog's, so omitting a default-valued hint never changes its meaning.
func TestAnnotations(t *testing.T) {
	defaults := map[string]bool{"readOnlyHint": false, "destructiveHint": true, "idempotentHint": false, "openWorldHint": true}
	for _, tool := range surface.Catalog {
		d := definitionOf(t, tool)
		eff := map[string]bool{}
		for k, v := range defaults {
			eff[k] = v
		}
		for k, v := range d.Annotations {
			if _, ok := defaults[k]; !ok {
				t.Errorf("%s: unknown annotation %s", tool.Name, k)
			}
			eff[k] = v
		}
		if _, ok := d.Annotations["readOnlyHint"]; !ok {
			t.Errorf("%s: readOnlyHint must be stated", tool.Name)
		}
		a := tool.Annotations
		if eff["readOnlyHint"] != a.ReadOnly || eff["idempotentHint"] != a.Idempotent || eff["openWorldHint"] != a.OpenWorld || (!a.ReadOnly && eff["destructiveHint"] != a.Destructive) {
			t.Errorf("%s: effective hints %v disagree with the catalog %+v", tool.Name, eff, a)
		}
	}
}

// TestPortableProfile holds every input schema to what every major client
// accepts, and every output schema to a root object.
func TestPortableProfile(t *testing.T) {
	for _, tool := range surface.Catalog {
		d := definitionOf(t, tool)
		var in, out map[string]any
		if err := json.Unmarshal(d.InputSchema, &in); err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(d.OutputSchema, &out); err != nil {
			t.Fatal(err)
		}
		for _, root := range []map[string]any{in, out} {
			if root["type"] != "object" {
				t.Errorf("%s: root type is %v", tool.Name, root["type"])
			}
			for _, k := range []string{"oneOf", "anyOf", "allOf"} {
				if _, ok := root[k]; ok {
					t.Errorf("%s: root %s", tool.Name, k)
				}
			}
		}
		if _, ok := in["properties"]; !ok {
			t.Errorf("%s: input root has no properties", tool.Name)
		}
		checkPortable(t, tool.Name, "", in, false)
	}
}

// open lists the fields whose value is any object by design: a flow step's
// arguments are the named tool's own, checked by that tool's decoder.
var open = map[string]bool{"browser_flow:/properties/steps/items/properties/arguments": true}

func checkPortable(t *testing.T, tool, at string, s map[string]any, isField bool) {
	for _, k := range []string{"$ref", "$defs", "const", "oneOf", "allOf"} {
		if _, ok := s[k]; ok {
			t.Errorf("%s%s: uses %s", tool, at, k)
		}
	}
	if _, ok := s["type"].([]any); ok {
		t.Errorf("%s%s: type array", tool, at)
	}
	if d, _ := s["description"].(string); isField && d == "" {
		t.Errorf("%s%s: no description", tool, at)
	}
	if s["type"] == "array" {
		items, ok := s["items"].(map[string]any)
		if !ok {
			t.Errorf("%s%s: array without items", tool, at)
		} else {
			checkPortable(t, tool, at+"/items", items, false)
		}
	}
	if s["type"] == "object" && !open[tool+":"+at] {
		if s["additionalProperties"] != false {
			t.Errorf("%s%s: object not closed", tool, at)
		}
		props, _ := s["properties"].(map[string]any)
		for name, p := range props {
			checkPortable(t, tool, at+"/properties/"+name, p.(map[string]any), true)
		}
	}
	if alts, ok := s["anyOf"].([]any); ok {
		for i, a := range alts {
			checkPortable(t, tool, at+"/anyOf/"+string(rune('0'+i)), a.(map[string]any), false)
		}
	}
}

// TestDiscoveryBudget holds the serialized tools list's input side (names,
// titles, descriptions, input schemas, annotations) to the spec's budget and
// prints the full size.
func TestDiscoveryBudget(t *testing.T) {
	input, full := 0, 0
	for _, tool := range surface.Catalog {
		var d map[string]json.RawMessage
		if err := json.Unmarshal(tool.Definition, &d); err != nil {
			t.Fatal(err)
		}
		full += len(tool.Definition)
		delete(d, "outputSchema")
		b, err := json.Marshal(d)
		if err != nil {
			t.Fatal(err)
		}
		input += len(b)
	}
	t.Logf("tools list: input side %d bytes (budget %d), full %d bytes with output schemas", input, surface.DiscoveryInputBytesMax, full)
	if input > surface.DiscoveryInputBytesMax {
		t.Fatalf("input side %d bytes exceeds the budget of %d", input, surface.DiscoveryInputBytesMax)
	}
}

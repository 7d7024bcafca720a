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

// TestAnnotations checks every tool states all four MCP hints, equal to the
// catalog's: a client reads a missing hint as the MCP default (destructive,
// not idempotent, open world), so none may be left to it. It also holds each
// hint to what the tool can do, and every tool to a title and a small icon.
func TestAnnotations(t *testing.T) {
	for _, tool := range surface.Catalog {
		d := definitionOf(t, tool)
		want := map[string]bool{"readOnlyHint": tool.Annotations.ReadOnly, "destructiveHint": tool.Annotations.Destructive,
			"idempotentHint": tool.Annotations.Idempotent, "openWorldHint": tool.Annotations.OpenWorld}
		if len(d.Annotations) != len(want) {
			t.Errorf("%s: annotations %v, want exactly the four hints", tool.Name, d.Annotations)
		}
		for k, v := range want {
			if got, ok := d.Annotations[k]; !ok || got != v {
				t.Errorf("%s: %s = %v (stated %v), want %v", tool.Name, k, got, ok, v)
			}
		}
		a := tool.Annotations
		if a.ReadOnly && (a.Destructive || !a.Idempotent) {
			t.Errorf("%s: a read-only tool is neither destructive nor unrepeatable", tool.Name)
		}
		if tool.Name != "policy_explain" && !a.OpenWorld {
			t.Errorf("%s: every browser tool acts on pages of the open web", tool.Name)
		}
		if d.Title == "" || d.Title == tool.Name {
			t.Errorf("%s: no human title", tool.Name)
		}
		if len(d.Icons) != 1 || !strings.HasPrefix(d.Icons[0].Src, "data:image/svg+xml,") || len(d.Icons[0].Src) > 200 {
			t.Errorf("%s: want one small embedded SVG icon, got %+v", tool.Name, d.Icons)
		}
	}
	// What each tool can do, reviewed by hand: a tool that can change the
	// page, send data or close something is neither read-only nor
	// idempotent, and destructive when what it changes cannot be taken back.
	mutating := []string{"browser_click", "browser_dialog", "browser_drag", "browser_execute", "browser_fill_form",
		"browser_flow", "browser_press_key", "browser_record", "browser_sequence", "browser_tabs", "browser_type_text", "browser_upload"}
	for _, n := range mutating {
		a := surface.Lookup(n).Annotations
		if a.ReadOnly || !a.Destructive || a.Idempotent {
			t.Errorf("%s can mutate, send or close: want readOnly=false, destructive=true, idempotent=false, got %+v", n, a)
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

// undescribed lists where properties carry no description: a sequence step's
// fields are its action's tool's own, described in that tool's schema (the
// sequence's description says so), issue 24. The step's action is described.
var undescribed = map[string]string{"browser_sequence": "/properties/steps/items/properties/"}

// evident names the fields spec/ marks evident: their name, type, enum and
// range say what the value is, so the advertised schema carries no
// description (issue 24; gen's TestEvidentFieldsUndescribed holds the exact
// set per tool). Any other property without a description fails.
var evident = map[string]bool{"restrict_hosts": true, "restrict_capabilities": true, "timeout_ms": true,
	"action": true, "amount": true, "arguments": true, "button": true, "bypass_cache": true, "clear_first": true,
	"condition": true, "direction": true, "files": true, "data_base64": true, "full_page": true,
	"limit": true, "max_chars": true, "max_depth": true, "max_items": true, "max_result_chars": true,
	"max_results": true, "modifiers": true, "new_tab": true, "on_error": true, "percent": true, "repeat": true,
	"scope": true, "selector": true, "source": true, "steps": true, "tool": true, "exact": true}

func described(tool, at string) bool {
	if evident[at[strings.LastIndex(at, "/")+1:]] {
		return false
	}
	p, ok := undescribed[tool]
	return !ok || !strings.HasPrefix(at, p) || at == p+"action"
}

func checkPortable(t *testing.T, tool, at string, s map[string]any, isField bool) {
	for _, k := range []string{"$ref", "$defs", "const", "oneOf", "allOf"} {
		if _, ok := s[k]; ok {
			t.Errorf("%s%s: uses %s", tool, at, k)
		}
	}
	if _, ok := s["type"].([]any); ok {
		t.Errorf("%s%s: type array", tool, at)
	}
	if d, _ := s["description"].(string); isField && d == "" && described(tool, at) {
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

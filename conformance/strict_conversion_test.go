package conformance

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
)

// strictOpenAllowed are the only places a tool's input schema may stay open
// under OpenAI strict conversion: a flow step's arguments are its tool's
// own, so no one closed object describes them (docs/clients.md, OpenAI
// strict mode, says what to do instead).
var strictOpenAllowed = map[string]bool{"browser_flow: steps[].arguments": true}

// strictConvert rewrites a schema as OpenAI's strict converters do (the
// OpenAI Agents SDK's convert_schemas_to_strict): every object closed with
// additionalProperties false and every property required, through
// properties, items, anyOf, allOf and $defs. It returns the converted
// schema and the paths of objects that cannot convert without changing
// what they accept: additionalProperties true or a schema, or an object
// declaring no properties that is not closed (a free-form map: closing it
// would leave the model only {}).
func strictConvert(s map[string]any, path string, open *[]string) map[string]any {
	out := map[string]any{}
	for k, v := range s {
		out[k] = v
	}
	props, hasProps := s["properties"].(map[string]any)
	if s["type"] == "object" || hasProps {
		switch ap, set := s["additionalProperties"]; {
		case set && ap != false:
			*open = append(*open, path)
		case !set && !hasProps:
			*open = append(*open, path)
		}
		out["additionalProperties"] = false
		conv := map[string]any{}
		var names []string
		for name, p := range props {
			names = append(names, name)
			if ps, ok := p.(map[string]any); ok {
				conv[name] = strictConvert(ps, path+"."+name, open)
			}
		}
		sort.Strings(names)
		req := make([]any, len(names))
		for i, n := range names {
			req[i] = n
		}
		out["properties"], out["required"] = conv, req
	}
	if items, ok := s["items"].(map[string]any); ok {
		out["items"] = strictConvert(items, path+"[]", open)
	}
	for _, k := range []string{"anyOf", "allOf"} {
		if list, ok := s[k].([]any); ok {
			conv := make([]any, len(list))
			for i, v := range list {
				if vs, ok := v.(map[string]any); ok {
					conv[i] = strictConvert(vs, fmt.Sprintf("%s<%s %d>", path, k, i), open)
				}
			}
			out[k] = conv
		}
	}
	if defs, ok := s["$defs"].(map[string]any); ok {
		conv := map[string]any{}
		for n, d := range defs {
			if ds, ok := d.(map[string]any); ok {
				conv[n] = strictConvert(ds, path+"$defs."+n, open)
			}
		}
		out["$defs"] = conv
	}
	return out
}

// strictViolations are the places a converted schema breaks a strict rule:
// an object not closed, or a property left out of required.
func strictViolations(s map[string]any, path string) []string {
	var bad []string
	props, hasProps := s["properties"].(map[string]any)
	if s["type"] == "object" || hasProps {
		if s["additionalProperties"] != false {
			bad = append(bad, path+": not closed")
		}
		req := map[string]bool{}
		list, _ := s["required"].([]any)
		for _, r := range list {
			req[fmt.Sprint(r)] = true
		}
		for name, p := range props {
			if !req[name] {
				bad = append(bad, path+"."+name+": not required")
			}
			if ps, ok := p.(map[string]any); ok {
				bad = append(bad, strictViolations(ps, path+"."+name)...)
			}
		}
	}
	if items, ok := s["items"].(map[string]any); ok {
		bad = append(bad, strictViolations(items, path+"[]")...)
	}
	for _, k := range []string{"anyOf", "allOf"} {
		list, _ := s[k].([]any)
		for i, v := range list {
			if vs, ok := v.(map[string]any); ok {
				bad = append(bad, strictViolations(vs, fmt.Sprintf("%s<%s %d>", path, k, i))...)
			}
		}
	}
	return bad
}

// TestOpenAIStrictConversion: every tool's input schema converts under
// OpenAI's strict rules (root an object, every object closed, every
// property required) except browser_flow's step arguments, and the
// converted schema keeps those rules throughout. A new open object anywhere
// else fails here.
func TestOpenAIStrictConversion(t *testing.T) {
	var open []string
	for _, tool := range surface.Catalog {
		var in map[string]any
		if err := json.Unmarshal(definitionOf(t, tool).InputSchema, &in); err != nil {
			t.Fatal(err)
		}
		if in["type"] != "object" || in["anyOf"] != nil || in["oneOf"] != nil || in["allOf"] != nil {
			t.Errorf("%s: the root must be a plain object schema", tool.Name)
		}
		var toolOpen []string
		conv := strictConvert(in, "", &toolOpen)
		for _, p := range toolOpen {
			where := tool.Name + ": " + strings.TrimPrefix(p, ".")
			open = append(open, where)
			if !strictOpenAllowed[where] {
				t.Errorf("%s is an open object: OpenAI strict conversion refuses it (close it, or list it in strictOpenAllowed with a reason)", where)
			}
		}
		for _, v := range strictViolations(conv, tool.Name) {
			t.Errorf("converted schema breaks a strict rule: %s", v)
		}
	}
	t.Logf("%d tools: %d convert under OpenAI strict rules; open, and so not converted: %v", len(surface.Catalog), len(surface.Catalog)-len(open), open)
}

package conformance

import (
	"encoding/json"
	"reflect"
	"strings"
)

// textCarries says whether a text block carries the same envelope as
// structuredContent, as runtime/mcpedge renders it: the summary, the
// untrusted marker and the next steps as lines, then the compact envelope
// without those members, where an array of two or more objects is a table
// (a row of keys, then one row of values per object, null where an object
// lacks the key). A composite's step list is compared by its rows alone:
// its text keeps only the envelopes a model reads on (textsteps.go).
func textCarries(text string, structured []byte) bool {
	i := strings.LastIndex(text, "\n\n")
	if i < 0 || strings.HasPrefix(text, "{") {
		return false
	}
	var got, want any
	if json.Unmarshal([]byte(text[i+2:]), &got) != nil || json.Unmarshal(structured, &want) != nil {
		return false
	}
	w, ok := want.(map[string]any)
	if !ok {
		return false
	}
	lines := text[:i]
	if s, ok := w["summary"].(string); ok && !strings.HasPrefix(lines, s) {
		return false
	}
	if ns, ok := w["next_steps"].([]any); ok {
		for _, n := range ns {
			if s, _ := n.(string); !strings.Contains(lines, "Next: "+s) {
				return false
			}
		}
	}
	for _, k := range []string{"summary", "next_steps", "untrusted_quotes"} {
		delete(w, k)
	}
	got = untable(got)
	stripStepEnvelopes(got)
	stripStepEnvelopes(w)
	return reflect.DeepEqual(got, w)
}

// untable turns the text block's tables back into arrays of objects.
func untable(v any) any {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			x[k] = untable(e)
		}
	case []any:
		if head, ok := tableHead(x); ok {
			out := make([]any, 0, len(x)-1)
			for _, r := range x[1:] {
				row := r.([]any)
				o := map[string]any{}
				for j, k := range head {
					if j < len(row) && row[j] != nil {
						o[k] = untable(row[j])
					}
				}
				out = append(out, o)
			}
			return out
		}
		for j, e := range x {
			x[j] = untable(e)
		}
	}
	return v
}

// tableHead recognises a table: a row of string keys, then rows of the same length.
func tableHead(x []any) ([]string, bool) {
	if len(x) < 3 {
		return nil, false
	}
	h, ok := x[0].([]any)
	if !ok || len(h) == 0 {
		return nil, false
	}
	head := make([]string, len(h))
	for i, c := range h {
		s, ok := c.(string)
		if !ok {
			return nil, false
		}
		head[i] = s
	}
	for _, r := range x[1:] {
		if row, ok := r.([]any); !ok || len(row) != len(head) {
			return nil, false
		}
	}
	return head, true
}

// stripStepEnvelopes drops facts.steps[*].envelope, compared elsewhere.
func stripStepEnvelopes(v any) {
	m, _ := v.(map[string]any)
	facts, _ := m["facts"].(map[string]any)
	steps, _ := facts["steps"].([]any)
	for _, s := range steps {
		if o, ok := s.(map[string]any); ok {
			delete(o, "envelope")
		}
	}
}

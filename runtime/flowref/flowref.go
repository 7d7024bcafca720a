// Package flowref resolves browser_flow's references between steps: each {"flow_ref":{"step","pointer"}} object of a step's arguments is replaced by the value at pointer in an earlier step's canonical envelope, and, before a flow runs, stands in for a value of its field's type so the step can be decoded and authorized ahead.
package flowref

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
	"github.com/ghostlight-dev/ghostlight/runtime/pipeline"
)

// Resolve replaces every {"flow_ref":{"step","pointer"}} object in a
// step's arguments with the value at pointer in that earlier step's canonical
// envelope. It reports whether the arguments held references, and the first
// reference that did not resolve.
func Resolve(raw json.RawMessage, envelopes map[string]json.RawMessage) (out json.RawMessage, hadRefs bool, unresolved string) {
	if len(raw) == 0 {
		return json.RawMessage(`{}`), false, ""
	}
	if !bytes.Contains(raw, []byte(`"flow_ref"`)) {
		return raw, false, ""
	}
	var v any
	d := json.NewDecoder(bytes.NewReader(raw))
	d.UseNumber()
	if err := d.Decode(&v); err != nil {
		return raw, false, ""
	}
	v = walkRefs(v, envelopes, &unresolved)
	b, _ := json.Marshal(v)
	return b, true, unresolved
}

func walkRefs(v any, envs map[string]json.RawMessage, unresolved *string) any {
	switch x := v.(type) {
	case map[string]any:
		if ref, ok := x["flow_ref"].(map[string]any); ok && len(x) == 1 {
			step, _ := ref["step"].(string)
			ptr, _ := ref["pointer"].(string)
			val, ok := lookupPointer(envs[step], ptr)
			if !ok {
				if *unresolved == "" {
					*unresolved = step + ptr
				}
				return nil
			}
			return val
		}
		for k, e := range x {
			x[k] = walkRefs(e, envs, unresolved)
		}
		return x
	case []any:
		for i := range x {
			x[i] = walkRefs(x[i], envs, unresolved)
		}
		return x
	}
	return v
}

// lookupPointer resolves an RFC 6901 JSON Pointer in a JSON document.
func lookupPointer(doc json.RawMessage, ptr string) (any, bool) {
	if doc == nil || (ptr != "" && !strings.HasPrefix(ptr, "/")) {
		return nil, false
	}
	var v any
	d := json.NewDecoder(bytes.NewReader(doc))
	d.UseNumber()
	if d.Decode(&v) != nil {
		return nil, false
	}
	if ptr == "" {
		return v, true
	}
	for _, seg := range strings.Split(ptr[1:], "/") {
		seg = strings.ReplaceAll(strings.ReplaceAll(seg, "~1", "/"), "~0", "~")
		switch x := v.(type) {
		case map[string]any:
			e, ok := x[seg]
			if !ok {
				return nil, false
			}
			v = e
		case []any:
			i, err := strconv.Atoi(seg)
			if err != nil || i < 0 || i >= len(x) {
				return nil, false
			}
			v = x[i]
		default:
			return nil, false
		}
	}
	return v, true
}

// standInURL is the URL a referenced url field holds in a dry run; its host
// is never admitted or refused (the real one is checked at run time).
const standInURL = "https://flow-ref.invalid/"

// slot is one flow_ref in a step's arguments: its JSON Pointer, and where
// its stand-in value lives.
type slot struct {
	ptr   string
	set   func(any)
	tries int
}

// StandIns replaces every flow_ref in a step's arguments with a value of its
// field's type for a dry run, learnt from the tool's own decoder: each
// refusal at a reference's pointer (wrong type, too short, not a handle,
// below a minimum, outside an enum) names what the field takes. It returns
// the arguments, the references' pointers, and the first reference that
// names no earlier step.
func StandIns(tool string, raw json.RawMessage, earlier map[string]bool) (json.RawMessage, []string, string) {
	if len(raw) == 0 || !bytes.Contains(raw, []byte(`"flow_ref"`)) {
		return raw, nil, ""
	}
	var root any
	d := json.NewDecoder(bytes.NewReader(raw))
	d.UseNumber()
	if d.Decode(&root) != nil {
		return raw, nil, ""
	}
	var slots []*slot
	bad := ""
	var walk func(v any, ptr string, set func(any))
	walk = func(v any, ptr string, set func(any)) {
		switch x := v.(type) {
		case map[string]any:
			if ref, ok := x["flow_ref"].(map[string]any); ok && len(x) == 1 {
				step, _ := ref["step"].(string)
				if !earlier[step] && bad == "" {
					p, _ := ref["pointer"].(string)
					bad = step + p
				}
				// Not "": an optional field's "" reads as not given, so the
				// decoder would say nothing of the field's type.
				set("x")
				slots = append(slots, &slot{ptr: ptr, set: set})
				return
			}
			for k, e := range x {
				k := k
				walk(e, ptr+"/"+escapePointer(k), func(n any) { x[k] = n })
			}
		case []any:
			for i, e := range x {
				i := i
				walk(e, ptr+"/"+strconv.Itoa(i), func(n any) { x[i] = n })
			}
		}
	}
	walk(root, "", func(n any) { root = n })
	ptrs := make([]string, len(slots))
	for i, s := range slots {
		ptrs[i] = s.ptr
	}
	for range 8 * len(slots) {
		b, err := json.Marshal(root)
		if err != nil {
			return raw, ptrs, bad
		}
		_, derr := pipeline.DecodeChild(tool, b)
		if derr == nil {
			return b, ptrs, bad
		}
		s := slotAt(slots, derr.Pointer)
		if s == nil || s.tries >= 8 {
			return b, ptrs, bad // a refusal about a field the step gave itself
		}
		s.tries++
		v, ok := standIn(derr, s.tries)
		if !ok {
			return b, ptrs, bad
		}
		s.set(v)
	}
	b, _ := json.Marshal(root)
	return b, ptrs, bad
}

// slotAt is the reference at (or holding) pointer p.
func slotAt(slots []*slot, p string) *slot {
	for _, s := range slots {
		if p == s.ptr || strings.HasPrefix(p, s.ptr+"/") {
			return s
		}
	}
	return nil
}

// standIn is a value that meets the rule a decoder refusal names.
func standIn(e *surface.DecodeError, try int) (any, bool) {
	switch string(e.Rule) {
	case "type":
		switch e.Limit {
		case "string":
			return "x", true
		case "integer", "number":
			return json.Number("0"), true
		case "boolean":
			return false, true
		case "object":
			return map[string]any{}, true
		case "array":
			return []any{}, true
		}
	case "min_length", "empty_text":
		n, err := strconv.Atoi(e.Limit)
		if err != nil || n < 1 {
			n = 1
		}
		return strings.Repeat("x", n), true
	case "minimum", "maximum":
		if _, err := strconv.ParseFloat(e.Limit, 64); err == nil {
			return json.Number(e.Limit), true
		}
	case "integer", "finite":
		return json.Number("0"), true
	case "max_length":
		return "", true
	case "enum":
		if e.Limit == "true" {
			return true, true
		}
		first, _, _ := strings.Cut(e.Limit, ",")
		return strings.TrimSpace(first), true
	case "handle":
		return e.Limit + strings.Repeat("A0", try), true
	case "url":
		return standInURL, true
	case "format":
		switch e.Limit {
		case "absolute_path":
			return "/flow_ref", true
		case "base64":
			return "AAAA", true
		case "key":
			return "Enter", true
		case "host_pattern":
			return "flow-ref.invalid", true
		case "identifier":
			return "x", true
		}
	}
	return nil, false
}

// WithoutStandIns drops the stand-in URL from what a dry run admits.
func WithoutStandIns(urls []string) []string {
	out := urls[:0:0]
	for _, u := range urls {
		if u != standInURL {
			out = append(out, u)
		}
	}
	return out
}

func escapePointer(k string) string {
	return strings.ReplaceAll(strings.ReplaceAll(k, "~", "~0"), "/", "~1")
}

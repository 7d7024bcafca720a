package tools

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
)

// resolveRefs replaces every {"flow_ref":{"step","pointer"}} object in a
// step's arguments with the value at pointer in that earlier step's canonical
// envelope. It reports whether the arguments held references, and the first
// reference that did not resolve.
func resolveRefs(raw json.RawMessage, envelopes map[string]json.RawMessage) (out json.RawMessage, hadRefs bool, unresolved string) {
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

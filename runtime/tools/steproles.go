package tools

import (
	"encoding/json"
	"strconv"
	"strings"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
)

// stepRoles checks every selector role in a composite step's arguments
// before any step runs. The schema states only a role's length (docs/decisions/
// discovery-budget-before-issue-24.md), so an unknown role passes the decoder; outside a
// composite it is refused before the page is touched, and inside one it must
// be too, or the steps before it would run first and the composite would end
// partial. A role given as a flow_ref is checked when its step runs.
func stepRoles(args []byte, pointer string) *surface.Refusal {
	var v any
	if json.Unmarshal(args, &v) != nil {
		return nil // the step's own decoder says what is wrong
	}
	return walkRoles(v, pointer, false)
}

func walkRoles(v any, pointer string, inSelector bool) *surface.Refusal {
	switch x := v.(type) {
	case map[string]any:
		if inSelector {
			if role, ok := x["role"].(string); ok && role != "" {
				if r := unknownRole(role, pointer); r != nil {
					return r
				}
			}
		}
		for k, e := range x {
			sel := k == "selector" || strings.HasSuffix(k, "_selector")
			if r := walkRoles(e, pointer+"/"+k, sel); r != nil {
				return r
			}
		}
	case []any:
		for i, e := range x {
			if r := walkRoles(e, pointer+"/"+strconv.Itoa(i), false); r != nil {
				return r
			}
		}
	}
	return nil
}

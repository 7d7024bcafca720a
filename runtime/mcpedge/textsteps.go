package mcpedge

import (
	"encoding/json"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
)

// A composite's text block (browser_flow, browser_sequence) carries each
// step's row, and the step envelopes a model reads on: a read-only step's
// (what it perceived is why it ran), the last step's, and any step's that did
// not succeed. A succeeded action step before the last is its row (id, tool,
// status, effect) and its summary sentence: the model chose it in advance and
// needs only to know it happened, and where it went. Inside a kept envelope, members the row or the result already
// say (status, effect, the invocation id, the untrusted marker, the next steps
// of any step but the last) are left out. structuredContent keeps every
// captured envelope whole, and flow_ref resolves against it. On the shop task
// (12 steps) the flow's text is 2,266 bytes, 46% of the step-by-step text
// (4,941 B; a third before the rows kept their summaries).

// stepOmit are the members a kept step envelope leaves out of the text.
var stepOmit = map[string]bool{"invocation": true, "status": true, "effect": true, "untrusted_quotes": true}

// compactSteps rewrites facts.steps of an envelope in place, when it is a
// composite's step list.
func compactSteps(env *value) {
	steps := member(member(env, "facts"), "steps")
	if steps == nil || steps.kind != '[' {
		return
	}
	last := len(steps.elems) - 1
	for i, s := range steps.elems {
		if s.kind != '{' {
			continue
		}
		e := member(s, "envelope")
		if e == nil || e.kind != '{' {
			continue
		}
		if !keepStep(s, i == last) {
			// The row keeps the step's summary sentence in the envelope's
			// place (a navigate step's URL and title, for a client that reads
			// only text).
			if sum := member(e, "summary"); sum != nil && sum.kind == 0 {
				for j, k := range s.keys {
					if k == "envelope" {
						s.vals[j] = sum
					}
				}
				continue
			}
			drop(s, func(k string) bool { return k == "envelope" })
			continue
		}
		drop(e, func(k string) bool { return stepOmit[k] || k == "next_steps" && i != last })
	}
}

// keepStep says whether a step's envelope stays in the text.
func keepStep(s *value, last bool) bool {
	if last {
		return true
	}
	if st := str(member(s, "status")); st != "" && st != string(surface.StatusSucceeded) {
		return true
	}
	t := surface.Lookup(str(member(s, "tool")))
	return t == nil || t.Annotations.ReadOnly
}

func member(v *value, key string) *value {
	if v == nil || v.kind != '{' {
		return nil
	}
	for i, k := range v.keys {
		if k == key {
			return v.vals[i]
		}
	}
	return nil
}

func drop(v *value, omit func(string) bool) {
	keys, vals := v.keys[:0:0], v.vals[:0:0]
	for i, k := range v.keys {
		if !omit(k) {
			keys, vals = append(keys, k), append(vals, v.vals[i])
		}
	}
	v.keys, v.vals = keys, vals
}

func str(v *value) string {
	if v == nil || v.kind != 0 {
		return ""
	}
	var s string
	if json.Unmarshal(v.raw, &s) != nil {
		return ""
	}
	return s
}

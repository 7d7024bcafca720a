package pipeline

import (
	"encoding/json"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
)

// Carry registers fn to fill facts any envelope may carry beside the tool's own (the
// spec's refusal_facts, such as popups_closed), whatever the outcome. fn runs when the
// result is authored, so it counts what happened up to the end of the call.
func (inv *Invocation) Carry(fn func(*surface.Refusal)) {
	if inv != nil {
		inv.carry = append(inv.carry, fn)
	}
}

// withCarried adds the carried facts to a rendered facts object; keys already there
// (the tool's or the refusal's) win.
func withCarried(facts json.RawMessage, carry []func(*surface.Refusal)) json.RawMessage {
	if len(carry) == 0 {
		return facts
	}
	var r surface.Refusal
	for _, fn := range carry {
		fn(&r)
	}
	b, err := json.Marshal(r)
	if err != nil {
		return facts
	}
	var add map[string]json.RawMessage
	if json.Unmarshal(b, &add) != nil {
		return facts
	}
	delete(add, "reason") // always rendered; a carried fact is never a reason
	if len(add) == 0 {
		return facts
	}
	var m map[string]json.RawMessage
	if json.Unmarshal(facts, &m) != nil {
		return facts
	}
	for k, v := range add {
		if _, taken := m[k]; !taken {
			m[k] = v
		}
	}
	out, err := json.Marshal(m)
	if err != nil {
		return facts
	}
	return out
}

package operator

import (
	"encoding/json"

	"github.com/ghostlight-dev/ghostlight/generated/operator"
	"github.com/ghostlight-dev/ghostlight/runtime/pipeline"
)

// Structured renders a verb's result as the profile's structuredContent:
// its facts, which are the contract; for a call refused before its handler
// ran (arguments, governance, a busy session), the contract's required
// members with what is known. A refused result also carries refusal,
// Ghostlight's typed refusal facts, beside them (the contracts' objects are
// open; the claim says so).
func Structured(tool string, r pipeline.Result) json.RawMessage {
	facts := r.Facts
	if facts == nil {
		facts = unobserved(tool, r)
	}
	b, err := json.Marshal(facts)
	if err != nil || len(b) < 2 || b[0] != '{' {
		b = []byte(`{}`)
	}
	if r.Refusal == nil {
		return b
	}
	rb, err := json.Marshal(r.Refusal)
	if err != nil {
		return b
	}
	out := append([]byte(nil), b[:len(b)-1]...)
	if len(b) > 2 {
		out = append(out, ',')
	}
	out = append(out, `"refusal":`...)
	out = append(out, rb...)
	return append(out, '}')
}

// unobserved is a verb's contract when nothing was observed: nothing
// changed, no target, no surface, readiness not known to be settled.
func unobserved(tool string, r pipeline.Result) any {
	ready := readiness(r.Envelope.Readiness)
	switch tool {
	case "operator_list_surfaces":
		return &operator.OperatorListSurfacesFacts{Surfaces: []*operator.Surface{}}
	case "operator_perceive":
		return &operator.OperatorPerceiveFacts{Targets: []*operator.Target{}, Readiness: ready}
	case "operator_settle":
		return &operator.OperatorSettleFacts{Readiness: ready}
	case "operator_capture":
		return &operator.OperatorCaptureFacts{}
	case "operator_navigate":
		return &operator.OperatorNavigateFacts{Readiness: ready, BlockedBy: blockedBy(r.Refusal)}
	}
	return &operator.OperatorActFacts{Readiness: ready, BlockedBy: blockedBy(r.Refusal)}
}

// NextSteps are a verb's next steps as the client reads them: a refusal
// the pipeline worded before the handler ran (its arguments, the
// authority, a busy session) is told what to do in operator terms.
func NextSteps(r pipeline.Result) []string {
	if r.Facts != nil || r.Refusal == nil {
		return r.Envelope.NextSteps
	}
	return nextFor(r.Refusal, r.Envelope.NextSteps)
}

// IsVerb reports whether a tool name is an operator verb.
func IsVerb(tool string) bool { return operator.Lookup(tool) != nil }

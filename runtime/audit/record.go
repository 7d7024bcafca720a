// Package audit is Ghostlight's durable audit: an append-only JSON-lines
// file with one line per invocation (composite steps included, linked to
// their parent), written and fsynced before the call answers, rotated at a
// size bound. The lines form a hash chain across the files, each file
// opening with a header (chain.go) that `ghostlight audit verify` checks
// (verify.go); under audit.required a call also has a begin line, written
// before it runs. A line says who did what under which policy, never with what:
// no arguments, typed or filled values, scripts, results, dialog text,
// prompt responses, paths, file names, contents or URLs — hosts only.
//
// The package knows nothing of MCP, the browser or the pipeline; the
// pipeline fills a Record and hands it to a Writer.
package audit

import "time"

// Decision values: what the authority decided about the call.
const (
	DecisionAllow = "allow" // admitted by every layer
	DecisionDeny  = "deny"  // refused by a layer (or by the audit interlock)
	DecisionNone  = "none"  // refused before it was classified (bad arguments, unknown tool)
)

// LayerAudit is the deciding "layer" of an audit_unavailable refusal: the
// interlock that refuses to change anything unaudited.
const LayerAudit = "audit"

// KindBegin marks the line a required audit writes before a call runs:
// who is about to do what, with no outcome yet.
const KindBegin = "begin"

// Version is the line format; a reader skips lines of a newer version it
// cannot read. Version 2 chains the lines (seq, prev) and starts every file
// with a header (chain.go).
const Version = 2

// Record is one line of the audit file. Every field is a name, a closed enum
// value, a host, a count or a time: nothing a page, a user or a model typed.
type Record struct {
	V          int       `json:"v"`
	Time       time.Time `json:"time"`
	Invocation string    `json:"invocation"`
	// Parent is the composite invocation (browser_sequence, browser_flow)
	// this step belongs to.
	Parent string `json:"parent,omitempty"`
	// Workspace is the MCP session the call came from.
	Workspace    string   `json:"workspace"`
	Tool         string   `json:"tool"`
	Branch       string   `json:"branch,omitempty"`
	Capabilities []string `json:"capabilities"`
	// Decision is allow, deny or none; Layer names the layer that denied.
	Decision string `json:"decision"`
	Layer    string `json:"layer,omitempty"`
	// Hosts the call reached or was refused: its navigation targets, the
	// page it acted on, any landing (host or host:port, never a path).
	Hosts      []string `json:"hosts"`
	Status     string   `json:"status"`
	Effect     string   `json:"effect"`
	Reason     string   `json:"reason,omitempty"`
	DurationMS float64  `json:"duration_ms"`
	// Policy is the digest of the configured authority in force.
	Policy string `json:"policy"`
	// TraceParent is the W3C traceparent the caller sent in the request's
	// _meta (validated by the MCP edge), so a gateway's span and this line
	// join up.
	TraceParent string `json:"traceparent,omitempty"`
	// DataFlow is a cross-site flow the call wrote or was refused (the
	// data_flow policy): both sites and the size, never the text.
	DataFlow *DataFlow `json:"data_flow,omitempty"`
	// WouldDeny are the refusals a layer in monitor mode would have made
	// (policy mode: "monitor"); the call ran under the other layers.
	WouldDeny []WouldDeny `json:"would_deny,omitempty"`
	// Kind is "" for a call's outcome and KindBegin for the line written
	// before a call runs while the audit is required (Writer.Begin).
	Kind string `json:"kind,omitempty"`
	// Seq numbers the line in the chain; Prev is the hash of the line before
	// it (chain.go). The writer fills both.
	Seq  uint64 `json:"seq,omitempty"`
	Prev string `json:"prev,omitempty"`
}

// DataFlow is a cross-site flow as the audit holds it.
type DataFlow struct {
	From     string `json:"from"`
	To       string `json:"to"`
	Chars    int    `json:"chars"`
	Decision string `json:"decision"`
	Layer    string `json:"layer"`
}

// WouldDeny is one refusal a monitor-mode layer did not make.
type WouldDeny struct {
	Reason     string `json:"reason"`
	Layer      string `json:"layer"`
	Capability string `json:"capability,omitempty"`
	Host       string `json:"host,omitempty"`
	From       string `json:"from,omitempty"`
}

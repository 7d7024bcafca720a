package pipeline

import (
	"encoding/json"
	"net"
	"net/url"
	"strings"
	"time"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
	"github.com/ghostlight-dev/ghostlight/runtime/audit"
	"github.com/ghostlight-dev/ghostlight/runtime/governance"
)

// readOnly is the one capability a call may need and still run while the
// audit cannot be written, unless the audit is required.
var readOnly = surface.CapsOf([]string{string(surface.CapabilityRead)})

// auditGate refuses a call the audit cannot vouch for, before the browser
// is touched. While the audit cannot be written, a call that would change
// anything (a capability beyond read) is refused; with audit.required, so
// is every tool the catalog marks as reaching the open world (everything
// but policy_explain), and a call runs only once its begin line is on disk,
// so nothing reaches the browser unrecorded even when the file fails
// between two calls. Composites are gated as a whole and step by step.
func (p *Pipeline) auditGate(inv *Invocation, entry *surface.Tool, args surface.Args, n surface.Needs, start time.Time) (surface.Outcome, bool) {
	if p.journal == nil {
		return surface.Outcome{}, false
	}
	required := false
	if inv.Authority != nil {
		required, _ = inv.Authority.AuditRequired()
	}
	var err error
	switch {
	case required && entry.Annotations.OpenWorld:
		line := p.record(inv, start, args, "", "", nil, nil).Line()
		err = p.journal.Begin(line)
	case n.Caps&^readOnly != 0:
		err = p.journal.Ready()
	}
	if err == nil {
		return surface.Outcome{}, false
	}
	return auditRefusal(inv.Tool, audit.CauseOf(err), required), true
}

// auditRefusal is the answer to a call the audit gate refused.
func auditRefusal(tool, cause string, required bool) surface.Outcome {
	still := "Reads still work."
	if required {
		still = "The audit is required, so only policy_explain answers until it can be written."
	}
	return surface.Outcome{
		Refusal:    &surface.Refusal{Reason: surface.ReasonAuditUnavailable, Message: "the audit log cannot be written: " + cause},
		Effect:     surface.EffectNone,
		RepeatSafe: true,
		Summary:    tool + " was not run: the audit log cannot be written (" + cause + "), and Ghostlight changes nothing unaudited. " + still,
		NextSteps:  []string{"Ask the user to make the audit log writable again, then call " + tool + " again."},
	}
}

// follower is a journal that follows the policy's audit settings
// (audit.Writer).
type follower interface {
	Follow(path string, maxBytes int64, keep int, gen uint64)
}

// followAudit brings the journal to the audit settings of a call's snapshot
// as the call starts: a reload that moved the audit takes effect between
// calls, and an older snapshot never moves it back.
func (p *Pipeline) followAudit(a *governance.Authority) {
	f, ok := p.journal.(follower)
	if !ok || a == nil {
		return
	}
	path, maxBytes, keep := a.AuditSettings()
	f.Follow(path, int64(maxBytes), keep, a.Generation())
}

// write appends the record to the journal (durably, before the call
// answers) and hands it to the observer. It returns the sentence the
// summary must carry when the line could not be written.
func (p *Pipeline) write(rec AuditRecord, r *surface.Refusal) string {
	note := ""
	if p.journal != nil {
		if err := p.journal.Write(rec.Line()); err != nil && (r == nil || r.Reason != surface.ReasonAuditUnavailable) {
			note = "The audit log cannot be written (" + audit.CauseOf(err) + "): this call's line is held in memory, and calls that would change anything are refused until it can be written."
		}
	}
	p.audit(rec)
	return note
}

// record fills the audit record from what the pipeline knows: the decoded
// arguments' classification, the refusal, the hosts handlers touched and
// the governed URLs in the facts. Never an argument value.
func (p *Pipeline) record(inv *Invocation, start time.Time, args surface.Args, status surface.Status, effect surface.Effect, facts json.RawMessage, r *surface.Refusal) AuditRecord {
	rec := AuditRecord{Time: start, Invocation: inv.ID, Session: inv.Session, Tool: inv.Tool, Status: status, Effect: effect,
		Duration: time.Since(start), Decision: audit.DecisionNone, TraceParent: inv.TraceParent}
	if inv.Parent != nil {
		rec.Parent = inv.Parent.ID
	}
	if inv.Authority != nil {
		rec.Policy = inv.Authority.Digest()
	}
	var hosts []string
	if args != nil {
		n := args.Needs()
		rec.Caps, rec.Branch, rec.Decision = n.Caps.List(), args.Branch(), audit.DecisionAllow
		for _, u := range n.URLs {
			hosts = append(hosts, hostOf(u))
		}
	}
	inv.touchedMu.Lock()
	hosts = append(hosts, inv.touched...)
	inv.touchedMu.Unlock()
	hosts = append(hosts, factHosts(facts)...)
	if r != nil {
		rec.Reason = r.Reason
		switch r.Reason {
		case surface.ReasonCapabilityDenied, surface.ReasonHostDenied, surface.ReasonConstraintDenied:
			rec.Decision, rec.Layer = audit.DecisionDeny, decidingLayer(r)
		case surface.ReasonAuditUnavailable:
			rec.Decision, rec.Layer = audit.DecisionDeny, audit.LayerAudit
		}
		hosts = append(hosts, hostOf(r.Host))
	}
	rec.Hosts = uniqueHosts(hosts)
	inv.flowMu.Lock()
	if f := inv.flow; f != nil { // sites and size, never the text
		rec.DataFlow = &audit.DataFlow{From: f.From, To: f.To, Chars: f.Chars, Decision: f.Decision, Layer: f.Layer}
		if f.Decision == governance.FlowDeny {
			rec.Decision, rec.Layer = audit.DecisionDeny, f.Layer
		}
	}
	inv.flowMu.Unlock()
	if inv.Authority != nil {
		for _, w := range inv.Authority.WouldDenied() { // reason, layer, capability or host: never a value
			rec.WouldDeny = append(rec.WouldDeny, audit.WouldDeny{Reason: string(w.Reason), Layer: w.Layer, Capability: string(w.Capability), Host: hostOf(w.Host), From: w.From})
		}
	}
	return rec
}

// factHosts reads the governed URLs a result reports generically: the page
// the call read or landed on ("url") and an action's landing ("landing.url").
func factHosts(facts json.RawMessage) []string {
	if len(facts) == 0 || !strings.Contains(string(facts), `"url"`) {
		return nil
	}
	var f struct {
		URL     string `json:"url"`
		Landing *struct {
			URL string `json:"url"`
		} `json:"landing"`
	}
	if json.Unmarshal(facts, &f) != nil {
		return nil
	}
	out := []string{hostOf(f.URL)}
	if f.Landing != nil {
		out = append(out, hostOf(f.Landing.URL))
	}
	return out
}

// decidingLayer is the layer a denial names: the refusal's typed layer
// fact, which every denial carries (governance's Admit, the boundary's
// host_denied); a message is never parsed for it.
func decidingLayer(r *surface.Refusal) string { return r.Layer }

// hostOf keeps only the host (or host:port) of a URL or host string: no
// scheme, user, path, query or fragment ever reaches the audit. Anything
// that is not plainly a host is dropped.
func hostOf(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.Index(s, "://"); i >= 0 {
		u, err := url.Parse(s)
		if err != nil {
			return ""
		}
		s = u.Host
	} else if _, port, err := net.SplitHostPort(s); err != nil || !digits(port) {
		if strings.Contains(s, ":") {
			return "" // about:blank, data:, javascript:, a bare scheme
		}
	}
	if s == "" || len(s) > surface.HostPatternCharsMax+6 {
		return ""
	}
	for _, c := range s {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.ContainsRune(".-_:[]", c)) {
			return ""
		}
	}
	// One host, one name in the audit: as governance canonicalizes it
	// (2130706434 and [::ffff:7f00:2] are 127.0.0.2).
	return strings.ToLower(governance.CanonicalHostPort(s))
}

func digits(s string) bool {
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return s != ""
}

func uniqueHosts(hs []string) []string {
	out := []string{}
	for _, h := range hs {
		if h == "" {
			continue
		}
		dup := false
		for _, o := range out {
			if o == h {
				dup = true
				break
			}
		}
		if !dup {
			out = append(out, h)
		}
	}
	return out
}

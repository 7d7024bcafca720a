// Package pipeline runs every invocation the same way: generated decode →
// classify → authorize against an immutable authority snapshot → dispatch to
// the handler → author the envelope → audit. Direct calls, composite steps
// and Operator verbs all pass through Run; nothing reaches a handler another
// way.
package pipeline

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
	"github.com/ghostlight-dev/ghostlight/runtime/audit"
	"github.com/ghostlight-dev/ghostlight/runtime/governance"
	"github.com/ghostlight-dev/ghostlight/runtime/handle"
	"github.com/ghostlight-dev/ghostlight/runtime/language"
)

// Progress reports a long wait to the client (a no-op without a token).
type Progress func(progress, total float64, message string)

// Result is one authored invocation: the envelope, its canonical JSON, and at
// most one bounded image that never enters the envelope.
type Result struct {
	Envelope surface.Envelope
	JSON     json.RawMessage
	Image    *surface.Image
	// Facts is the typed facts value behind Envelope.Facts (nil for a refusal
	// without tool facts), for composites that read a child's result.
	Facts any
	// Refusal is the typed refusal behind a refused result (nil otherwise),
	// for callers that render a result of their own (the operator verbs).
	Refusal *surface.Refusal
}

// IsError says whether the MCP result is marked isError: failed and blocked
// outcomes are errors to the client; attention_required, unknown and
// cancelled are not (they carry a truthful state, not a fault).
func (r Result) IsError() bool {
	return r.Envelope.Status == surface.StatusFailed || r.Envelope.Status == surface.StatusBlocked
}

// AuditRecord is what the audit hook receives: who did what, never payloads
// (no arguments, text, scripts, paths, dialog text or page content).
type AuditRecord struct {
	Time       time.Time // when the call started
	Invocation string
	Parent     string // the composite invocation a step belongs to
	Session    string
	Tool       string
	Branch     string
	Caps       []surface.Capability
	// Decision is the authority's: audit.DecisionAllow, DecisionDeny, or
	// DecisionNone when the call never reached classification; Layer names
	// the layer that denied.
	Decision string
	Layer    string
	// Hosts the call reached or was refused (host or host:port only).
	Hosts    []string
	Status   surface.Status
	Effect   surface.Effect
	Reason   surface.Reason
	Duration time.Duration
	// Policy is the digest of the configured authority in force.
	Policy string
	// TraceParent is the caller's W3C traceparent (traceparent.go).
	TraceParent string
	// DataFlow is a cross-site flow the call carried (origin.go).
	DataFlow *audit.DataFlow
	// WouldDeny are the refusals monitor-mode layers did not make.
	WouldDeny []audit.WouldDeny
}

// Line is the record as the audit file holds it.
func (r AuditRecord) Line() audit.Record {
	caps := make([]string, len(r.Caps))
	for i, c := range r.Caps {
		caps[i] = string(c)
	}
	hosts := r.Hosts
	if hosts == nil {
		hosts = []string{}
	}
	return audit.Record{Time: r.Time.UTC(), Invocation: r.Invocation, Parent: r.Parent, Workspace: r.Session,
		Tool: r.Tool, Branch: r.Branch, Capabilities: caps, Decision: r.Decision, Layer: r.Layer, Hosts: hosts,
		Status: string(r.Status), Effect: string(r.Effect), Reason: string(r.Reason),
		DurationMS: float64(r.Duration.Microseconds()) / 1000, Policy: r.Policy, TraceParent: r.TraceParent, DataFlow: r.DataFlow, WouldDeny: r.WouldDeny}
}

// Auditor receives one record per invocation, composite steps included.
type Auditor func(AuditRecord)

// Journal is the durable audit (audit.Writer). Write is called for every
// invocation before its result is returned; Ready before every call that
// would change anything, which is refused audit_unavailable when it fails;
// Begin, under audit.required, before every call that reaches the browser.
type Journal interface {
	Ready() error
	Write(audit.Record) error
	// Begin writes, durably, that a call is about to run (audit.required).
	Begin(audit.Record) error
}

// Pipeline is the one invocation path.
type Pipeline struct {
	handler   surface.Handler
	surfaces  []Surface
	authority func() *governance.Authority
	audit     Auditor
	journal   Journal
	log       *slog.Logger
	seq       atomic.Uint64
	ids       *handle.Codec // invocation handles (newID)
	origins   origins       // per session: where page text came from (origin.go)
	approvals approvals     // per session: flows the person allowed (origin.go)
	replica   string        // Options.Replica
	mask      func(session string) func(string) (string, bool)
}

// Options configure a Pipeline.
type Options struct {
	Handler surface.Handler
	// Authority returns the configured authority in force; called once per
	// invocation to take its snapshot.
	Authority func() *governance.Authority
	Audit     Auditor
	// Journal is the durable audit (nil: none, as in tests that observe
	// records through Audit).
	Journal Journal
	Logger  *slog.Logger
	// Surfaces are catalogs served beside Ghostlight's own (the operator
	// verbs): their tools run through this same path, on their handler.
	Surfaces []Surface
	// Replica is the server's replica name: a call naming a handle of
	// another replica is refused other_replica before anything runs
	// (replica.go). "": no check.
	Replica string
	// Mask, when set, returns what masks the session's typed secrets in a
	// result's text, or nil when there are none (mask.go).
	Mask func(session string) func(string) (string, bool)
}

// Surface is one more catalog: its lookup and the handler its tools' Invoke
// calls (its generated package's Handler).
type Surface struct {
	Lookup  func(name string) *surface.Tool
	Handler any
}

// New builds a Pipeline.
func New(o Options) *Pipeline {
	if o.Audit == nil {
		o.Audit = func(AuditRecord) {}
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	return &Pipeline{handler: o.Handler, surfaces: o.Surfaces, authority: o.Authority, audit: o.Audit, journal: o.Journal, log: o.Logger, ids: handle.New(invocationBody), replica: o.Replica, mask: o.Mask}
}

// Invocation is the per-call state handlers reach through the context.
type Invocation struct {
	ID       string
	Session  string
	Tool     string
	Parent   *Invocation
	Progress Progress
	// Authority is the snapshot taken when the call started, with the call's
	// own restrictions applied. Children share it.
	Authority *governance.Authority
	// TraceParent is the caller's W3C traceparent; steps share it.
	TraceParent string
	p           *Pipeline
	// transport: the call is stateless (stateless.go).
	transport language.Stateless

	notes []string
	carry []func(*surface.Refusal) // carry.go
	// touched: hosts handlers reported acting on (Touched), for the audit.
	touchedMu sync.Mutex
	touched   []string
	page      string // site of the first page the call acted on (origin.go)
	// The origin guard's per-call state (origin.go): the decoded arguments,
	// the values they write, each target site's decision, the flow found.
	args       surface.Args
	valuesOnce sync.Once
	values     []string
	flowMu     sync.Mutex
	flowDone   map[string]*surface.Refusal
	flow       *surface.DataFlow
	approve    func() // lets the person allow the write this call waits for
	// pageQuoted: a step of this composite quoted page strings, so its own
	// summary and facts (which carry the steps' words) do too.
	pageQuoted atomic.Bool
	// Progress (progress.go): the direct call's beats, and this
	// invocation's stage.
	beat    *heartbeat
	stageMu sync.Mutex
	stage   string
}

// Note records a sentence the summary must carry whatever the outcome
// (e.g. that the browser had to be relaunched); it is said before the
// handler's own summary.
func (inv *Invocation) Note(sentence string) {
	if inv != nil {
		inv.notes = append(inv.notes, sentence)
	}
}

// Touched records a host the call acted on (a URL or a host; only the host
// is kept), for the audit line. Handlers call it for the page an action
// runs on; landings and navigated pages are read from the facts.
func (inv *Invocation) Touched(urlOrHost string) {
	if inv == nil {
		return
	}
	if h := hostOf(urlOrHost); h != "" {
		inv.touchedMu.Lock()
		inv.touched = append(inv.touched, h)
		if inv.page == "" {
			inv.page = siteOf(urlOrHost)
		}
		inv.touchedMu.Unlock()
	}
}

type ctxKey struct{}

// FromContext returns the invocation a handler runs under.
func FromContext(ctx context.Context) *Invocation {
	inv, _ := ctx.Value(ctxKey{}).(*Invocation)
	return inv
}

// An invocation handle is "inv_" and eight base62 characters (no replica
// name: no call takes one, so no router reads it): the process's
// call number under a key random per Pipeline (runtime/handle), so handles
// never repeat within a server and servers sharing an audit file almost
// surely never mint the same one.
const invocationBody = surface.HandleCharsMax - len("inv_") - handle.ReplicaChars // eight, as before replicas

func (p *Pipeline) newID() string {
	return "inv_" + p.ids.Encode(p.seq.Add(1))
}

// Call runs a direct tool call from raw JSON arguments.
func (p *Pipeline) Call(ctx context.Context, session, tool string, raw []byte, progress Progress) Result {
	if progress == nil {
		progress = func(float64, float64, string) {}
	}
	inv := &Invocation{ID: p.newID(), Session: session, Tool: tool, Authority: p.authority(), TraceParent: traceParentFrom(ctx), p: p, transport: statelessOf(ctx)}
	p.followAudit(inv.Authority) // a reloaded audit.* applies from this call (audit.go)
	start := time.Now()
	inv.beat = newHeartbeat(progress, tool, start)
	defer inv.beat.stop()
	inv.Progress = inv.beat.progress
	entry, h := p.lookup(tool)
	if entry == nil {
		r := &surface.Refusal{Reason: surface.ReasonInvalidArguments, Message: "no tool named " + strconv.Quote(tool)}
		return p.finish(inv, start, nil, nil, surface.Outcome{Refusal: r})
	}
	args, derr := entry.Decode(raw)
	if derr != nil {
		return p.finish(inv, start, nil, nil, surface.Outcome{Refusal: derr.Refusal()})
	}
	// A restrict_hosts entry the decoder let through by its characters but
	// that names no host ("[zz]", "*.127.0.0.1") is refused here, at its
	// pointer, before anything runs.
	if r := governance.CheckRestrictHosts(args.Restrictions().Hosts); r != nil {
		return p.finish(inv, start, nil, nil, surface.Outcome{Refusal: r})
	}
	// Watched: this call's would-deny decisions (monitor mode) are its own.
	inv.Authority = inv.Authority.Narrow(args.Restrictions()).Watched()
	return p.run(ctx, inv, entry, h, args, start)
}

// lookup finds a tool of Ghostlight's catalog or of another surface's, and
// the handler it runs on.
func (p *Pipeline) lookup(tool string) (*surface.Tool, any) {
	if t := surface.Lookup(tool); t != nil {
		return t, p.handler
	}
	for _, s := range p.surfaces {
		if t := s.Lookup(tool); t != nil {
			return t, s.Handler
		}
	}
	return nil, nil
}

// Busy authors and audits a direct call the MCP edge refused before running
// it: the session already had limit calls in flight. Nothing ran, so the
// same call is safe to repeat once an earlier one has answered.
func (p *Pipeline) Busy(session, tool string, limit int) Result {
	inv := &Invocation{ID: p.newID(), Session: session, Tool: tool, p: p}
	r := &surface.Refusal{Reason: surface.ReasonBusy, Limit: strconv.Itoa(limit)}
	return p.finish(inv, time.Now(), nil, nil, surface.Outcome{Refusal: r, RepeatSafe: true})
}

// Child runs one step of a composite under the parent's snapshot: it is
// classified, admitted, dispatched and audited on its own, through the same
// path as a direct call.
func (inv *Invocation) Child(ctx context.Context, tool string, args surface.Args) Result {
	p := inv.p
	child := &Invocation{ID: p.newID(), Session: inv.Session, Tool: tool, Parent: inv, Progress: inv.Progress, Authority: inv.Authority.Watched(), TraceParent: inv.TraceParent, p: p}
	entry := surface.Lookup(tool)
	start := time.Now()
	if entry == nil || entry.Composite {
		r := &surface.Refusal{Reason: surface.ReasonInvalidArguments, Message: strconv.Quote(tool) + " is not a step tool"}
		return p.finish(child, start, nil, nil, surface.Outcome{Refusal: r})
	}
	defer child.leaveStage()
	return p.run(ctx, child, entry, p.handler, args, start)
}

// Refuse authors and audits a child step refused before dispatch (its
// arguments did not decode, or a reference did not resolve).
func (inv *Invocation) Refuse(tool string, r *surface.Refusal) Result {
	p := inv.p
	child := &Invocation{ID: p.newID(), Session: inv.Session, Tool: tool, Parent: inv, Progress: inv.Progress, Authority: inv.Authority, TraceParent: inv.TraceParent, p: p}
	return p.finish(child, time.Now(), nil, nil, surface.Outcome{Refusal: r})
}

// DecodeChild decodes a composite step's arguments with the tool's own
// decoder (no tab or restrictions of their own).
func DecodeChild(tool string, raw []byte) (surface.Args, *surface.DecodeError) {
	entry := surface.Lookup(tool)
	if entry == nil {
		return nil, &surface.DecodeError{Rule: surface.RuleEnum, Message: "no tool named " + strconv.Quote(tool)}
	}
	return entry.DecodeStep(raw)
}

func (p *Pipeline) run(ctx context.Context, inv *Invocation, entry *surface.Tool, h any, args surface.Args, start time.Time) Result {
	if r := p.otherReplica(args); r != nil { // replica.go
		return p.finish(inv, start, args, nil, surface.Outcome{Refusal: r})
	}
	needs := args.Needs()
	if r := inv.Authority.Admit(needs); r != nil {
		return p.finish(inv, start, args, nil, surface.Outcome{Refusal: r})
	}
	if out, refused := p.auditGate(inv, entry, args, needs, start); refused { // audit.go
		return p.finish(inv, start, args, nil, out)
	}
	inv.args = args
	for _, u := range needs.URLs { // a navigation's target site's rules (governance/sites.go)
		if r := inv.Authority.AdmitSite(u, needs.Caps); r != nil {
			return p.finish(inv, start, args, nil, surface.Outcome{Refusal: r, Effect: surface.EffectNone, RepeatSafe: true})
		}
	}
	if nav, ok := args.(*surface.BrowserNavigateArgs); ok { // origin.go: the target is the URL's site
		if r := p.checkFlow(inv, siteOf(nav.URL), []string{navigationValue(nav.URL)}, false); r != nil {
			return p.finish(inv, start, args, nil, surface.Outcome{Refusal: r, Effect: surface.EffectNone, RepeatSafe: true})
		}
	}
	ctx = context.WithValue(ctx, ctxKey{}, inv)
	facts, out := p.dispatch(ctx, entry, h, args)
	out = cancelledOutcome(ctx.Err(), inv.Tool, needs.Caps, out)
	return p.finish(inv, start, args, facts, out)
}

// dispatch calls the handler, turning a panic into an internal failure so
// one bad call never takes the server down.
func (p *Pipeline) dispatch(ctx context.Context, entry *surface.Tool, h any, args surface.Args) (facts any, out surface.Outcome) {
	defer func() {
		if r := recover(); r != nil {
			p.log.Error("handler panic", "tool", entry.Name, "panic", fmt.Sprint(r))
			facts, out = nil, surface.Outcome{Status: surface.StatusUnknown, Effect: surface.EffectUnknown, Refusal: &surface.Refusal{Reason: surface.ReasonInternal, Message: "internal error"}}
		}
	}()
	return entry.Invoke(ctx, h, args)
}

// finish authors the envelope from the outcome and audits it.
func (p *Pipeline) finish(inv *Invocation, start time.Time, args surface.Args, facts any, out surface.Outcome) Result {
	env := surface.Envelope{Invocation: inv.ID, Status: out.Status, Effect: out.Effect, Readiness: out.Readiness, RepeatSafe: out.RepeatSafe}
	if out.Refusal != nil && env.Status == "" {
		env.Status = surface.ReasonStatus[out.Refusal.Reason]
	}
	if env.Status == "" {
		env.Status = surface.StatusSucceeded
	}
	if env.Effect == "" {
		env.Effect = surface.EffectNone
	}
	if env.Readiness == "" {
		env.Readiness = surface.ReadinessNotApplicable
	}
	// The contract's rule, enforced once: partial or unknown effects are
	// never repeat-safe.
	if env.Effect == surface.EffectPartial || env.Effect == surface.EffectUnknown || env.Status == surface.StatusUnknown {
		env.RepeatSafe = false
	}
	inv.carryWouldDeny() // monitor.go
	env.Facts = withCarried(factsJSON(facts, out.Refusal), inv.carry)
	var mask func(string) (string, bool)
	if p.mask != nil {
		mask = p.mask(inv.Session)
	}
	if mask != nil { // mask.go
		env.Facts = maskJSON(env.Facts, mask)
		out.Summary, out.NextSteps = maskText(out.Summary, out.NextSteps, mask)
	}
	p.remember(inv, env.Facts, out.Summary) // origin.go
	// Audit before the answer exists: the line is on disk before the call
	// returns, and a line that could not be written is said in the summary.
	if note := p.write(p.record(inv, start, args, env.Status, env.Effect, env.Facts, out.Refusal), out.Refusal); note != "" {
		inv.notes = append(inv.notes, note)
	}
	text := language.Text{Summary: out.Summary, NextSteps: out.NextSteps}
	if out.Refusal != nil && text.Summary == "" {
		text = language.RefusalOver(inv.Tool, out.Refusal, inv.stateless())
	}
	if len(inv.notes) > 0 {
		text.Summary = strings.Join(inv.notes, " ") + " " + text.Summary
	}
	text = language.Bounded(text)
	if mask != nil { // the notes and the refusal's words too
		text.Summary, text.NextSteps = maskText(text.Summary, text.NextSteps, mask)
	}
	env.Summary, env.NextSteps = text.Summary, text.NextSteps
	if text.PageQuoted || inv.pageQuoted.Load() {
		env.UntrustedQuotes = true
		if inv.Parent != nil {
			inv.Parent.pageQuoted.Store(true)
		}
	}
	if env.NextSteps == nil {
		env.NextSteps = []string{}
	}
	b, err := json.Marshal(env)
	if err != nil {
		p.log.Error("envelope marshal", "tool", inv.Tool, "err", err)
		env.Facts = json.RawMessage(`{"reason":"internal"}`)
		env.Status, env.Summary, env.UntrustedQuotes = surface.StatusFailed, inv.Tool+" failed: internal error.", false
		b, _ = json.Marshal(env)
	}
	return Result{Envelope: env, JSON: b, Image: out.Image, Facts: facts, Refusal: out.Refusal}
}

// factsJSON renders the facts object: the tool's facts, with a refusal's
// facts beside them when there is one.
func factsJSON(facts any, r *surface.Refusal) json.RawMessage {
	var fb []byte
	if facts != nil {
		b, err := json.Marshal(facts)
		if err == nil && string(b) != "null" {
			fb = b
		}
	}
	if r == nil {
		if fb == nil {
			return json.RawMessage(`{}`)
		}
		return fb
	}
	rb, _ := json.Marshal(r)
	if fb == nil || string(fb) == "{}" {
		return rb
	}
	// Both: merge, refusal keys last (they never share a name with a tool
	// fact of a different meaning; the output schema holds both sets).
	var m map[string]json.RawMessage
	if json.Unmarshal(fb, &m) != nil {
		return rb
	}
	var rm map[string]json.RawMessage
	_ = json.Unmarshal(rb, &rm)
	for k, v := range rm {
		if _, taken := m[k]; !taken {
			m[k] = v
		}
	}
	out, _ := json.Marshal(m)
	return out
}

// Package server wires Ghostlight together: the rod executor, the tool
// handlers, the invocation pipeline and the MCP edge. It is the only package
// that knows all of them; each of them knows only its neighbours.
package server

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"github.com/ghostlight-dev/ghostlight/generated/operator"
	"github.com/ghostlight-dev/ghostlight/generated/surface"
	"github.com/ghostlight-dev/ghostlight/runtime/browser"
	"github.com/ghostlight-dev/ghostlight/runtime/governance"
	"github.com/ghostlight-dev/ghostlight/runtime/handle"
	"github.com/ghostlight-dev/ghostlight/runtime/language"
	"github.com/ghostlight-dev/ghostlight/runtime/mcpedge"
	"github.com/ghostlight-dev/ghostlight/runtime/metrics"
	operatorverbs "github.com/ghostlight-dev/ghostlight/runtime/operator"
	"github.com/ghostlight-dev/ghostlight/runtime/pipeline"
	"github.com/ghostlight-dev/ghostlight/runtime/tools"
	"github.com/ghostlight-dev/ghostlight/runtime/tools/person"
	"github.com/ghostlight-dev/ghostlight/runtime/workbench"
)

// Config is the server's configuration.
type Config struct {
	Browser browser.Config
	// Authority is the configured authority (nil: all-open under the
	// permanent ceilings).
	Authority *governance.Authority
	// Policy returns the authority for a call starting now (the layer
	// loader's Current, which re-reads changed files); it replaces
	// Authority when set.
	Policy func() *governance.Authority
	// WithheldNames removes target names from receipts.
	WithheldNames bool
	Logger        *slog.Logger
	Version       string
	// Audit receives one record per invocation (nil: logged at debug).
	Audit pipeline.Auditor
	// Journal is the durable audit every record is written to before the
	// call answers (an *audit.Writer; nil: none).
	Journal pipeline.Journal
	// Replica is this server's replica name (serve --replica): every handle
	// it mints carries it, and a handle of another replica is refused
	// other_replica. "" picks a random one (Server.Replica says which).
	Replica string
	// Surface selects the tools served (ghostlight serve --surface):
	// SurfaceGhostlight (the default), SurfaceOperator or SurfaceAll.
	Surface string
}

// The surfaces a server can serve.
const (
	SurfaceGhostlight = "ghostlight" // Ghostlight's own tools
	SurfaceOperator   = "operator"   // the Operator class profile's verbs
	SurfaceAll        = "all"        // both
)

// serves says which catalogs a --surface value serves.
func serves(name string) (ghostlight, operatorVerbs bool, err error) {
	switch name {
	case "", SurfaceGhostlight:
		return true, false, nil
	case SurfaceOperator:
		return false, true, nil
	case SurfaceAll:
		return true, true, nil
	}
	return false, false, fmt.Errorf("unknown surface %q: want %s, %s or %s", name, SurfaceGhostlight, SurfaceOperator, SurfaceAll)
}

// Server is a running Ghostlight.
type Server struct {
	browser  *browser.Browser
	handler  *tools.Handler
	pipeline *pipeline.Pipeline
	edge     *mcpedge.Edge
	log      *slog.Logger
	// For the workbench (workbench_adapter.go).
	policy  func() *governance.Authority
	journal pipeline.Journal
	wb      *workbench.Workbench
	// The catalogs served (Config.Surface).
	ghostlight, operator bool
	self                 *selfHosts // listeners under the self-host ceiling (selfhosts.go)
	metrics              *metrics.Metrics
}

// New builds a server; nothing starts the browser until a call needs it.
func New(cfg Config) (*Server, error) {
	ghostlight, verbs, err := serves(cfg.Surface)
	if err != nil {
		return nil, err
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	if cfg.Browser.Logger == nil {
		cfg.Browser.Logger = cfg.Logger
	}
	// No logged value is longer than the bound, whoever logs it.
	cfg.Logger = slog.New(mcpedge.BoundLogs(cfg.Logger.Handler(), surface.LogValueCharsMax))
	cfg.Browser.Logger = slog.New(mcpedge.BoundLogs(cfg.Browser.Logger.Handler(), surface.LogValueCharsMax))
	cfg.Browser.Limits = browser.Limits{
		ZoomMinPercent: surface.ZoomPercentMin, ZoomMaxPercent: surface.ZoomPercentMax,
		WindowMinWidth: surface.WindowWidthMin, WindowMaxWidth: surface.WindowWidthMax,
		WindowMinHeight: surface.WindowHeightMin, WindowMaxHeight: surface.WindowHeightMax,
	}
	if cfg.Browser.Startup == "" {
		cfg.Browser.Startup = browser.StartupAuto
	}
	auth := cfg.Authority
	if auth == nil {
		auth = governance.AllOpen(cfg.Browser.Startup)
	}
	if cfg.Audit == nil {
		log := cfg.Logger
		cfg.Audit = func(r pipeline.AuditRecord) {
			log.Debug("audit", "invocation", r.Invocation, "parent", r.Parent, "tool", r.Tool, "status", r.Status, "effect", r.Effect, "reason", r.Reason, "caps", r.Caps, "hosts", r.Hosts, "ms", r.Duration.Milliseconds())
		}
	}
	policy := cfg.Policy
	if policy == nil {
		policy = func() *governance.Authority { return auth }
	}
	if cfg.Replica == "" {
		cfg.Replica = handle.NewReplica()
	}
	if err := handle.CheckReplica(cfg.Replica); err != nil {
		return nil, err
	}
	cfg.Browser.Replica = cfg.Replica
	self := &selfHosts{}
	self.watchEndpoint(&cfg.Browser)
	b := browser.New(cfg.Browser)
	m := metrics.New(gaugesOf(b)) // ops.go
	cfg.Audit = metered(m, cfg.Audit)
	journal := cfg.Journal // the workbench asks the journal itself
	if cfg.Journal != nil {
		cfg.Journal = timedJournal{cfg.Journal, m}
	}
	h, err := tools.New(tools.Options{Browser: b, Logger: cfg.Logger, WithheldNames: cfg.WithheldNames})
	if err != nil {
		b.Close()
		self.close()
		return nil, err
	}
	// The operator verbs run on the same pipeline: their handler calls the
	// Ghostlight tools they rest on as children.
	var more []pipeline.Surface
	if verbs {
		more = append(more, operatorverbs.Surface())
	}
	p := pipeline.New(pipeline.Options{Handler: h, Authority: policy, Audit: cfg.Audit, Journal: cfg.Journal, Logger: cfg.Logger, Surfaces: more, Replica: cfg.Replica,
		Mask: h.Person().Masker}) // the person's typed secrets never come back (typedrun.go)
	s := &Server{browser: b, handler: h, pipeline: p, log: cfg.Logger, policy: policy, journal: journal, ghostlight: ghostlight, operator: verbs, self: self, metrics: m}
	e, err := mcpedge.New(dispatcher{s}, mcpedge.Options{Name: "ghostlight", Version: cfg.Version, Logger: cfg.Logger, Limits: EdgeLimits(),
		Advertise: advertise(policy), RootsWait: surface.RootsRequestMsMax * time.Millisecond,
		Instructions: surface.TextServerInstructions})
	if err != nil {
		h.Close()
		b.Close()
		self.close()
		return nil, err
	}
	s.edge = e
	return s, nil
}

// EdgeLimits are the MCP edge's bounds, from spec/bounds.cue.
func EdgeLimits() mcpedge.Limits {
	return mcpedge.Limits{
		SessionCalls:        surface.SessionCallsMax,
		RequestBytes:        surface.RequestBytesMax,
		SessionIdle:         surface.HttpSessionIdleMsMax * time.Millisecond,
		EchoChars:           surface.EchoCharsMax,
		LogValueChars:       surface.LogValueCharsMax,
		StatelessIdle:       surface.StatelessIdleMsMax * time.Millisecond,
		StatelessPrincipals: surface.StatelessPrincipalsMax,
		DrainRetryAfter:     surface.DrainRetryAfterMsMax * time.Millisecond,
	}
}

// advertise lists a tool when the configured authority in force lets some
// way of calling it through (governance.Authority.Advertises).
func advertise(policy func() *governance.Authority) func() func(string) bool {
	return func() func(string) bool {
		a := policy()
		return func(name string) bool {
			t := surface.Lookup(name)
			if t == nil {
				t = operator.Lookup(name)
			}
			return t == nil || a.Advertises(t)
		}
	}
}

// Edge is the MCP edge to serve over stdio or HTTP.
func (s *Server) Edge() *mcpedge.Edge { return s.edge }

// Pipeline is the invocation path (for in-process callers and tests).
func (s *Server) Pipeline() *pipeline.Pipeline { return s.pipeline }

// Browser is the executor the server drives (benchmarks read its counters).
func (s *Server) Browser() *browser.Browser { return s.browser }

// Close ends every session and shuts the browser down, leaving no process.
func (s *Server) Close(ctx context.Context) error {
	_ = s.edge.Close(ctx)
	if s.wb != nil {
		s.wb.Close()
	}
	_ = s.handler.Close()
	err := s.browser.Close()
	s.self.close()
	return err
}

// dispatcher adapts the pipeline to the edge.
type dispatcher struct{ s *Server }

// Tools are the served surfaces' tools, Ghostlight's first.
func (d dispatcher) Tools() []mcpedge.Tool {
	var catalog []*surface.Tool
	if d.s.ghostlight {
		catalog = append(catalog, surface.Catalog...)
	}
	if d.s.operator {
		catalog = append(catalog, operator.Catalog...)
	}
	out := make([]mcpedge.Tool, 0, len(catalog))
	for _, t := range catalog {
		out = append(out, mcpedge.Tool{Name: t.Name, Definition: t.Definition})
	}
	return out
}

// reply renders a result: an operator verb's structuredContent is the
// profile's contract, a Ghostlight tool's the envelope.
func reply(tool string, r pipeline.Result) mcpedge.Reply {
	rep := mcpedge.Reply{Envelope: r.JSON, Summary: r.Envelope.Summary, NextSteps: r.Envelope.NextSteps, IsError: r.IsError(), UntrustedQuotes: r.Envelope.UntrustedQuotes}
	if operatorverbs.IsVerb(tool) {
		rep.Envelope, rep.NextSteps = operatorverbs.Structured(tool, r), operatorverbs.NextSteps(r)
	}
	if r.Image != nil {
		rep.Image = &mcpedge.Image{MIME: r.Image.MIME, Data: r.Image.Data}
	}
	return rep
}

func (d dispatcher) Call(ctx context.Context, c mcpedge.Call) mcpedge.Reply {
	// The client's roots reach browser_upload, and its way to show the
	// person a link reaches credential handoffs, through the call's context.
	ctx = person.WithElicitation(ctx, person.Elicit(c.Elicit))
	ctx = pipeline.WithTraceParent(ctx, c.TraceParent) // the audit line joins the caller's span
	if c.Stateless {                                   // its refusals about tabs and handles say what to pass
		ctx = pipeline.WithStateless(ctx, language.Stateless{On: true, ReleasedIdle: c.ReleasedIdle})
	}
	r := d.s.pipeline.Call(tools.WithClientRoots(ctx, tools.ClientRoots(c.Roots)), c.Session, c.Tool, c.Arguments, c.Progress)
	return reply(c.Tool, r)
}

// Busy authors the edge's busy refusal through the pipeline (envelope,
// words, audit), without running anything.
func (d dispatcher) Busy(c mcpedge.Call, limit int) mcpedge.Reply {
	return reply(c.Tool, d.s.pipeline.Busy(c.Session, c.Tool, limit))
}

func (d dispatcher) SessionClosed(session string) {
	d.s.pipeline.SessionClosed(session) // the session's origin fingerprints
	if err := d.s.handler.Release(context.Background(), session); err != nil {
		d.s.log.Debug("release session", "session", session, "err", err)
	}
}

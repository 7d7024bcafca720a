package server

import (
	"context"
	"time"

	"github.com/ghostlight-dev/ghostlight/runtime/audit"
	"github.com/ghostlight-dev/ghostlight/runtime/browser"
	"github.com/ghostlight-dev/ghostlight/runtime/metrics"
	"github.com/ghostlight-dev/ghostlight/runtime/pipeline"
)

// The operators' hooks: /metrics is fed here, by the audit record every
// invocation already produces and by the journal's writes, so neither the
// pipeline, the executor nor the edge knows of it.

// metered feeds m with every audit record before passing it on.
func metered(m *metrics.Metrics, next pipeline.Auditor) pipeline.Auditor {
	return func(r pipeline.AuditRecord) {
		m.Call(r.Tool, r.Status, r.Reason, r.Duration)
		next(r)
	}
}

// timedJournal times the durable audit's writes.
type timedJournal struct {
	pipeline.Journal
	m *metrics.Metrics
}

func (j timedJournal) Write(r audit.Record) error {
	t0 := time.Now()
	err := j.Journal.Write(r)
	j.m.AuditWrite(time.Since(t0))
	return err
}

func (j timedJournal) Begin(r audit.Record) error {
	t0 := time.Now()
	err := j.Journal.Begin(r)
	j.m.AuditWrite(time.Since(t0))
	return err
}

// Follow passes a policy's audit settings on (pipeline/audit.go follows
// them on the journal it holds).
func (j timedJournal) Follow(path string, maxBytes int64, keep int, gen uint64) {
	if f, ok := j.Journal.(interface {
		Follow(string, int64, int, uint64)
	}); ok {
		f.Follow(path, maxBytes, keep, gen)
	}
}

func gaugesOf(b *browser.Browser) func() metrics.Gauges {
	return func() metrics.Gauges {
		g := b.Gauges()
		return metrics.Gauges{Workspaces: g.Workspaces, Contexts: g.Contexts, Tabs: g.Tabs, Starts: g.Starts}
	}
}

// Replica is the replica name every handle of this server carries.
func (s *Server) Replica() string { return s.browser.Replica() }

// Metrics is the server's /metrics registry.
func (s *Server) Metrics() *metrics.Metrics { return s.metrics }

// Ready is /readyz's question: the browser runs and a context can be made.
func (s *Server) Ready(ctx context.Context) error { return s.browser.Ready(ctx) }

// Drain refuses new workspaces and waits, until ctx ends, for the HTTP
// requests at work to finish (mcpedge.Edge.Drain); Close follows it.
func (s *Server) Drain(ctx context.Context) bool {
	select {
	case <-s.StartDrain():
		return true
	case <-ctx.Done():
		return false
	}
}

// StartDrain begins the drain and returns a channel closed once no HTTP
// request is at work.
func (s *Server) StartDrain() <-chan struct{} {
	s.metrics.Draining()
	return s.edge.StartDrain()
}

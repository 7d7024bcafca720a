package tools

import (
	"context"
	"strconv"
	"strings"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
	"github.com/ghostlight-dev/ghostlight/runtime/browser"
	"github.com/ghostlight-dev/ghostlight/runtime/browser/action"
	"github.com/ghostlight-dev/ghostlight/runtime/browser/evidence"
	"github.com/ghostlight-dev/ghostlight/runtime/language"
	"github.com/ghostlight-dev/ghostlight/runtime/pipeline"
	"github.com/ghostlight-dev/ghostlight/runtime/refusal"
	"github.com/ghostlight-dev/ghostlight/runtime/tools/outcome"
)

// cursorPrefix starts a diagnose cursor: "cur_<sequence>".
const cursorPrefix = surface.HandlePrefixCursor + "_"

// BrowserDiagnose reads a tab's console and network evidence. The first call
// on a tab starts bounded, volatile observation; reads never remove entries.
// Evidence is untrusted page content: it goes into facts only, never into
// logs or audit.
func (h *Handler) BrowserDiagnose(ctx context.Context, a *surface.BrowserDiagnoseArgs) (*surface.BrowserDiagnoseFacts, surface.Outcome) {
	s := h.session(ctx)
	ctx, cancel := deadline(ctx, 0)
	defer cancel()
	after, ok := parseCursor(a.After)
	if !ok {
		return nil, outcome.Refused(&surface.Refusal{Reason: surface.ReasonInvalidArguments, Message: language.MsgNotACursor})
	}
	t, r := s.tab(ctx, a.Tab, "")
	if r != nil {
		return nil, outcome.Refused(r)
	}
	f := &surface.BrowserDiagnoseFacts{Tab: t.Handle()}
	r = s.onTab(ctx, t, func(ctx context.Context) *surface.Refusal {
		c, started, err := s.collector(ctx, t)
		if err != nil {
			return refusal.For(err, surface.TimeoutMsDefault)
		}
		// The read reflects every event the page emitted before the call:
		// one round trip through the renderer proves the record caught up.
		// A page whose script never yields cannot answer (and emits nothing
		// meanwhile): it is read as it is after action.ObserveBudget.
		if !started {
			sctx, cancel := context.WithTimeout(ctx, action.ObserveBudget)
			_ = t.Sync(sctx)
			cancel()
		}
		q := evidence.Query{
			After:    after,
			Console:  a.Source != surface.BrowserDiagnoseSourceNetwork,
			Network:  a.Source != surface.BrowserDiagnoseSourceConsole,
			Problems: a.Detail != surface.BrowserDiagnoseDetailAll,
			Match:    a.Match,
			Limit:    a.Limit,
		}
		if inv := pipeline.FromContext(ctx); inv != nil && inv.Authority != nil {
			q.Admit = func(host string) bool { return host == "" || inv.Authority.AdmitHost(host) == nil }
		}
		res := c.Read(q)
		f.Entries = make([]*surface.Evidence, 0, len(res.Entries))
		for _, e := range res.Entries {
			f.Entries = append(f.Entries, &surface.Evidence{Kind: e.Kind, Level: e.Level, Text: e.Text, Status: e.Status, Host: e.Host})
		}
		f.NextCursor = cursorPrefix + strconv.FormatUint(res.Next, 10)
		f.Truncated, f.Evicted, f.HostFiltered, f.TrackingStarted = res.Truncated, res.Evicted, res.HostFiltered, started
		return nil
	})
	if r != nil {
		return nil, outcome.Refused(r)
	}
	return f, outcome.Done(language.Diagnosed(f.Tab, a.Detail, len(f.Entries), f.Truncated, f.TrackingStarted, f.Evicted, f.HostFiltered), "", surface.EffectNone, true)
}

// parseCursor reads an after cursor ("" is the start).
func parseCursor(s string) (uint64, bool) {
	if s == "" {
		return 0, true
	}
	n, err := strconv.ParseUint(strings.TrimPrefix(s, cursorPrefix), 10, 64)
	return n, err == nil && strings.HasPrefix(s, cursorPrefix)
}

// collector returns the tab's evidence collector, starting one (and
// reporting so) when the tab has none for its current page. Call it holding
// the tab.
func (s *session) collector(ctx context.Context, t *browser.Tab) (*evidence.Collector, bool, error) {
	old, _ := keptEvidence.Get(t)
	// A collector observes one page: it ends when the tab's page goes away
	// (the tab was recreated behind its handle).
	if old != nil && !old.Ended() {
		return old, false, nil
	}
	c, err := evidence.Start(ctx, t, evidence.Limits{Capacity: surface.DiagnoseBufferMax, TextMax: surface.MessageCharsMax})
	if err != nil {
		return nil, false, err
	}
	keptEvidence.Put(t, c)
	return c, true, nil
}

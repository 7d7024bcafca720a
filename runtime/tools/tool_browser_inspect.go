package tools

import (
	"context"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
	"github.com/ghostlight-dev/ghostlight/runtime/browser"
	"github.com/ghostlight-dev/ghostlight/runtime/browser/pagejs"
	"github.com/ghostlight-dev/ghostlight/runtime/language"
	"github.com/ghostlight-dev/ghostlight/runtime/pipeline"
	"github.com/ghostlight-dev/ghostlight/runtime/refusal"
	"github.com/ghostlight-dev/ghostlight/runtime/tools/outcome"
)

// BrowserInspect lists visible controls or structure with fresh target
// handles, or records a bounded structure-only document tree as the tab's
// snapshot and diffs it against the one it supersedes.
func (h *Handler) BrowserInspect(ctx context.Context, a *surface.BrowserInspectArgs) (*surface.BrowserInspectFacts, surface.Outcome) {
	s := h.session(ctx)
	ctx, cancel := deadline(ctx, 0)
	defer cancel()
	t, r := s.tab(ctx, a.Tab, a.Root)
	if r != nil {
		return nil, outcome.Refused(r)
	}
	f := &surface.BrowserInspectFacts{Tab: t.Handle(), Items: []*surface.Item{}}
	var text language.Text
	var ready string
	r = s.onTab(ctx, t, func(ctx context.Context) *surface.Refusal {
		// The generation is read before the walk: should the document change
		// during it, the handles are stale rather than naming the new page.
		s.World(t).TakeReadiness() // what an earlier call saw is not this one's
		gen := t.Generation()
		f.DocumentGeneration = int(gen)
		var r *surface.Refusal
		if a.Branch() == surface.BrowserInspectBranchDocument {
			text, r = s.inspectDocument(ctx, t, gen, a, f)
		} else {
			text, r = s.inspectItems(ctx, t, gen, a, f)
		}
		ready = s.readinessSeen(ctx, t)
		return r
	})
	if r != nil {
		return nil, outcome.Refused(r)
	}
	return f, outcome.Done(text, ready, surface.EffectNone, true)
}

func (s *session) inspectItems(ctx context.Context, t *browser.Tab, gen uint64, a *surface.BrowserInspectArgs, f *surface.BrowserInspectFacts) (language.Text, *surface.Refusal) {
	res, err := pagejs.Inspect(ctx, s.World(t), pagejs.InspectRequest{Scope: a.Scope, MaxItems: a.MaxItems, NameMax: surface.TargetNameCharsMax, CredentialAutocomplete: surface.CredentialAutocomplete})
	if err != nil {
		return language.Text{}, refusal.For(err, surface.TimeoutMsDefault)
	}
	for _, it := range res.Items {
		f.Items = append(f.Items, s.item(t, gen, it))
	}
	f.Total, f.Truncated = res.Total, res.Truncated
	return language.Inspected(t.URL(), a.Scope, len(f.Items), f.Total, f.Truncated), nil
}

func (s *session) inspectDocument(ctx context.Context, t *browser.Tab, gen uint64, a *surface.BrowserInspectArgs, f *surface.BrowserInspectFacts) (language.Text, *surface.Refusal) {
	req := pagejs.TreeRequest{MaxDepth: a.MaxDepth, MaxItems: a.MaxItems, NameMax: surface.TargetNameCharsMax}
	if a.Root != "" || a.RootSelector != nil {
		id, r := s.element(ctx, t, a.Root, a.RootSelector, locator(a.RootSelector, "/root", "/root_selector"))
		if r != nil {
			return language.Text{}, r
		}
		req.Root = id
	}
	w := s.World(t)
	tree, err := pagejs.DocumentTree(ctx, w, req)
	if err != nil {
		return language.Text{}, refusal.For(err, surface.TimeoutMsDefault)
	}
	f.Total, f.Truncated = len(tree.Nodes), tree.Truncated
	if tree.Truncated {
		// The bounded walk stops at max_items; one unbounded walk counts the
		// whole tree so total stays true to the page. Paid only when cut.
		req.MaxItems = 0
		all, err := pagejs.DocumentTree(ctx, w, req)
		if err != nil {
			return language.Text{}, refusal.For(err, surface.TimeoutMsDefault)
		}
		f.Total = max(len(all.Nodes), len(tree.Nodes))
	}
	// Roles and names are narrowed once, so the items, the snapshot and the
	// diff samples all speak Ghostlight's closed nouns.
	for i := range tree.Nodes {
		n := &tree.Nodes[i]
		n.Role, n.Name = string(language.Role(n.Role)), language.Name(n.Name)
		f.Items = append(f.Items, &surface.Item{Target: s.targetHandle(t, gen, n.ID), Role: surface.Role(n.Role), Name: n.Name, State: stateNames(n.State), Level: n.Depth})
	}
	cur, prev := s.recordSnapshot(t.Handle(), gen, tree)
	f.Snapshot = cur.handle
	var prevHandle string
	var d pagejs.TreeDiff
	if prev != nil {
		d = pagejs.DiffLimited(admittedNodes(ctx, prev.tree), tree, surface.DiffSamplesMax)
		prevHandle = prev.handle
		f.Diff = &surface.TreeDiff{Previous: prev.handle, Added: d.Added, Removed: d.Removed, Changed: d.Changed, Samples: d.Samples}
	}
	return language.Snapshotted(t.URL(), cur.handle, len(f.Items), f.Total, f.Truncated, tree.DepthCut, prevHandle, d.Added, d.Removed, d.Changed), nil
}

// readinessSeen is the readiness the call's own page-code calls saw in the
// tab's main document (each reports it), or a fresh observation when none
// ran: no round trip of its own for perception.
func (s *session) readinessSeen(ctx context.Context, t *browser.Tab) string {
	if r := s.World(t).TakeReadiness(); r != "" {
		return r
	}
	return readinessNow(ctx, t)
}

// readinessNow observes the page's readiness for the envelope; perception
// on a page still loading is worth saying so.
func readinessNow(ctx context.Context, t *browser.Tab) string {
	r, err := t.Readiness(ctx)
	if err != nil {
		return "unknown"
	}
	return r
}

// admittedNodes is a snapshot's tree without the nodes of frames whose host
// this call may not reach: a snapshot taken under a wider authority must not
// name, through the diff's samples or counts, what this call cannot see.
func admittedNodes(ctx context.Context, t pagejs.Tree) pagejs.Tree {
	inv := pipeline.FromContext(ctx)
	if inv == nil || inv.Authority == nil {
		return t
	}
	out := t
	out.Nodes = make([]pagejs.TreeNode, 0, len(t.Nodes))
	for _, n := range t.Nodes {
		if n.Frame == "" || inv.Authority.AdmitURL(n.Frame) == nil {
			out.Nodes = append(out.Nodes, n)
		}
	}
	return out
}

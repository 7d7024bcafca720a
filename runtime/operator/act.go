package operator

import (
	"context"
	"slices"
	"strings"

	"github.com/ghostlight-dev/ghostlight/generated/operator"
	"github.com/ghostlight-dev/ghostlight/generated/surface"
	"github.com/ghostlight-dev/ghostlight/runtime/pipeline"
)

// reading is what act compares before and after its input: the surface's
// document, URL and text, and its controls and structure with their
// states. Focus is left out: pressing a control moves focus onto it, which
// is not the surface changing.
type reading struct {
	generation int
	url, text  string
	items      []string
	readiness  surface.Readiness
}

func (r *reading) equal(o *reading) bool {
	return r.generation == o.generation && r.url == o.url && r.text == o.text && slices.Equal(r.items, o.items)
}

// read takes one reading (browser_inspect all, browser_read); a refused
// child ends it with that result.
func read(ctx context.Context, tab string) (*reading, *pipeline.Result) {
	ins := child(ctx, "browser_inspect", tab, map[string]any{"scope": surface.BrowserInspectScopeAll})
	if failed(ins) {
		return nil, &ins
	}
	rd := child(ctx, "browser_read", tab, map[string]any{})
	if failed(rd) {
		return nil, &rd
	}
	out := &reading{readiness: rd.Envelope.Readiness}
	if f, ok := ins.Facts.(*surface.BrowserInspectFacts); ok {
		for _, it := range f.Items {
			var state []string
			for _, s := range it.State {
				if s != surface.ItemStateFocused {
					state = append(state, s)
				}
			}
			out.items = append(out.items, string(it.Role)+"\x00"+it.Name+"\x00"+strings.Join(state, ","))
		}
	}
	if f, ok := rd.Facts.(*surface.BrowserReadFacts); ok {
		out.generation, out.url, out.text = f.DocumentGeneration, f.URL, f.Text
	}
	return out, nil
}

// input is one act's Ghostlight tool and arguments.
func input(a *operator.OperatorActArgs) (string, map[string]any) {
	switch a.Action {
	case operator.ActionEnterText:
		return "browser_type_text", map[string]any{"target": a.Target, "text": *a.Value, "clear_first": true}
	case operator.ActionScroll:
		return "browser_scroll", map[string]any{"target": a.Target}
	case operator.ActionHover:
		return "browser_hover", map[string]any{"target": a.Target}
	}
	return "browser_click", map[string]any{"target": a.Target}
}

// evidence is what an input's own facts prove changed: a committed
// navigation, an opened tab, a dialog, a scroll, a field's new text.
func evidence(facts any) (changed bool, dialog surface.DialogType) {
	switch f := facts.(type) {
	case *surface.BrowserClickFacts:
		return f.Landing != nil || len(f.OpenedTabs) > 0 || f.DialogType != "", f.DialogType
	case *surface.BrowserTypeTextFacts:
		// Ghostlight cannot read a field's text before typing: text that
		// replaced it counts as a change (the claim says so).
		return f.Typed || f.Landing != nil || len(f.OpenedTabs) > 0 || f.DialogType != "", f.DialogType
	case *surface.BrowserScrollFacts:
		return f.Scrolled || f.DialogType != "", f.DialogType
	case *surface.BrowserHoverFacts:
		return f.DialogType != "", f.DialogType
	}
	return false, ""
}

// OperatorAct performs one input and reports whether the surface changed,
// observed: the surface's reading before and after the input differ, or
// the input's own facts show a navigation, a new tab, a dialog, a scroll
// or typed text. A dialog or a governance refusal that stopped it is
// blocked_by.
func (Handler) OperatorAct(ctx context.Context, a *operator.OperatorActArgs) (*operator.OperatorActFacts, surface.Outcome) {
	before, stop := read(ctx, a.SurfaceID)
	if stop != nil {
		f := &operator.OperatorActFacts{Readiness: readiness(stop.Envelope.Readiness), BlockedBy: blockedBy(stop.Refusal)}
		return f, refused("operator_act", *stop)
	}
	tool, args := input(a)
	r := child(ctx, tool, a.SurfaceID, args)
	changed, dialog := evidence(r.Facts)
	f := &operator.OperatorActFacts{Readiness: readiness(r.Envelope.Readiness)}
	if dialog != "" {
		f.BlockedBy = string(surface.ReasonDialogBlocking)
	}
	if failed(r) {
		f.Changed = changed && r.Envelope.Effect != surface.EffectNone
		f.BlockedBy = blockedBy(r.Refusal)
		return f, refused("operator_act", r)
	}
	if dialog == "" && r.Envelope.Effect != surface.EffectNone {
		// The page is not held by a dialog: read it again.
		after, stop := read(ctx, a.SurfaceID)
		if stop != nil {
			// The input happened; what followed cannot be read.
			f.Changed = true
			f.BlockedBy = blockedBy(stop.Refusal)
			out := refused("operator_act", *stop)
			out.Effect = r.Envelope.Effect
			out.Summary = r.Envelope.Summary + " " + stop.Envelope.Summary
			return f, out
		}
		changed = changed || !before.equal(after)
		f.Readiness = readiness(after.readiness)
	}
	f.Changed = changed
	out := surface.Outcome{Effect: r.Envelope.Effect, Readiness: r.Envelope.Readiness, RepeatSafe: false, Summary: actSummary(r.Envelope.Summary, f)}
	switch {
	case dialog != "":
		out.NextSteps = []string{stepDialog}
	case f.Readiness != operator.ReadinessSettled:
		out.NextSteps = []string{stepSettle}
	default:
		out.NextSteps = []string{stepRead}
	}
	return f, out
}

func actSummary(did string, f *operator.OperatorActFacts) string {
	if f.Changed {
		return did + " The surface changed."
	}
	return did + " The surface did not change."
}

package tools

import (
	"context"
	"strconv"
	"strings"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
	"github.com/ghostlight-dev/ghostlight/runtime/browser"
	"github.com/ghostlight-dev/ghostlight/runtime/browser/pagejs"
	"github.com/ghostlight-dev/ghostlight/runtime/language"
)

// A target handle binds one element to one tab and document generation:
// "target_" + the tab handle's suffix (lowercase base32) + "G" + generation +
// "N" + the page-side element id. A new document makes it stale by
// construction; an element removed from the page answers stale from the page.
type targetRef struct {
	tab string
	gen uint64
	id  int
}

func targetHandle(t *browser.Tab, gen uint64, id int) string {
	return surface.HandlePrefixTarget + "_" + strings.TrimPrefix(t.Handle(), surface.HandlePrefixTab+"_") + "G" + strconv.FormatUint(gen, 10) + "N" + strconv.Itoa(id)
}

func parseTarget(h string) (targetRef, bool) {
	rest, ok := strings.CutPrefix(h, surface.HandlePrefixTarget+"_")
	if !ok {
		return targetRef{}, false
	}
	tab, rest, ok1 := strings.Cut(rest, "G")
	gen, id, ok2 := strings.Cut(rest, "N")
	g, err1 := strconv.ParseUint(gen, 10, 64)
	n, err2 := strconv.Atoi(id)
	if !ok1 || !ok2 || err1 != nil || err2 != nil || tab == "" || n <= 0 {
		return targetRef{}, false
	}
	return targetRef{tab: tab, gen: g, id: n}, true
}

// element resolves a target handle or a semantic selector to a live element
// id on t, refusing stale handles before touching the page.
func (s *session) element(ctx context.Context, t *browser.Tab, target string, sel *surface.Selector, pointer string) (int, *surface.Refusal) {
	if sel != nil {
		ps := pagejs.Selector{Name: sel.Name, Exact: sel.Exact}
		if sel.Role != "" {
			ps.Roles = language.AriaRoles(surface.Role(sel.Role))
		}
		id, err := pagejs.ResolveSelector(ctx, s.world(t), ps)
		if err != nil {
			return 0, refusalFor(err, 0)
		}
		return id, nil
	}
	ref, ok := parseTarget(target)
	if !ok {
		return 0, &surface.Refusal{Reason: surface.ReasonStaleTarget, Pointer: pointer, Message: "not a target handle Ghostlight issued"}
	}
	if "tab_"+ref.tab != t.Handle() {
		return 0, &surface.Refusal{Reason: surface.ReasonInvalidArguments, Pointer: pointer, Message: "that target belongs to another tab"}
	}
	if ref.gen != t.Generation() {
		return 0, &surface.Refusal{Reason: surface.ReasonStaleTarget, Pointer: pointer}
	}
	return ref.id, nil
}

// item renders a perceived element as a fact row with a fresh handle.
func (s *session) item(t *browser.Tab, gen uint64, it pagejs.Item) *surface.Item {
	return &surface.Item{
		Target:     targetHandle(t, gen, it.ID),
		Role:       language.Role(it.Role),
		Name:       language.Name(it.Name),
		State:      stateNames(it.State),
		Credential: it.Credential,
		Level:      it.Level,
	}
}

// stateNames lists the states that hold, in the spec's order; an empty
// list (never null) when none does, since every item carries state.
func stateNames(st pagejs.State) []string {
	out := []string{}
	for _, f := range []struct {
		on   bool
		name string
	}{{st.Disabled, "disabled"}, {st.Checked, "checked"}, {st.Expanded, "expanded"}, {st.Selected, "selected"}, {st.Pressed, "pressed"}, {st.Focused, "focused"}, {st.Required, "required"}, {st.ReadOnly, "readonly"}} {
		if f.on {
			out = append(out, f.name)
		}
	}
	return out
}

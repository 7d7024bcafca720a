package tools

import (
	"context"
	"strings"
	"sync"
	"time"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
	"github.com/ghostlight-dev/ghostlight/runtime/browser"
	"github.com/ghostlight-dev/ghostlight/runtime/browser/pagejs"
	"github.com/ghostlight-dev/ghostlight/runtime/handle"
	"github.com/ghostlight-dev/ghostlight/runtime/language"
	"github.com/ghostlight-dev/ghostlight/runtime/refusal"
	"github.com/ghostlight-dev/ghostlight/runtime/tools/person"
)

// A target handle is "target_" and five base62 characters: a sequence
// number of the session's target table, permuted under the session's own
// random key (runtime/handle). The table binds each number to one tab,
// document generation and page-side element id; the same element of the
// same document keeps its handle. A new document makes the handle stale by
// construction (its generation is no longer the tab's); an element removed
// from the page answers stale from the page; a number the table dropped
// (past targets_kept) is stale; a body that decodes to a number this
// session never issued (another session's handle, or a made-up one) is
// unknown.
type targetRef struct {
	tab string // the tab handle
	gen uint64
	id  int
}

// targets is a session's target table.
type targets struct {
	mu    sync.Mutex
	codec *handle.Codec
	next  uint64      // numbers issued: 0 .. next-1
	floor uint64      // numbers below floor were dropped
	refs  []targetRef // refs[n-floor] is number n's binding
	byRef map[targetRef]uint64
}

// targetBody: the handle_chars bound less the prefix, its underscore and
// the replica's name (runtime/handle/replica.go).
const targetBody = surface.HandleCharsMax - len(surface.HandlePrefixTarget) - 1 - handle.ReplicaChars

func newTargets(replica string) *targets {
	return &targets{codec: handle.NewTagged(targetBody, replica), byRef: map[targetRef]uint64{}}
}

// mint returns the handle of ref, issuing a number when it has none.
func (ts *targets) mint(ref targetRef) string {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	n, ok := ts.byRef[ref]
	if !ok || n < ts.floor {
		if ts.next == ts.codec.Capacity() {
			// Every number was issued: start a new table under a new key
			// (older handles then read as unknown) rather than reuse one.
			*ts = targets{codec: handle.NewTagged(targetBody, ts.codec.Tag()), byRef: map[targetRef]uint64{}}
		}
		n = ts.next
		ts.next++
		ts.refs = append(ts.refs, ref)
		ts.byRef[ref] = n
		for len(ts.refs) > surface.TargetsKeptMax {
			if old := ts.refs[0]; ts.byRef[old] == ts.floor {
				delete(ts.byRef, old)
			}
			ts.refs = ts.refs[1:]
			ts.floor++
		}
	}
	return surface.HandlePrefixTarget + "_" + ts.codec.Encode(n)
}

// targetState is what a target handle is to its session.
type targetState int

const (
	targetUnknown targetState = iota // never issued by this session
	targetDropped                    // issued, and since dropped from the table
	targetBound                      // issued and bound (it may still be stale)
)

// lookup resolves a target handle to its binding.
func (ts *targets) lookup(h string) (targetRef, targetState) {
	body, ok := strings.CutPrefix(h, surface.HandlePrefixTarget+"_")
	if !ok {
		return targetRef{}, targetUnknown
	}
	ts.mu.Lock()
	defer ts.mu.Unlock()
	n, ok := ts.codec.Decode(body)
	switch {
	case !ok || n >= ts.next:
		return targetRef{}, targetUnknown
	case n < ts.floor:
		return targetRef{}, targetDropped
	}
	return ts.refs[n-ts.floor], targetBound
}

// targetHandle mints the handle of element id of t's document gen.
func (s *session) targetHandle(t *browser.Tab, gen uint64, id int) string {
	return s.targets.mint(targetRef{tab: t.Handle(), gen: gen, id: id})
}

// unknownHandle refuses a handle this session never issued.
func unknownHandle(pointer, kind string) *surface.Refusal {
	return &surface.Refusal{Reason: surface.ReasonUnknownHandle, Pointer: pointer, Message: language.NotOurHandle(kind)}
}

// element resolves a target handle or a semantic selector to a live element
// id on t, refusing stale handles before touching the page.
func (s *session) element(ctx context.Context, t *browser.Tab, target string, sel *surface.Selector, pointer string) (int, *surface.Refusal) {
	return s.Element(ctx, t, target, sel, pointer, time.Time{})
}

// Element is element; with a deadline, a selector that matches nothing
// is looked up again each animation frame until then (an action's control
// may still be appearing: pagejs.AwaitSelector).
func (s *session) Element(ctx context.Context, t *browser.Tab, target string, sel *surface.Selector, pointer string, deadline time.Time) (int, *surface.Refusal) {
	if sel != nil {
		ps := pagejs.Selector{Name: sel.Name, Exact: sel.Exact, Judge: person.Judge(s, sel.Name)}
		if sel.Role != "" {
			if r := unknownRole(sel.Role, pointer); r != nil {
				return 0, r
			}
			ps.Roles = language.AriaRoles(surface.Role(sel.Role))
		}
		id, err := pagejs.AwaitSelector(ctx, s.World(t), ps, deadline)
		if err != nil {
			r := refusal.For(err, 0)
			if r.Pointer == "" && (r.Reason == surface.ReasonTargetNotFound || r.Reason == surface.ReasonTargetAmbiguous) {
				r.Pointer = pointer // the selector's own field, as act.resolve says too
			}
			return 0, r
		}
		return id, nil
	}
	ref, st := s.targets.lookup(target)
	switch st {
	case targetUnknown:
		return 0, unknownHandle(pointer, "target")
	case targetDropped:
		return 0, &surface.Refusal{Reason: surface.ReasonStaleTarget, Pointer: pointer}
	}
	if ref.tab != t.Handle() {
		return 0, &surface.Refusal{Reason: surface.ReasonInvalidArguments, Pointer: pointer, Message: language.MsgTargetOtherTab}
	}
	if ref.gen != t.Generation() {
		return 0, &surface.Refusal{Reason: surface.ReasonStaleTarget, Pointer: pointer}
	}
	return ref.id, nil
}

// roleNouns is the closed noun set, as a refusal lists it.
var roleNouns = func() string {
	names := make([]string, len(surface.RoleValues))
	for i, r := range surface.RoleValues {
		names[i] = string(r)
	}
	return strings.Join(names, ", ")
}()

// unknownRole refuses a selector role outside the closed noun set. The
// schema states only the role's length (the 33 nouns would cost every
// selector 400 bytes of discovery, docs/decisions/discovery-budget-before-issue-24.md), so
// the decoder accepts any such string and the set is checked here, before
// the page is touched, at the role's own pointer.
func unknownRole(role, pointer string) *surface.Refusal {
	for _, r := range surface.RoleValues {
		if string(r) == role {
			return nil
		}
	}
	return &surface.Refusal{Reason: surface.ReasonInvalidArguments, Pointer: pointer + "/role", Rule: surface.RuleEnum, Limit: roleNouns,
		Message: language.NotARoleNoun(role, roleNouns)}
}

// item renders a perceived element as a fact row with a fresh handle.
func (s *session) item(t *browser.Tab, gen uint64, it pagejs.Item) *surface.Item {
	return &surface.Item{
		Target:     s.targetHandle(t, gen, it.ID),
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

package tools

import (
	"context"
	"strings"
	"testing"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
)

// TestHandlesAreCompactAndSessionBound, on real Chromium: every handle kind
// a session is given (tab, target, view, snapshot, recording, invocation)
// is at most handle_chars long; another session's target, view and tab
// handles are refused as unknown, never as stale; and a target or view of
// this session still goes stale after a navigation.
func TestHandlesAreCompactAndSessionBound(t *testing.T) {
	h := newHarness(t)
	srv := site(t, map[string]string{
		"/":  `<title>One</title><button>Save</button><label>Name <input></label>`,
		"/2": `<title>Two</title><button>Save</button>`,
	})
	nav := h.open(srv.URL + "/")
	ins, ir := h.inspect(`{}`)
	save := itemNamed(t, ins.Items, "button", "Save").Target
	var shot surface.BrowserScreenshotFacts
	sr := h.must("browser_screenshot", `{}`)
	h.facts(sr, &shot)
	var doc surface.BrowserInspectFacts
	dr := h.must("browser_inspect", `{"scope":"document"}`)
	h.facts(dr, &doc)
	var rec surface.BrowserRecordFacts
	rr := h.must("browser_record", `{"action":"start"}`)
	h.facts(rr, &rec)
	h.must("browser_record", `{"action":"discard","recording":"`+rec.Recording+`"}`)

	for kind, v := range map[string]string{
		"tab": nav.Tab, "target": save, "view": shot.View, "snapshot": doc.Snapshot,
		"recording": rec.Recording, "invocation": ir.Envelope.Invocation,
		"invocation (screenshot)": sr.Envelope.Invocation, "invocation (record)": rr.Envelope.Invocation,
	} {
		if v == "" || len(v) > surface.HandleCharsMax {
			t.Errorf("%s handle %q: %d characters, more than %d", kind, v, len(v), surface.HandleCharsMax)
		}
	}
	for _, it := range ins.Items {
		if len(it.Target) > surface.HandleCharsMax {
			t.Errorf("target handle %q is %d characters", it.Target, len(it.Target))
		}
	}
	// The same element of the same document keeps its handle.
	if again, _ := h.inspect(`{}`); itemNamed(t, again.Items, "button", "Save").Target != save {
		t.Errorf("a second inspect renamed the Save button: %s", itemNamed(t, again.Items, "button", "Save").Target)
	}

	// Another session, with a tab of its own on the same page: this session's
	// handles mean nothing there.
	other := &harness{t: t, session: h.session + "_other"}
	t.Cleanup(func() { testHandler.Release(context.Background(), other.session) })
	other.open(srv.URL + "/")
	for _, c := range []struct{ tool, args, pointer string }{
		{"browser_click", `{"target":"` + save + `"}`, "/target"},
		{"browser_read", `{"target":"` + save + `"}`, "/target"},
		{"browser_wait", `{"condition":"target_present","target":"` + save + `","timeout_ms":500}`, "/target"},
		{"browser_click", `{"view":"` + shot.View + `","x":5,"y":5}`, "/view"},
		{"browser_screenshot", `{"view":"` + shot.View + `","x":0,"y":0,"width":10,"height":10}`, "/view"},
	} {
		r := other.refuse(c.tool, c.args, surface.ReasonUnknownHandle)
		if strings.Contains(r.Envelope.Summary, "changed") || strings.Contains(r.Envelope.Summary, "no longer") || !strings.Contains(string(r.Envelope.Facts), `"pointer":"`+c.pointer+`"`) {
			t.Errorf("%s %s in another session: %s", c.tool, c.args, r.JSON)
		}
	}
	other.refuse("browser_read", `{"tab":"`+nav.Tab+`"}`, surface.ReasonUnknownTab)
	// A made-up handle of the right shape is unknown too.
	other.refuse("browser_click", `{"target":"target_00000"}`, surface.ReasonUnknownHandle)

	// This session's handles still work here, and go stale as before once
	// the tab navigates.
	h.must("browser_click", `{"target":"`+save+`"}`)
	h.open(srv.URL + "/2")
	h.refuse("browser_click", `{"target":"`+save+`","tab":"`+nav.Tab+`"}`, surface.ReasonStaleTarget)
	h.refuse("browser_read", `{"target":"`+save+`","tab":"`+nav.Tab+`"}`, surface.ReasonStaleTarget)
	h.refuse("browser_click", `{"view":"`+shot.View+`","x":5,"y":5,"tab":"`+nav.Tab+`"}`, surface.ReasonStaleView)
}

// TestDroppedTargetIsStale: past targets_kept the oldest handles leave the
// session's table; the session issued them, so they read as stale (inspect
// again), while a number it never issued reads as unknown.
func TestDroppedTargetIsStale(t *testing.T) {
	ts := newTargets("r01")
	first := ts.mint(targetRef{tab: "tab_x", gen: 1, id: 1})
	if _, st := ts.lookup(first); st != targetBound {
		t.Fatalf("fresh handle: %v", st)
	}
	for i := 2; i <= surface.TargetsKeptMax+1; i++ {
		ts.mint(targetRef{tab: "tab_x", gen: 1, id: i})
	}
	if _, st := ts.lookup(first); st != targetDropped {
		t.Fatalf("dropped handle: %v", st)
	}
	last := ts.mint(targetRef{tab: "tab_x", gen: 1, id: surface.TargetsKeptMax + 1})
	if ref, st := ts.lookup(last); st != targetBound || ref.id != surface.TargetsKeptMax+1 {
		t.Fatalf("latest handle: %+v %v", ref, st)
	}
	// A table that issued nothing (another session's) never takes it for its own.
	if _, st := newTargets("r01").lookup(first); st != targetUnknown {
		t.Fatalf("a table that issued nothing took a handle for its own: %v", st)
	}
	if _, st := ts.lookup("target_zz"); st != targetUnknown {
		t.Fatalf("malformed handle: %v", st)
	}
}

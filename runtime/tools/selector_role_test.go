package tools

import (
	"strings"
	"testing"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
)

// TestSelectorUnknownRole: the schema states only a role's length, so the
// closed noun set is checked when a selector resolves. An unknown role is
// refused invalid_arguments at the role's own pointer (nested ones
// included), listing every noun; a known one still resolves on real
// Chromium.
func TestSelectorUnknownRole(t *testing.T) {
	h := newHarness(t)
	srv := actSite(t, map[string]string{"/": selectorPage}, nil)
	tab := h.actOpen(srv.URL + "/")
	for _, c := range []struct{ tool, args, pointer string }{
		{"browser_click", `{"selector":{"name":"Save","role":"buton"}}`, "/selector/role"},
		{"browser_read", `{"selector":{"name":"Read the terms","role":"hyperlink"}}`, "/selector/role"},
		{"browser_fill_form", `{"fields":[{"selector":{"name":"Email","role":"textbox"},"value":"a"},{"selector":{"name":"Full name","role":"input"},"value":"b"}]}`, "/fields/1/selector/role"},
		{"browser_drag", `{"source_selector":{"name":"Card","role":"button"},"destination_selector":{"name":"Bin","role":"zone"}}`, "/destination_selector/role"},
	} {
		r := h.refuse(c.tool, withTab(c.args, tab), surface.ReasonInvalidArguments)
		var f struct {
			Pointer string       `json:"pointer"`
			Rule    surface.Rule `json:"rule"`
			Limit   string       `json:"limit"`
		}
		h.facts(r, &f)
		if f.Pointer != c.pointer || f.Rule != surface.RuleEnum {
			t.Errorf("%s: pointer %q rule %q, want %q enum\n%s", c.tool, f.Pointer, f.Rule, c.pointer, r.JSON)
		}
		for _, noun := range surface.RoleValues {
			if !strings.Contains(f.Limit, string(noun)) || !strings.Contains(r.Envelope.Summary+string(r.JSON), string(noun)) {
				t.Fatalf("%s: refusal does not list %q\n%s", c.tool, noun, r.JSON)
			}
		}
	}
	// In a sequence or a flow, every step's roles are checked before any
	// step runs: nothing is dispatched, and the pointer names the step.
	h.actEval(tab, `(window.hovered = false, document.querySelector("button").addEventListener("mouseover", () => window.hovered = true), true)`, new(bool))
	r := h.call("browser_sequence", withTab(`{"steps":[{"action":"hover","selector":{"name":"Save"}},{"action":"click","selector":{"name":"Save","role":"knob"}}]}`, tab))
	actExpect(t, r, surface.StatusFailed, surface.EffectNone, surface.ReasonInvalidArguments)
	var rf struct {
		Pointer string `json:"pointer"`
	}
	h.facts(r, &rf)
	if rf.Pointer != "/steps/1/selector/role" {
		t.Fatalf("sequence with an unknown role: %s", r.JSON)
	}
	r = h.call("browser_flow", withTab(`{"dry_run":true,"steps":[{"id":"a","tool":"browser_hover","arguments":{"selector":{"name":"Save"}}},{"id":"b","tool":"browser_click","arguments":{"selector":{"name":"Save","role":"knob"}}}]}`, tab))
	actExpect(t, r, surface.StatusFailed, surface.EffectNone, surface.ReasonInvalidArguments)
	rf.Pointer = ""
	h.facts(r, &rf)
	if rf.Pointer != "/steps/1/arguments/selector/role" {
		t.Fatalf("flow with an unknown role: %s", r.JSON)
	}
	var hovered bool
	h.actEval(tab, `window.hovered`, &hovered)
	if hovered {
		t.Fatal("a step ran before the unknown role was refused")
	}
	var saved bool
	h.must("browser_click", withTab(`{"selector":{"name":"Save","role":"button"}}`, tab))
	h.actEval(tab, `window.saved === true`, &saved)
	if !saved {
		t.Fatal("a known role did not resolve to its element")
	}
}

// withTab adds the tab handle to a call's arguments.
func withTab(args, tab string) string {
	return `{"tab":` + quote(tab) + `,` + args[1:]
}

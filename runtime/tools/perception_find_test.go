package tools

import (
	"strconv"
	"strings"
	"testing"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
)

func (h *harness) find(args string) (surface.BrowserFindFacts, string) {
	h.t.Helper()
	r := h.must("browser_find", args)
	var f surface.BrowserFindFacts
	h.facts(r, &f)
	if !strings.Contains(r.Envelope.Summary, strconv.Itoa(f.Total)+" match") && f.Total > 0 {
		h.t.Fatalf("summary %q does not name the total %d", r.Envelope.Summary, f.Total)
	}
	return f, r.Envelope.Summary
}

func TestFindScopesAndRanking(t *testing.T) {
	h := newHarness(t)
	srv := site(t, map[string]string{"/": `<title>Find</title><main>
		<p>Save your work often; the save button keeps a draft.</p>
		<button>Save draft</button><button>Save</button><a href="/s">Saved items</a>
		<button style="display:none">Save hidden</button>
		<label>Search <input value="save-secret"></label></main>`})
	nav := h.open(srv.URL + "/")

	any, _ := h.find(`{"text":"Save"}`)
	if any.Tab != nav.Tab || any.DocumentGeneration != nav.DocumentGeneration || len(any.Matches) == 0 {
		t.Fatalf("any: %+v", any)
	}
	if m := any.Matches[0]; m.Role != "button" || m.Name != "Save" {
		t.Fatalf("best match is %s %q, want the exact-named button", m.Role, m.Name)
	}
	if any.Total != len(any.Matches) {
		t.Fatalf("total %d, %d matches listed", any.Total, len(any.Matches))
	}
	joined := names(any.Matches)
	if strings.Contains(joined, "hidden") || strings.Contains(joined, "secret") {
		t.Fatalf("find returned hidden content or a value: %s", joined)
	}
	if !strings.Contains(joined, "Save your work") {
		t.Fatalf("scope any left out the text block: %s", joined)
	}

	ctl, _ := h.find(`{"text":"Save","scope":"control"}`)
	for _, m := range ctl.Matches {
		if m.Role != "button" && m.Role != "link" {
			t.Fatalf("control scope returned %s %q", m.Role, m.Name)
		}
	}
	txt, _ := h.find(`{"text":"draft","scope":"text"}`)
	if len(txt.Matches) == 0 {
		t.Fatal("text scope found nothing")
	}
	for _, m := range txt.Matches {
		if m.Role == "button" || m.Role == "link" {
			t.Fatalf("text scope returned a control: %s", names(txt.Matches))
		}
	}
	one, _ := h.find(`{"text":"Save","max_results":1}`)
	if len(one.Matches) != 1 || one.Total != any.Total {
		t.Fatalf("max_results 1: %d matches, total %d (want %d)", len(one.Matches), one.Total, any.Total)
	}
	none, sum := h.find(`{"text":"nothing like this anywhere"}`)
	if none.Total != 0 || len(none.Matches) != 0 || !strings.Contains(sum, "Nothing") {
		t.Fatalf("no match: %+v %q", none, sum)
	}
	// A match is a usable target: reading it returns its text.
	rd := h.must("browser_read", `{"target":"`+any.Matches[0].Target+`"}`)
	if !strings.Contains(string(rd.Envelope.Facts), `"text":"Save"`) {
		t.Fatalf("reading the match: %s", rd.Envelope.Facts)
	}
	h.refuse("browser_find", `{"text":""}`, surface.ReasonInvalidArguments)
}

// find reaches a control anywhere on the token-economy page, far past what
// inspect lists.
func TestFindOnBigPage(t *testing.T) {
	h := newHarness(t)
	srv := site(t, map[string]string{"/": bigPage()})
	h.open(srv.URL + "/")
	f, _ := h.find(`{"text":"Button 1900","scope":"control"}`)
	if len(f.Matches) == 0 || f.Matches[0].Name != "Button 1900" || f.Matches[0].Role != "button" {
		t.Fatalf("Button 1900: %s", names(f.Matches))
	}
	l, _ := h.find(`{"text":"Link 499"}`)
	if len(l.Matches) == 0 || l.Matches[0].Name != "Link 499" || l.Matches[0].Role != "link" {
		t.Fatalf("Link 499: %s", names(l.Matches))
	}
	many, _ := h.find(`{"text":"Button"}`)
	if len(many.Matches) != surface.FindResultsDefault || many.Total != 2000 {
		t.Fatalf("Button: %d matches, total %d", len(many.Matches), many.Total)
	}
}

// Every match carries state, [] when none holds.
func TestFindMatchesCarryState(t *testing.T) {
	h := newHarness(t)
	srv := site(t, map[string]string{"/": `<title>S</title><main><p>Plan the trip</p><button>Plan</button>
		<label><input type="checkbox" checked> Plan ahead</label><div role="region" aria-label="Plan board">x</div></main>`})
	h.open(srv.URL + "/")
	r := h.must("browser_find", `{"text":"Plan"}`)
	var f surface.BrowserFindFacts
	h.facts(r, &f)
	if empty := stateListed(t, r.Envelope.Facts, "matches"); empty != len(f.Matches)-1 {
		t.Fatalf("%d of %d matches with no state, want all but the checkbox: %s", empty, len(f.Matches), r.Envelope.Facts)
	}
	if st := itemNamed(t, f.Matches, "checkbox", "Plan ahead").State; len(st) != 1 || st[0] != "checked" {
		t.Fatalf("checkbox state %v", st)
	}
	itemNamed(t, f.Matches, "region", "Plan board")
}

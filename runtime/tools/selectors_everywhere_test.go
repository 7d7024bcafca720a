package tools

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
	"github.com/ghostlight-dev/ghostlight/runtime/pipeline"
)

// selectorPage holds one element for each place a typed selector now
// stands in for a target handle (issue 12, item 8).
const selectorPage = `<title>Selectors</title>
<style>.z{width:200px;height:80px;border:1px solid;margin:8px}</style>
<h2>Outside</h2><section aria-label="Notes"><h3>Alpha</h3><ul><li>Beta</li></ul></section>
<p><a href="#t">Read the terms</a></p>
<button onclick="window.saved = true">Save</button>
<input aria-label="Email" onkeydown="if (event.key === 'Enter') window.entered = this.value || 'empty'">
<div draggable="true" role="button" aria-label="Card" ondragstart="event.dataTransfer.setData('text/plain','card-1')" style="width:80px;height:40px;background:#ccc">Card</div>
<div class="z" role="region" aria-label="Bin" ondragover="event.preventDefault()" ondrop="event.preventDefault(); window.dropped = event.dataTransfer.getData('text/plain')">Bin</div>
<form onsubmit="return false"><input aria-label="Full name"><button type="button" onclick="window.sent = document.querySelector('[aria-label=\'Full name\']').value">Send</button></form>
<input type="file" aria-label="Replay" onchange="window.got = this.files[0] ? this.files[0].type : 'none'">
<div id="n">0</div>
<script>let n = 0; setInterval(() => { document.getElementById('n').textContent = ++n }, 50)</script>
<div style="height:3000px"></div><button>Far away</button>`

// TestSelectorsEverywhere drives every newly accepted selector field against
// real Chromium: each call names its element only by {name, role?} and must
// act on that element, as a target handle would.
func TestSelectorsEverywhere(t *testing.T) {
	h := newHarness(t)
	srv := actSite(t, map[string]string{"/": selectorPage}, nil)
	tab := h.actOpen(srv.URL + "/")
	cases := []struct {
		name, tool, args string
		check            func(t *testing.T, r pipeline.Result)
	}{
		{"read", "browser_read", `{"selector":{"name":"Read the terms","role":"link"}}`, func(t *testing.T, r pipeline.Result) {
			var f surface.BrowserReadFacts
			h.facts(r, &f)
			if f.Text != "Read the terms" || f.Mode != "target" {
				t.Fatalf("read by selector: %s", r.JSON)
			}
		}},
		{"screenshot", "browser_screenshot", `{"selector":{"name":"Save","role":"button"}}`, func(t *testing.T, r pipeline.Result) {
			var f surface.BrowserScreenshotFacts
			h.facts(r, &f)
			if f.Width <= 0 || f.Width >= 400 || f.Height >= 200 {
				t.Fatalf("a button's capture should be button-sized: %s", r.JSON)
			}
		}},
		{"inspect root", "browser_inspect", `{"scope":"document","root_selector":{"name":"Notes","role":"region"}}`, func(t *testing.T, r pipeline.Result) {
			var f surface.BrowserInspectFacts
			h.facts(r, &f)
			var names []string
			for _, it := range f.Items {
				names = append(names, it.Name)
			}
			got := strings.Join(names, ",")
			if !strings.Contains(got, "Notes") || !strings.Contains(got, "Alpha") || strings.Contains(got, "Outside") {
				t.Fatalf("the subtree of the Notes region only: %v", names)
			}
		}},
		{"press_key", "browser_press_key", `{"key":"Enter","selector":{"name":"Email","role":"textbox"}}`, func(t *testing.T, r pipeline.Result) {
			if got := h.actEvalString(tab, `window.entered || ''`); got != "empty" {
				t.Fatalf("Enter did not reach the Email field (got %q): %s", got, r.JSON)
			}
		}},
		{"drag both ends", "browser_drag", `{"source_selector":{"name":"Card"},"destination_selector":{"name":"Bin","role":"region"}}`, func(t *testing.T, r pipeline.Result) {
			if got := h.actEvalString(tab, `window.dropped || ''`); got != "card-1" {
				t.Fatalf("the page saw no drop (got %q): %s", got, r.JSON)
			}
		}},
		{"drag mixed ends", "browser_drag", `{"source_target":"` + h.actTarget(tab, "Card") + `","destination_selector":{"name":"Bin","role":"region"}}`, func(t *testing.T, r pipeline.Result) {
			if got := h.actEvalString(tab, `window.dropped || ''`); got != "card-1" {
				t.Fatalf("the page saw no drop (got %q): %s", got, r.JSON)
			}
		}},
		{"submit_selector", "browser_fill_form", `{"fields":[{"selector":{"name":"Full name"},"value":"Ada"}],"submit_selector":{"name":"Send","role":"button"}}`, func(t *testing.T, r pipeline.Result) {
			var f surface.BrowserFillFormFacts
			h.facts(r, &f)
			if !f.Submitted || h.actEvalString(tab, `window.sent || ''`) != "Ada" {
				t.Fatalf("fill then submit by selector: %s", r.JSON)
			}
		}},
		{"scroll reveal", "browser_scroll", `{"selector":{"name":"Far away","role":"button"}}`, func(t *testing.T, r pipeline.Result) {
			var f surface.BrowserScrollFacts
			h.facts(r, &f)
			if !f.Scrolled || f.ScrollY <= 0 {
				t.Fatalf("reveal by selector: %s", r.JSON)
			}
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h.must("browser_execute", `{"script":"window.dropped = ''; window.entered = ''"}`)
			r := h.call(c.tool, c.args)
			if r.Envelope.Status != surface.StatusSucceeded {
				t.Fatalf("%s %s: %s", c.tool, c.args, r.JSON)
			}
			c.check(t, r)
		})
	}

	t.Run("record save", func(t *testing.T) {
		start := h.record(`{"action":"start"}`)
		h.record(`{"action":"stop","recording":"` + start.Recording + `"}`)
		f := h.record(`{"action":"save","recording":"` + start.Recording + `","selector":{"name":"Replay"}}`)
		if f.Delivery != "target" || h.actEvalString(tab, `window.got || ''`) != "image/gif" {
			t.Fatalf("save into the Replay input by selector: %+v", f)
		}
	})

	// A selector that matches nothing is refused at the selector's own field.
	for _, c := range []struct{ tool, args, pointer string }{
		{"browser_read", `{"selector":{"name":"No such thing"}}`, "/selector"},
		{"browser_inspect", `{"scope":"document","root_selector":{"name":"No such thing"}}`, "/root_selector"},
		{"browser_drag", `{"source_selector":{"name":"Card"},"destination_selector":{"name":"No such thing"}}`, "/destination_selector"},
		{"browser_press_key", `{"key":"a","selector":{"name":"No such thing"}}`, "/selector"},
	} {
		r := h.call(c.tool, c.args)
		var f struct {
			Reason  string `json:"reason"`
			Pointer string `json:"pointer"`
		}
		_ = json.Unmarshal(r.Envelope.Facts, &f)
		if r.Envelope.Status == surface.StatusSucceeded || f.Pointer != c.pointer {
			t.Errorf("%s %s: want a refusal at %s, got %s", c.tool, c.args, c.pointer, r.JSON)
		}
	}
}

package tools

import (
	"strings"
	"testing"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
)

// boardPage is a task board a person works by sight: lanes named only by
// aria-label (their text says something else), one card dragged with HTML5
// drag and drop, one with pointer events, a help panel that opens on hover
// and a heading far below the fold.
const boardPage = `<title>Board</title>
<style>body{margin:0} .lane{display:inline-block;vertical-align:top;width:200px;min-height:150px;border:1px solid;margin:6px}
.card{width:150px;height:30px;background:#ddd;margin:6px;touch-action:none}</style>
<main><h1>Sprint</h1>
<div id="todo" class="lane" role="region" aria-label="Todo column" ondragover="event.preventDefault()" ondrop="dropCard(event, this)">
  <p>Drop cards here</p>
  <div id="c1" class="card" draggable="true" ondragstart="event.dataTransfer.setData('text/plain', this.id)">Write spec</div>
  <div id="c2" class="card">Fix login bug</div>
</div>
<div id="done" class="lane" role="region" aria-label="Done column" ondragover="event.preventDefault()" ondrop="dropCard(event, this)"><p>Drop cards here</p></div>
<div id="later" class="lane" aria-label="Later lane"><p>Park cards here</p></div>
<div id="help" role="region" aria-label="Help panel" style="width:300px;height:60px;border:1px solid"
  onmouseenter="this.querySelector('p').textContent = 'Help is open'"><p>Hover for help</p></div>
<div style="height:3000px"></div>
<h2 id="archive">Archive</h2>
<div style="height:200px"></div>
</main>
<script>
function dropCard(e, lane) {
  e.preventDefault();
  lane.appendChild(document.getElementById(e.dataTransfer.getData('text/plain')));
}
// A pointer-events sortable: press on a card, release over a lane.
let held = null;
document.getElementById('c2').addEventListener('pointerdown', e => { held = e.currentTarget; });
document.addEventListener('pointerup', e => {
  if (!held) return;
  const at = document.elementFromPoint(e.clientX, e.clientY);
  const lane = at && at.closest('.lane');
  if (lane && lane !== held.parentElement) lane.appendChild(held);
  held = null;
});
</script>`

// findOne finds text through the real pipeline and returns the first
// match, which must have the role given.
func (h *harness) findOne(text, role string) *surface.Item {
	h.t.Helper()
	f, _ := h.find(`{"text":` + quote(text) + `}`)
	if len(f.Matches) == 0 || string(f.Matches[0].Role) != role {
		h.t.Fatalf("find %q: want a %s first, got %s", text, role, names(f.Matches))
	}
	return f.Matches[0]
}

// A drop zone, a named lane, a hover panel and a far heading are reached by
// find alone, and their targets work for drag, hover, scroll and read.
func TestNamedRegionTargets(t *testing.T) {
	h := newHarness(t)
	srv := site(t, map[string]string{"/": boardPage})
	tab := h.open(srv.URL + "/").Tab

	done := h.findOne("Done column", "region")
	if done.Name != "Done column" || done.State == nil || len(done.State) != 0 {
		t.Fatalf("Done column match: %+v", done)
	}
	lane := h.findOne("Later lane", "text") // a named generic container
	help := h.findOne("Help panel", "region")
	archive := h.findOne("Archive", "heading")

	// HTML5 drag and drop onto the region, by targets only.
	card := h.findOne("Write spec", "text")
	r := h.must("browser_drag", `{"source_target":"`+card.Target+`","destination_target":"`+done.Target+`"}`)
	if !strings.Contains(r.Envelope.Summary, `onto the "Done column" region`) {
		t.Fatalf("drag summary: %s", r.JSON)
	}
	if got := h.actEvalString(tab, `document.getElementById('c1').parentElement.id`); got != "done" {
		t.Fatalf("HTML5 drop: the card is in %q", got)
	}
	// Pointer events onto the named lane.
	bug := h.findOne("Fix login bug", "text")
	h.must("browser_drag", `{"source_target":"`+bug.Target+`","destination_target":"`+lane.Target+`"}`)
	if got := h.actEvalString(tab, `document.getElementById('c2').parentElement.id`); got != "later" {
		t.Fatalf("pointer drop: the card is in %q", got)
	}

	// Reading the region target returns the region's content.
	rd := h.must("browser_read", `{"target":"`+done.Target+`"}`)
	var rf surface.BrowserReadFacts
	h.facts(rd, &rf)
	if !strings.Contains(rf.Text, "Write spec") || strings.Contains(rf.Text, "Fix login bug") {
		t.Fatalf("read of the region: %q", rf.Text)
	}

	// Hovering the named region runs the page's hover behaviour.
	hv := h.must("browser_hover", `{"target":"`+help.Target+`"}`)
	var hf surface.BrowserHoverFacts
	h.facts(hv, &hf)
	if !hf.Hovered || !strings.Contains(hv.Envelope.Summary, `"Help panel"`) {
		t.Fatalf("hover: %s", hv.JSON)
	}
	h.facts(h.must("browser_read", `{"target":"`+help.Target+`"}`), &rf)
	if !strings.Contains(rf.Text, "Help is open") {
		t.Fatalf("after hover the panel says %q", rf.Text)
	}

	// Scroll-reveal the heading below the fold.
	sc := h.must("browser_scroll", `{"target":"`+archive.Target+`"}`)
	var sf surface.BrowserScrollFacts
	h.facts(sc, &sf)
	if !sf.Scrolled || sf.ScrollY < 2000 || !strings.Contains(sc.Envelope.Summary, `the "Archive" heading into view`) {
		t.Fatalf("reveal: %s", sc.JSON)
	}
	var top float64
	h.actEval(tab, `document.getElementById('archive').getBoundingClientRect().top`, &top)
	var vh float64
	h.actEval(tab, `innerHeight`, &vh)
	if top < 0 || top > vh {
		t.Fatalf("revealed heading at %v, viewport %v", top, vh)
	}
}

// Named regions are listed by structure and all (not by the default
// controls scope), with targets that work like find's.
func TestInspectListsNamedRegions(t *testing.T) {
	h := newHarness(t)
	srv := site(t, map[string]string{"/": boardPage})
	h.open(srv.URL + "/")
	for _, scope := range []string{"structure", "all"} {
		f, _ := h.inspect(`{"scope":"` + scope + `","max_items":200}`)
		itemNamed(t, f.Items, "region", "Done column")
		itemNamed(t, f.Items, "region", "Todo column")
		itemNamed(t, f.Items, "text", "Later lane")
		itemNamed(t, f.Items, "heading", "Archive")
	}
	ctl, _ := h.inspect(`{}`)
	if s := names(ctl.Items); strings.Contains(s, "column") || strings.Contains(s, "lane") {
		t.Fatalf("controls scope lists regions: %s", s)
	}
	st, _ := h.inspect(`{"scope":"structure"}`)
	done := itemNamed(t, st.Items, "region", "Done column")
	rd := h.must("browser_read", `{"target":"`+done.Target+`"}`)
	var rf surface.BrowserReadFacts
	h.facts(rd, &rf)
	if !strings.Contains(rf.Text, "Drop cards here") {
		t.Fatalf("read of the inspected region: %q", rf.Text)
	}
}

package tools

import (
	"strconv"
	"strings"
	"testing"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
	"github.com/ghostlight-dev/ghostlight/runtime/pipeline"
)

// checkShot holds a screenshot result to its facts: one PNG image whose
// size and bytes the facts and the sentence name, and no bytes in the JSON.
func checkShot(t *testing.T, f surface.BrowserScreenshotFacts, r pipeline.Result) {
	t.Helper()
	if r.Image == nil || r.Image.MIME != "image/png" || f.MimeType != "image/png" {
		t.Fatalf("image: %+v facts %+v", r.Image, f)
	}
	w, hgt := imageSize(t, r.Image.Data)
	if w != f.Width || hgt != f.Height || len(r.Image.Data) != f.Bytes {
		t.Fatalf("image %dx%d %d bytes, facts %+v", w, hgt, len(r.Image.Data), f)
	}
	if max(w, hgt) > surface.ImageEdgePxMax || f.Bytes > surface.ImageBytesMax {
		t.Fatalf("image %dx%d %d bytes passes the bounds", w, hgt, f.Bytes)
	}
	if len(r.JSON) > 1024 {
		t.Fatalf("screenshot envelope is %d bytes: image data leaked into it?", len(r.JSON))
	}
	size := strconv.Itoa(f.Width) + "x" + strconv.Itoa(f.Height)
	if !strings.Contains(r.Envelope.Summary, size) || !strings.Contains(r.Envelope.Summary, strconv.Itoa(f.Bytes)+" bytes") || !strings.Contains(r.Envelope.Summary, f.View) {
		t.Fatalf("summary %q does not name %s, %d bytes and %s", r.Envelope.Summary, size, f.Bytes, f.View)
	}
	if !strings.HasPrefix(f.View, "view_") {
		t.Fatalf("view handle %q", f.View)
	}
}

func TestScreenshotBranches(t *testing.T) {
	h := newHarness(t)
	srv := site(t, map[string]string{
		"/": `<title>Shots</title><style>body{margin:0} #box{position:absolute;left:100px;top:1500px;width:200px;height:80px;background:#c00}</style>
			<h1>Top</h1><div style="height:3000px"></div><div id="box" role="region" aria-label="Red box">Red</div>`,
		"/2": `<title>Two</title><p>two</p>`,
	})
	nav := h.open(srv.URL + "/")

	vp, r := h.screenshot(`{}`)
	checkShot(t, vp, r)
	if vp.Tab != nav.Tab || vp.Height >= 3000 {
		t.Fatalf("viewport: %+v", vp)
	}

	fp, r := h.screenshot(`{"full_page":true}`)
	checkShot(t, fp, r)
	// The 3,000 px page is scaled to fit the longest-edge bound.
	if fp.Height != surface.ImageEdgePxMax || fp.Width >= vp.Width {
		t.Fatalf("full page %dx%d, viewport %dx%d", fp.Width, fp.Height, vp.Width, vp.Height)
	}
	if fp.View == vp.View {
		t.Fatal("full page reused the viewport's view handle")
	}

	doc, _ := h.inspect(`{"scope":"document"}`)
	box := itemNamed(t, doc.Items, "region", "Red box")
	tg, r := h.screenshot(`{"target":"` + box.Target + `"}`)
	checkShot(t, tg, r)
	if tg.Width != 200 || tg.Height != 80 {
		t.Fatalf("target capture %dx%d, want the 200x80 box", tg.Width, tg.Height)
	}

	// A region of the target's view is magnified, within the bounds.
	rg, r := h.screenshot(`{"view":"` + tg.View + `","x":10,"y":10,"width":50,"height":20}`)
	checkShot(t, rg, r)
	if rg.Width != 50*surface.RegionMagnificationMax || rg.Height != 20*surface.RegionMagnificationMax {
		t.Fatalf("region %dx%d", rg.Width, rg.Height)
	}
	// A region of a region works too.
	rr, r := h.screenshot(`{"view":"` + rg.View + `","x":0,"y":0,"width":100,"height":40}`)
	checkShot(t, rr, r)

	// Refusals: outside the view, an unknown view, two branches at once.
	h.refuse("browser_screenshot", `{"view":"`+tg.View+`","x":150,"y":10,"width":100,"height":20}`, surface.ReasonRegionOutside)
	h.refuse("browser_screenshot", `{"view":"view_999999","x":0,"y":0,"width":1,"height":1}`, surface.ReasonUnknownHandle)
	h.refuse("browser_screenshot", `{"full_page":true,"target":"`+box.Target+`"}`, surface.ReasonInvalidArguments)

	// After navigation: the target and the views are stale.
	h.open(srv.URL + "/2")
	r = h.refuse("browser_screenshot", `{"target":"`+box.Target+`"}`, surface.ReasonStaleTarget)
	if len(r.Envelope.NextSteps) == 0 || !strings.Contains(r.Envelope.NextSteps[0], "browser_inspect") {
		t.Fatalf("stale target next step: %v", r.Envelope.NextSteps)
	}
	h.refuse("browser_screenshot", `{"view":"`+vp.View+`","x":0,"y":0,"width":10,"height":10}`, surface.ReasonStaleView)
	h.refuse("browser_screenshot", `{"view":"`+fp.View+`","x":0,"y":0,"width":10,"height":10}`, surface.ReasonStaleView)
}

// A target that is no longer rendered (same document) is refused hidden.
// A media query hides it once the window is narrowed: no page timers.
func TestScreenshotHiddenTarget(t *testing.T) {
	h := newHarness(t)
	srv := site(t, map[string]string{"/": `<title>H</title><style>@media (max-width: 500px) { #b { display: none } }</style>
		<button id="b">Wide only</button><button>Always</button>`})
	h.open(srv.URL + "/")
	h.must("browser_window", `{"action":"resize","width":1000,"height":700}`)
	f, _ := h.inspect(`{}`)
	btn := itemNamed(t, f.Items, "button", "Wide only")
	h.must("browser_screenshot", `{"target":"`+btn.Target+`"}`)
	h.must("browser_window", `{"action":"resize","width":400,"height":700}`)
	h.refuse("browser_screenshot", `{"target":"`+btn.Target+`"}`, surface.ReasonTargetHidden)
	g, _ := h.inspect(`{}`)
	if strings.Contains(names(g.Items), "Wide only") || g.Total != 1 {
		t.Fatalf("narrow window still lists the hidden button: %s", names(g.Items))
	}
}

// A tab that is not in front still captures and perceives (each controlled
// tab must not wait on animation frames that never come).
func TestPerceptionOfBackgroundTab(t *testing.T) {
	h := newHarness(t)
	srv := site(t, map[string]string{"/a": `<title>A</title><button>Alpha</button>`, "/b": `<title>B</title><button>Beta</button>`})
	a := h.open(srv.URL + "/a")
	var b surface.BrowserNavigateFacts
	h.facts(h.must("browser_navigate", `{"url":`+quote(srv.URL+"/b")+`,"new_tab":true}`), &b)
	if a.Tab == b.Tab {
		t.Fatal("new_tab reused the tab")
	}
	shot, r := h.screenshot(`{"tab":"` + a.Tab + `"}`)
	checkShot(t, shot, r)
	f, _ := h.inspect(`{"tab":"` + a.Tab + `"}`)
	itemNamed(t, f.Items, "button", "Alpha")
	// Without a tab, two controlled tabs are ambiguous.
	h.refuse("browser_screenshot", `{}`, surface.ReasonAmbiguousTab)
	// A view names its tab: a region needs no tab, and refuses another one.
	h.must("browser_screenshot", `{"view":"`+shot.View+`","x":0,"y":0,"width":20,"height":20}`)
	h.refuse("browser_screenshot", `{"view":"`+shot.View+`","tab":"`+b.Tab+`","x":0,"y":0,"width":20,"height":20}`, surface.ReasonInvalidArguments)
}

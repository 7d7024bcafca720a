package tools

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
	"github.com/ghostlight-dev/ghostlight/runtime/governance"
	"github.com/ghostlight-dev/ghostlight/runtime/pipeline"
)

const actClickPage = `<title>Clicks</title>
<button id="save" onclick="window.clicks=(window.clicks||0)+1">Save</button>
<button id="grow" onclick="document.body.insertAdjacentHTML('beforeend','<p>added</p>')">Grow</button>
<a id="next" href="/next">Next page</a>
<a id="nocontent" href="/204">Nothing</a>
<a id="hang" href="/hang">Hang</a>
<button id="dbl" ondblclick="window.nDbl=(window.nDbl||0)+1">Double me</button>
<button id="ctx" oncontextmenu="window.nCtx=(window.nCtx||0)+1;return false">Context</button>
<button id="off" disabled>Disabled</button>
<button onclick="fetch('/204').then(() => { window.fetched = 1 })">Fetch nothing</button>
<button onclick="fetch('/hang')">Fetch forever</button>
<button id="busy" onclick="const e=Date.now()+3000;while(Date.now()<e){}">Busy</button>
<div style="height:3000px"></div><button id="far" onclick="window.nFar=1">Far below</button>`

func actClickSite(t *testing.T) (string, string) {
	hang := make(chan struct{})
	srv := actSite(t, map[string]string{"/": actClickPage, "/next": `<title>Step 2</title><p>two</p>`},
		map[string]http.HandlerFunc{
			"/204": func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusNoContent) },
			"/hang": func(w http.ResponseWriter, r *http.Request) {
				select {
				case <-hang:
				case <-r.Context().Done():
				}
			},
		})
	// Cleanups run last first: this one, registered after actSite's Close,
	// releases the hanging handlers before Close waits for them.
	t.Cleanup(func() { close(hang) })
	return srv.URL, hostOf(srv.URL)
}

func TestClickTargetReceiptAndLanding(t *testing.T) {
	h := newHarness(t)
	base, host := actClickSite(t)
	tab := h.actOpen(base + "/")
	r := h.must("browser_click", `{"target":"`+h.actTarget(tab, "Save")+`"}`)
	var f surface.BrowserClickFacts
	h.facts(r, &f)
	if !f.Activated || !strings.Contains(r.Envelope.Summary, `the "Save" button`) || f.Landing != nil || f.Tab != tab {
		t.Fatalf("facts: %s", r.JSON)
	}
	if r.Envelope.Summary != `Clicked the "Save" button on `+host+`.` {
		t.Fatalf("summary: %q", r.Envelope.Summary)
	}
	if r.Envelope.Effect != surface.EffectApplied || r.Envelope.RepeatSafe || r.Envelope.Readiness != surface.ReadinessComplete {
		t.Fatalf("envelope: %s", r.JSON)
	}
	actNoReplay(t, r)
	var n int
	h.actEval(tab, `window.clicks`, &n)
	if n != 1 {
		t.Fatalf("page saw %d clicks", n)
	}
	// A click that changes the DOM settles after the change.
	h.must("browser_click", `{"target":"`+h.actTarget(tab, "Grow")+`"}`)
	if got := h.actEvalString(tab, `document.querySelector('p') ? document.querySelector('p').textContent : ''`); got != "added" {
		t.Fatalf("grow: %q", got)
	}
	// A link: the landing is a fact and the summary says so.
	r = h.must("browser_click", `{"target":"`+h.actTarget(tab, "Next page")+`"}`)
	f = surface.BrowserClickFacts{}
	h.facts(r, &f)
	if f.Landing == nil || f.Landing.URL != base+"/next" || f.Landing.Title != "Step 2" || f.Landing.DocumentGeneration < 2 {
		t.Fatalf("landing: %s", r.JSON)
	}
	if !strings.Contains(r.Envelope.Summary, `the tab landed on `+host+` ("Step 2")`) || len(r.Envelope.NextSteps) == 0 {
		t.Fatalf("summary: %s", r.JSON)
	}
	actNoReplay(t, r)
}

func TestClickSelectorButtonsAndRefusals(t *testing.T) {
	h := newHarness(t)
	base, _ := actClickSite(t)
	tab := h.actOpen(base + "/")
	r := h.must("browser_click", `{"selector":{"name":"Save","role":"button"}}`)
	var f surface.BrowserClickFacts
	h.facts(r, &f)
	if !strings.Contains(r.Envelope.Summary, `the "Save" button`) || f.Target != "" {
		t.Fatalf("selector facts: %s", r.JSON)
	}
	r = h.must("browser_click", `{"selector":{"name":"Double me"},"click_count":2}`)
	if !strings.HasPrefix(r.Envelope.Summary, `Double-clicked the "Double me" button`) {
		t.Fatalf("double summary: %q", r.Envelope.Summary)
	}
	r = h.must("browser_click", `{"selector":{"name":"Context"},"button":"secondary"}`)
	if !strings.HasPrefix(r.Envelope.Summary, `Right-clicked`) {
		t.Fatalf("secondary summary: %q", r.Envelope.Summary)
	}
	var dbl, ctxm int
	h.actEval(tab, `window.nDbl`, &dbl)
	h.actEval(tab, `window.nCtx`, &ctxm)
	if dbl != 1 || ctxm != 1 {
		t.Fatalf("dblclick %d, contextmenu %d", dbl, ctxm)
	}
	// A target far below is scrolled into view and clicked.
	h.must("browser_click", `{"target":"`+h.actTarget(tab, "Far below")+`"}`)
	var far int
	h.actEval(tab, `window.nFar`, &far)
	if far != 1 {
		t.Fatal("the far button was not clicked")
	}
	// Refusals dispatch nothing.
	actExpect(t, h.call("browser_click", `{"target":"`+h.actTarget(tab, "Disabled")+`"}`), surface.StatusFailed, surface.EffectNone, surface.ReasonTargetDisabled)
	actExpect(t, h.call("browser_click", `{"selector":{"name":"No such control anywhere"},"timeout_ms":300}`), surface.StatusFailed, surface.EffectNone, surface.ReasonTargetNotFound)
	old := h.actTarget(tab, "Save")
	h.must("browser_click", `{"target":"`+h.actTarget(tab, "Next page")+`"}`)
	r = h.call("browser_click", `{"target":"`+old+`"}`)
	actExpect(t, r, surface.StatusFailed, surface.EffectNone, surface.ReasonStaleTarget)
	if !strings.Contains(string(r.Envelope.Facts), `"pointer":"/target"`) {
		t.Fatalf("stale refusal without pointer: %s", r.JSON)
	}
}

func TestClickViewPoint(t *testing.T) {
	h := newHarness(t)
	base, host := actClickSite(t)
	tab := h.actOpen(base + "/")
	view, v := h.actView(tab)
	x, y := h.actImagePoint(tab, v, "save")
	r := h.must("browser_click", `{"view":"`+view+`","x":`+itoa(x)+`,"y":`+itoa(y)+`}`)
	var f surface.BrowserClickFacts
	h.facts(r, &f)
	if !f.Activated || f.View != view || strings.Contains(r.Envelope.Summary, "button") {
		t.Fatalf("facts: %s", r.JSON)
	}
	if r.Envelope.Summary != "Clicked ("+itoa(x)+", "+itoa(y)+") in "+view+" on "+host+"." {
		t.Fatalf("summary %q", r.Envelope.Summary)
	}
	var n int
	h.actEval(tab, `window.clicks`, &n)
	if n != 1 {
		t.Fatalf("page saw %d clicks", n)
	}
	// Outside the image: refused before dispatch.
	actExpect(t, h.call("browser_click", `{"view":"`+view+`","x":99999,"y":1}`), surface.StatusFailed, surface.EffectNone, surface.ReasonRegionOutside)
	// Once the page scrolled, the view is stale and nothing is dispatched.
	h.must("browser_scroll", `{"direction":"down","amount":"small"}`)
	actExpect(t, h.call("browser_click", `{"view":"`+view+`","x":`+itoa(x)+`,"y":`+itoa(y)+`}`), surface.StatusFailed, surface.EffectNone, surface.ReasonStaleView)
	h.actEval(tab, `window.clicks`, &n)
	if n != 1 {
		t.Fatalf("a stale view click reached the page (%d clicks)", n)
	}
	// A view this session never issued is unknown, refused the same way.
	actExpect(t, h.call("browser_click", `{"view":"view_999","x":1,"y":1}`), surface.StatusFailed, surface.EffectNone, surface.ReasonUnknownHandle)
}

func TestClickNoContentAndHangingNavigation(t *testing.T) {
	h := newHarness(t)
	base, _ := actClickSite(t)
	tab := h.actOpen(base + "/")
	// A 204 answer stops the navigation: no landing, and no wait for one.
	r := h.must("browser_click", `{"target":"`+h.actTarget(tab, "Nothing")+`","timeout_ms":5000}`)
	var f surface.BrowserClickFacts
	h.facts(r, &f)
	if f.Landing != nil || strings.Contains(r.Envelope.Summary, "still loading") {
		t.Fatalf("204: %s", r.JSON)
	}
	// A navigation that never answers holds the call only to its bound.
	start := time.Now()
	r = h.must("browser_click", `{"target":"`+h.actTarget(tab, "Hang")+`","timeout_ms":1500}`)
	if el := time.Since(start); el > 1500*time.Millisecond+2*time.Second {
		t.Fatalf("the call outlived its bound by far: %v", el)
	}
	if !strings.Contains(r.Envelope.Summary, "still loading") || r.Envelope.Effect != surface.EffectApplied || r.Envelope.RepeatSafe {
		t.Fatalf("hang: %s", r.JSON)
	}
	if len(r.Envelope.NextSteps) == 0 || !strings.Contains(r.Envelope.NextSteps[0], "load_ready") {
		t.Fatalf("hang next steps: %v", r.Envelope.NextSteps)
	}
	// The same for requests the page makes: a 204 answer settles the click
	// once it arrived; a request that never answers ends the wait at the bound.
	tab = h.actOpen(base + "/")
	// Settling catches up with the page's events after the input, so it
	// sees the request however late its events arrive, and returns only
	// once it answered (and its handler ran).
	h.must("browser_click", `{"target":"`+h.actTarget(tab, "Fetch nothing")+`"}`)
	var fetched int
	h.actEval(tab, `window.fetched`, &fetched)
	if fetched != 1 {
		t.Fatal("the click returned before the request it started answered")
	}
	start = time.Now()
	r = h.must("browser_click", `{"target":"`+h.actTarget(tab, "Fetch forever")+`","timeout_ms":1000}`)
	if el := time.Since(start); el > time.Second+2*time.Second {
		t.Fatalf("the call outlived its bound by far: %v", el)
	}
	if !strings.Contains(r.Envelope.Summary, "request it started had not finished") {
		t.Fatalf("pending request: %s", r.JSON)
	}
}

func TestClickOpensControlledTab(t *testing.T) {
	h := newHarness(t)
	srv := actSite(t, map[string]string{
		"/":    `<title>Opener</title><a href="/new" target="_blank">Open new</a><button onclick="window.open('/new')">Pop</button><button onclick="window.hits=(window.hits||0)+1">Count</button>`,
		"/new": `<title>Fresh</title><button onclick="window.hits=(window.hits||0)+1">Inside</button>`,
	}, nil)
	tab := h.actOpen(srv.URL + "/")
	for _, name := range []string{"Open new", "Pop"} {
		r := h.must("browser_click", `{"tab":"`+tab+`","target":"`+h.actTarget(tab, name)+`"}`)
		var f surface.BrowserClickFacts
		h.facts(r, &f)
		if len(f.OpenedTabs) != 1 || f.OpenedTabs[0] == tab || !strings.Contains(r.Envelope.Summary, f.OpenedTabs[0]) {
			t.Fatalf("%s: %s", name, r.JSON)
		}
		if !strings.Contains(strings.Join(r.Envelope.NextSteps, " "), f.OpenedTabs[0]) {
			t.Fatalf("next steps do not name the new tab: %v", r.Envelope.NextSteps)
		}
		// The new tab is controlled: listed, and actions reach it.
		l := h.must("browser_tabs", `{"action":"list"}`)
		if !strings.Contains(string(l.Envelope.Facts), f.OpenedTabs[0]) {
			t.Fatalf("opened tab not listed: %s", l.JSON)
		}
		nt := f.OpenedTabs[0]
		h.must("browser_wait", `{"tab":"`+nt+`","condition":"load_ready"}`)
		h.must("browser_click", `{"tab":"`+nt+`","target":"`+h.actTarget(nt, "Inside")+`"}`)
		var n int
		h.actEval(nt, `window.hits`, &n)
		if n != 1 {
			t.Fatalf("click in the opened tab: %d", n)
		}
	}
	// The opener still takes input.
	h.must("browser_click", `{"tab":"`+tab+`","target":"`+h.actTarget(tab, "Count")+`"}`)
	var n int
	h.actEval(tab, `window.hits`, &n)
	if n != 1 {
		t.Fatalf("opener click: %d", n)
	}
}

func TestClickTimeoutMidInputIsUnknown(t *testing.T) {
	h := newHarness(t)
	base, _ := actClickSite(t)
	tab := h.actOpen(base + "/")
	r := h.call("browser_click", `{"target":"`+h.actTarget(tab, "Busy")+`","timeout_ms":500}`)
	actExpect(t, r, surface.StatusUnknown, surface.EffectUnknown, surface.ReasonTimeout)
	actNoReplay(t, r)
	if !strings.Contains(r.Envelope.Summary, "may or may not") {
		t.Fatalf("summary: %q", r.Envelope.Summary)
	}
}

// TestClickWithheldNames: with privacy.preserve_target_names false, receipts
// and facts carry the role only.
func TestClickWithheldNames(t *testing.T) {
	hd, err := New(Options{Browser: testBrowser, WithheldNames: true})
	if err != nil {
		t.Fatal(err)
	}
	defer hd.Close()
	p := pipeline.New(pipeline.Options{Handler: hd, Authority: func() *governance.Authority { return governance.AllOpen("auto") }})
	sess := "withheld_" + t.Name()
	defer hd.Release(context.Background(), sess)
	base, host := actClickSite(t)
	call := func(tool, args string) pipeline.Result {
		r := p.Call(context.Background(), sess, tool, []byte(args), nil)
		checkEnvelope(t, tool, r)
		if r.Envelope.Status != surface.StatusSucceeded {
			t.Fatalf("%s: %s", tool, r.JSON)
		}
		return r
	}
	call("browser_navigate", `{"url":`+quote(base+"/")+`,"reuse":"never","timeout_ms":30000}`)
	r := call("browser_click", `{"selector":{"name":"Save"}}`)
	if r.Envelope.Summary != "Clicked a button on "+host+"." {
		t.Fatalf("summary: %q", r.Envelope.Summary)
	}
	if strings.Contains(string(r.Envelope.Facts), "Save") {
		t.Fatalf("facts carry the name: %s", r.Envelope.Facts)
	}
}

// TestClickUnderZoom: target points are CSS px, which Chromium takes scaled
// under the tab's zoom emulation; view points already are.
func TestClickUnderZoom(t *testing.T) {
	h := newHarness(t)
	base, _ := actClickSite(t)
	tab := h.actOpen(base + "/")
	h.must("browser_window", `{"action":"zoom","percent":150}`)
	h.must("browser_click", `{"selector":{"name":"Double me"},"click_count":2}`)
	var dbl int
	h.actEval(tab, `window.nDbl`, &dbl)
	if dbl != 1 {
		t.Fatalf("a target click under zoom missed its target (%d)", dbl)
	}
	h.must("browser_click", `{"selector":{"name":"Save"}}`)
	view, v := h.actView(tab)
	x, y := h.actImagePoint(tab, v, "save")
	h.must("browser_click", `{"view":"`+view+`","x":`+itoa(x)+`,"y":`+itoa(y)+`}`)
	var n int
	h.actEval(tab, `window.clicks`, &n)
	if n != 2 {
		t.Fatalf("clicks under zoom: %d", n)
	}
}

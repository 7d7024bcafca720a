package tools

import (
	"strings"
	"testing"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
)

const actDialogPage = `<title>Dialogs</title>
<button onclick="alert('secret alert text')">Alert</button>
<button onclick="window.answer = confirm('secret confirm text')">Confirm</button>
<button onclick="window.answer = prompt('secret prompt text', 'default')">Prompt</button>
<button onclick="alert('one'); alert('two')">Chain</button>
<input aria-label="Field" onkeydown="if (event.key === 'Enter') alert('from a key')">
<a href="/alerting">Go alerting</a>`

func TestDialogFromClickEndsCallAndBlocksTab(t *testing.T) {
	h := newHarness(t)
	srv := actSite(t, map[string]string{"/": actDialogPage, "/alerting": `<title>Loud</title><script>alert('on load')</script>`}, nil)
	tab := h.actOpen(srv.URL + "/")
	alertTarget := h.actTarget(tab, "Alert")
	// The click did what was asked: it succeeded; the page now shows a
	// dialog, which the facts name and the next step answers.
	r := h.call("browser_click", `{"target":"`+alertTarget+`"}`)
	actExpect(t, r, surface.StatusSucceeded, surface.EffectApplied, "")
	var clickF surface.BrowserClickFacts
	h.facts(r, &clickF)
	if clickF.DialogType != "alert" || !clickF.Activated || len(r.Envelope.NextSteps) == 0 || !strings.Contains(r.Envelope.NextSteps[0], "browser_dialog") {
		t.Fatalf("dialog not reported: %s", r.JSON)
	}
	if !strings.Contains(r.Envelope.Summary, "An alert dialog opened") {
		t.Fatalf("summary %q", r.Envelope.Summary)
	}
	if strings.Contains(string(r.JSON), "secret") {
		t.Fatalf("dialog text in the result: %s", r.JSON)
	}
	actNoReplay(t, r)
	// Every other call on the tab is refused with the same pointer.
	for _, c := range [][2]string{
		{"browser_click", `{"target":"` + alertTarget + `"}`},
		{"browser_type_text", `{"focused":true,"text":"x"}`},
		{"browser_wait", `{"condition":"duration","value":10}`},
		{"browser_execute", `{"script":"1"}`},
	} {
		r := h.call(c[0], c[1])
		actExpect(t, r, surface.StatusBlocked, surface.EffectNone, surface.ReasonDialogBlocking)
		if len(r.Envelope.NextSteps) == 0 || !strings.Contains(r.Envelope.NextSteps[0], "browser_dialog") {
			t.Fatalf("%s: %s", c[0], r.JSON)
		}
	}
	st := h.must("browser_dialog", `{"action":"status"}`)
	var df surface.BrowserDialogFacts
	h.facts(st, &df)
	if !df.Present || df.DialogType != "alert" || df.Handled || st.Envelope.Effect != surface.EffectNone {
		t.Fatalf("status: %s", st.JSON)
	}
	acc := h.must("browser_dialog", `{"action":"accept"}`)
	df = surface.BrowserDialogFacts{}
	h.facts(acc, &df)
	if df.Present || !df.Handled || !df.Accepted || df.DialogType != "alert" || acc.Envelope.Effect != surface.EffectApplied {
		t.Fatalf("accept: %s", acc.JSON)
	}
	actExpect(t, h.call("browser_dialog", `{"action":"accept"}`), surface.StatusFailed, surface.EffectNone, surface.ReasonNoDialog)
	st = h.must("browser_dialog", `{"action":"status"}`)
	df = surface.BrowserDialogFacts{}
	h.facts(st, &df)
	if df.Present {
		t.Fatalf("status after accept: %s", st.JSON)
	}
	// The tab takes input again.
	h.call("browser_click", `{"selector":{"name":"Confirm"}}`)
	r = h.call("browser_dialog", `{"action":"respond","text":"nope"}`)
	actExpect(t, r, surface.StatusFailed, surface.EffectNone, surface.ReasonInvalidArguments)
	h.must("browser_dialog", `{"action":"dismiss"}`)
	var ans any
	h.actEval(tab, `window.answer`, &ans)
	if ans != false {
		t.Fatalf("confirm answer after dismiss: %v", ans)
	}
	h.call("browser_click", `{"selector":{"name":"Prompt"}}`)
	h.must("browser_dialog", `{"action":"respond","text":"Ada"}`)
	if got := h.actEvalString(tab, `window.answer`); got != "Ada" {
		t.Fatalf("prompt answer %q", got)
	}
	// A chain: handling the first reports the next.
	h.call("browser_click", `{"selector":{"name":"Chain"}}`)
	acc = h.must("browser_dialog", `{"action":"accept"}`)
	df = surface.BrowserDialogFacts{}
	h.facts(acc, &df)
	if !df.Present || !strings.Contains(acc.Envelope.Summary, "Another alert dialog") {
		t.Fatalf("chained dialog not reported: %s", acc.JSON)
	}
	h.must("browser_dialog", `{"action":"accept"}`)
	// A key press that opens a dialog ends the same way.
	r = h.call("browser_press_key", `{"target":"`+h.actTarget(tab, "Field")+`","key":"Enter"}`)
	actExpect(t, r, surface.StatusSucceeded, surface.EffectApplied, "")
	if !strings.Contains(string(r.Envelope.Facts), `"dialog_type":"alert"`) {
		t.Fatalf("key press dialog: %s", r.JSON)
	}
	h.must("browser_dialog", `{"action":"accept"}`)
	// So does a page the click lands on that opens one while loading.
	r = h.call("browser_click", `{"target":"`+h.actTarget(tab, "Go alerting")+`"}`)
	actExpect(t, r, surface.StatusSucceeded, surface.EffectApplied, "")
	var cf surface.BrowserClickFacts
	h.facts(r, &cf)
	if cf.Landing == nil || !strings.HasSuffix(cf.Landing.URL, "/alerting") || cf.DialogType != "alert" {
		t.Fatalf("landing under a load-time dialog: %s", r.JSON)
	}
	h.must("browser_dialog", `{"action":"accept"}`)
	// Dialog text never reaches the audit.
	auditMu <- struct{}{}
	for _, a := range audited {
		if strings.Contains(a.Tool+string(a.Reason)+strings.Join(a.Hosts, ""), "secret") {
			t.Fatalf("dialog text audited: %+v", a)
		}
	}
	<-auditMu
}

func TestDialogFromFilledFieldAndNoDispatchBeforeIt(t *testing.T) {
	h := newHarness(t)
	srv := actSite(t, map[string]string{"/": `<title>Watch</title><label>Code <input id="c" onchange="alert('changed')"></label><label>Other <input id="o"></label>`}, nil)
	tab := h.actOpen(srv.URL + "/")
	// The dialog stopped the fill after one of two fields: blocked, partial.
	r := h.call("browser_fill_form", `{"fields":[{"selector":{"name":"Code"},"value":"42"},{"selector":{"name":"Other"},"value":"x"}]}`)
	actExpect(t, r, surface.StatusBlocked, surface.EffectPartial, surface.ReasonDialogBlocking)
	var f surface.BrowserFillFormFacts
	h.facts(r, &f)
	if f.FilledCount != 1 || r.Envelope.RepeatSafe || f.DialogType != "alert" || !strings.HasPrefix(r.Envelope.Summary, "Filled 1 field of 2") {
		t.Fatalf("fill under a dialog: %s", r.JSON)
	}
	h.must("browser_dialog", `{"action":"accept"}`)
	var vals []string
	h.actEval(tab, `[c.value, o.value]`, &vals)
	if vals[0] != "42" || vals[1] != "" {
		t.Fatalf("the fill went on past the dialog: %v", vals)
	}
	// That field alone: everything asked was set, then the page opened a
	// dialog. The call succeeded.
	r = h.call("browser_fill_form", `{"fields":[{"selector":{"name":"Code"},"value":"43"}]}`)
	actExpect(t, r, surface.StatusSucceeded, surface.EffectApplied, "")
	f = surface.BrowserFillFormFacts{}
	h.facts(r, &f)
	if f.FilledCount != 1 || f.DialogType != "alert" || r.Envelope.RepeatSafe {
		t.Fatalf("single fill under a dialog: %s", r.JSON)
	}
	h.must("browser_dialog", `{"action":"accept"}`)
}

// A dialog that stops a many-part input part way leaves it blocked with a
// partial effect: the keys before it stand, the rest never reached the page.
func TestDialogCutsTypingPartWay(t *testing.T) {
	h := newHarness(t)
	srv := actSite(t, map[string]string{"/": `<title>Keys</title><label>Word <input onkeydown="if (event.key === 'c') alert('c!')"></label>`}, nil)
	tab := h.actOpen(srv.URL + "/")
	r := h.call("browser_type_text", `{"target":"`+h.actTarget(tab, "Word")+`","text":"abcdef"}`)
	actExpect(t, r, surface.StatusBlocked, surface.EffectPartial, surface.ReasonDialogBlocking)
	var f surface.BrowserTypeTextFacts
	h.facts(r, &f)
	if f.DialogType != "alert" || f.Typed || f.CharacterCount >= 6 || r.Envelope.RepeatSafe {
		t.Fatalf("typing cut by a dialog: %s", r.JSON)
	}
	h.must("browser_dialog", `{"action":"accept"}`)
}

// A navigation whose new page opens a dialog while loading happened: it
// succeeded, with the dialog named in its facts and the next step.
func TestDialogAfterNavigateSucceeds(t *testing.T) {
	h := newHarness(t)
	srv := actSite(t, map[string]string{"/loud": `<title>Loud</title><script>alert('on load')</script>`}, nil)
	r := h.call("browser_navigate", `{"url":`+quote(srv.URL+"/loud")+`,"new_tab":true,"timeout_ms":30000}`)
	actExpect(t, r, surface.StatusSucceeded, surface.EffectApplied, "")
	var f surface.BrowserNavigateFacts
	h.facts(r, &f)
	if f.DialogType != "alert" || r.Envelope.RepeatSafe || !strings.Contains(r.Envelope.Summary, "An alert dialog is blocking the page.") ||
		len(r.Envelope.NextSteps) == 0 || !strings.Contains(r.Envelope.NextSteps[0], "browser_dialog") {
		t.Fatalf("navigate into a dialog: %s", r.JSON)
	}
	h.must("browser_dialog", `{"action":"accept"}`)
}

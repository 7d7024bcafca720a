package tools

import (
	"strings"
	"testing"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
)

const actFormPage = `<title>Form</title>
<form action="/done" method="get">
<label>Full name <input name="name" id="name"></label>
<label>Email <input type="email" name="email" id="email"></label>
<label>Age <input type="number" name="age" id="age"></label>
<label>Subscribe <input type="checkbox" name="sub" id="sub"></label>
<label><input type="radio" name="plan" value="free" id="free"> Free</label>
<label><input type="radio" name="plan" value="pro" id="pro"> Pro</label>
<label>Country <select name="country" id="country"><option value="">-</option><option value="fr">France</option><option value="de">Germany</option></select></label>
<label>Size <select name="size" id="size"><option value="s">Small</option><option value="l">Large</option></select></label>
<label>Notes <textarea name="notes" id="notes"></textarea></label>
<label>Password <input type="password" name="pw" id="pw"></label>
<label>Code <input name="otp" id="otp" autocomplete="one-time-code"></label>
<button type="submit">Send</button>
</form>`

func actFormSite(t *testing.T) string {
	srv := actSite(t, map[string]string{"/": actFormPage, "/done": `<title>Thanks</title><p>received</p>`}, nil)
	return srv.URL
}

func TestFillFormEveryKind(t *testing.T) {
	h := newHarness(t)
	base := actFormSite(t)
	tab := h.actOpen(base + "/")
	tg := func(name string) string { return h.actTarget(tab, name) }
	args := `{"fields":[` +
		`{"target":"` + tg("Full name") + `","value":"Ada Lovelace"},` +
		`{"selector":{"name":"Email"},"value":"ada@example.com"},` +
		`{"target":"` + tg("Age") + `","value":36},` +
		`{"target":"` + tg("Subscribe") + `","value":true},` +
		`{"target":"` + tg("Pro") + `","value":true},` +
		`{"target":"` + tg("Country") + `","value":"Germany"},` +
		`{"target":"` + tg("Size") + `","value":"l"},` +
		`{"selector":{"name":"Notes","role":"textbox"},"value":"multi\nline"}]}`
	r := h.must("browser_fill_form", args)
	var f surface.BrowserFillFormFacts
	h.facts(r, &f)
	if f.FilledCount != 8 || f.Submitted || f.Landing != nil {
		t.Fatalf("facts: %s", r.JSON)
	}
	if r.Envelope.Summary != "Filled 8 fields on "+hostOf(base)+"." || !r.Envelope.RepeatSafe || r.Envelope.Effect != surface.EffectApplied {
		t.Fatalf("envelope: %s", r.JSON)
	}
	for _, secret := range []string{"Ada Lovelace", "ada@example.com", "multi"} {
		if strings.Contains(string(r.JSON), secret) {
			t.Fatalf("a value is in the result: %s", r.JSON)
		}
	}
	var got []any
	h.actEval(tab, `[document.getElementById('name').value, email.value, age.value, sub.checked, pro.checked, country.value, size.value, notes.value]`, &got)
	want := []any{"Ada Lovelace", "ada@example.com", "36", true, true, "de", "l", "multi\nline"}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("page values %v, want %v", got, want)
		}
	}
	// Submitting is only by submit_target, which is a click: it lands.
	r = h.must("browser_fill_form", `{"fields":[{"target":"`+tg("Full name")+`","value":"Grace"}],"submit_target":"`+tg("Send")+`"}`)
	f = surface.BrowserFillFormFacts{}
	h.facts(r, &f)
	if !f.Submitted || f.FilledCount != 1 || f.Landing == nil || !strings.Contains(f.Landing.URL, "/done?name=Grace") || f.Landing.Title != "Thanks" || r.Envelope.RepeatSafe {
		t.Fatalf("submit: %s", r.JSON)
	}
	if !strings.Contains(r.Envelope.Summary, `Filled 1 field and clicked the "Send" button`) {
		t.Fatalf("submit summary: %q", r.Envelope.Summary)
	}
	actNoReplay(t, r)
}

func TestFillFormCredentialStopsBeforeAnyValue(t *testing.T) {
	h := newHarness(t)
	base := actFormSite(t)
	tab := h.actOpen(base + "/")
	for _, name := range []string{"Password", "Code"} {
		r := h.call("browser_fill_form", `{"fields":[{"target":"`+h.actTarget(tab, "Full name")+`","value":"Ada"},{"selector":{"name":"`+name+`"},"value":"hunter2-secret"}]}`)
		actExpect(t, r, surface.StatusAttentionRequired, surface.EffectNone, surface.ReasonCredentialHandoff)
		if strings.Contains(string(r.JSON), "hunter2") || !strings.Contains(r.Envelope.Summary, "credential field") || !strings.Contains(r.Envelope.Summary, "user") {
			t.Fatalf("%s: %s", name, r.JSON)
		}
		var vals []string
		h.actEval(tab, `[document.getElementById('name').value, pw.value, otp.value]`, &vals)
		if vals[0] != "" || vals[1] != "" || vals[2] != "" {
			t.Fatalf("a value was dispatched before the credential stop: %q", vals)
		}
	}
}

func TestFillFormPartialFailure(t *testing.T) {
	h := newHarness(t)
	base := actFormSite(t)
	tab := h.actOpen(base + "/")
	r := h.call("browser_fill_form", `{"fields":[{"target":"`+h.actTarget(tab, "Full name")+`","value":"Ada"},{"target":"`+h.actTarget(tab, "Age")+`","value":true},{"target":"`+h.actTarget(tab, "Email")+`","value":"x@y.z"}]}`)
	actExpect(t, r, surface.StatusFailed, surface.EffectPartial, surface.ReasonValueMismatch)
	var f surface.BrowserFillFormFacts
	h.facts(r, &f)
	if f.FilledCount != 1 || r.Envelope.RepeatSafe || !strings.Contains(string(r.Envelope.Facts), `"pointer":"/fields/1/value"`) {
		t.Fatalf("partial: %s", r.JSON)
	}
	actNoReplay(t, r)
	actExpect(t, h.call("browser_fill_form", `{"fields":[{"target":"`+h.actTarget(tab, "Country")+`","value":"Atlantis"}]}`), surface.StatusFailed, surface.EffectNone, surface.ReasonTargetNotFound)
}

const actTypePage = `<title>Typing</title>
<label>Search <input id="q" value="old" onkeydown="window.downs=(window.downs||0)+1" oninput="window.inputs=(window.inputs||0)+1"></label>
<label>Secret <input type="password" id="secret" onkeydown="window.secretKeys=(window.secretKeys||0)+1"></label>
<label>Card <input id="card" autocomplete="cc-number"></label>
<div contenteditable="true" id="ed" aria-label="Editor">start</div>
<button id="b">Plain button</button>
<form action="/found"><label>Query <input name="q2" id="q2"></label></form>
<label>Keys <input id="keys" onkeydown="window.log=(window.log||[]).concat([event.key+(event.ctrlKey?'+ctrl':'')+(event.shiftKey?'+shift':'')])"></label>`

func TestTypeText(t *testing.T) {
	h := newHarness(t)
	srv := actSite(t, map[string]string{"/": actTypePage, "/found": `<title>Found</title>`}, nil)
	tab := h.actOpen(srv.URL + "/")
	q := h.actTarget(tab, "Search")
	r := h.must("browser_type_text", `{"target":"`+q+`","text":"ghost light!"}`)
	var f surface.BrowserTypeTextFacts
	h.facts(r, &f)
	if !f.Typed || f.CharacterCount != 12 || f.Target != q || !strings.Contains(r.Envelope.Summary, `"Search"`) {
		t.Fatalf("facts: %s", r.JSON)
	}
	if r.Envelope.Summary != `Typed 12 characters in the "Search" textbox on `+hostOf(srv.URL)+`.` || r.Envelope.RepeatSafe || strings.Contains(string(r.JSON), "ghost") {
		t.Fatalf("envelope: %s", r.JSON)
	}
	var st []any
	h.actEval(tab, `[q.value, window.downs, window.inputs]`, &st)
	if st[0] != "oldghost light!" || st[1] != float64(12) || st[2] != float64(12) {
		t.Fatalf("page after typing: %v (real key events expected, appended)", st)
	}
	// clear_first replaces; empty text with clear_first only clears.
	h.must("browser_type_text", `{"selector":{"name":"Search"},"text":"new","clear_first":true}`)
	if v := h.actEvalString(tab, `q.value`); v != "new" {
		t.Fatalf("clear then type: %q", v)
	}
	r = h.must("browser_type_text", `{"target":"`+q+`","text":"","clear_first":true}`)
	if v := h.actEvalString(tab, `q.value`); v != "" || !strings.HasPrefix(r.Envelope.Summary, "Cleared the") {
		t.Fatalf("clear only: %q %s", v, r.JSON)
	}
	actExpect(t, h.call("browser_type_text", `{"target":"`+q+`","text":""}`), surface.StatusFailed, surface.EffectNone, surface.ReasonInvalidArguments)
	// The focused control.
	h.must("browser_type_text", `{"focused":true,"text":"xy"}`)
	if v := h.actEvalString(tab, `q.value`); v != "xy" {
		t.Fatalf("focused: %q", v)
	}
	// Content-editable regions take typing too.
	h.must("browser_type_text", `{"target":"`+h.actTarget(tab, "Editor")+`","text":" end"}`)
	if v := h.actEvalString(tab, `ed.textContent`); v != "start end" {
		t.Fatalf("contenteditable: %q", v)
	}
	// Not editable.
	actExpect(t, h.call("browser_type_text", `{"target":"`+h.actTarget(tab, "Plain button")+`","text":"x"}`), surface.StatusFailed, surface.EffectNone, surface.ReasonNotEditable)
	// Credential class: nothing typed, nothing echoed, user hand-off.
	for _, name := range []string{"Secret", "Card"} {
		r = h.call("browser_type_text", `{"selector":{"name":"`+name+`"},"text":"hunter2-secret","clear_first":true}`)
		actExpect(t, r, surface.StatusAttentionRequired, surface.EffectNone, surface.ReasonCredentialHandoff)
		if strings.Contains(string(r.JSON), "hunter2") {
			t.Fatalf("secret in result: %s", r.JSON)
		}
	}
	var leaked []any
	h.actEval(tab, `[secret.value, card.value, window.secretKeys || 0]`, &leaked)
	if leaked[0] != "" || leaked[1] != "" || leaked[2] != float64(0) {
		t.Fatalf("credential fields touched: %v", leaked)
	}
	// Pressing character keys into a credential field is typing too.
	r = h.call("browser_press_key", `{"target":"`+h.actTarget(tab, "Secret")+`","strokes":["a","b"]}`)
	actExpect(t, r, surface.StatusAttentionRequired, surface.EffectNone, surface.ReasonCredentialHandoff)
	// A typed newline submits like Enter, and the landing is reported.
	r = h.must("browser_type_text", `{"target":"`+h.actTarget(tab, "Query")+`","text":"abc\n"}`)
	h.facts(r, &f)
	if f.Landing == nil || !strings.Contains(f.Landing.URL, "/found?q2=abc") {
		t.Fatalf("enter landing: %s", r.JSON)
	}
}

func TestPressKey(t *testing.T) {
	h := newHarness(t)
	srv := actSite(t, map[string]string{"/": actTypePage, "/found": `<title>Found</title>`}, nil)
	tab := h.actOpen(srv.URL + "/")
	keys := h.actTarget(tab, "Keys")
	r := h.must("browser_press_key", `{"target":"`+keys+`","key":"a","modifiers":["Control","Shift"]}`)
	var f surface.BrowserPressKeyFacts
	h.facts(r, &f)
	if f.Key != "Control+Shift+a" || f.Pressed != 1 || r.Envelope.RepeatSafe {
		t.Fatalf("facts: %s", r.JSON)
	}
	if !strings.HasPrefix(r.Envelope.Summary, `Pressed Control+Shift+a in the "Keys" textbox`) {
		t.Fatalf("summary %q", r.Envelope.Summary)
	}
	r = h.must("browser_press_key", `{"strokes":["ArrowLeft","Space","x"],"repeat":2}`)
	f = surface.BrowserPressKeyFacts{}
	h.facts(r, &f)
	if f.Pressed != 6 || f.Key != "ArrowLeft Space x" {
		t.Fatalf("strokes: %s", r.JSON)
	}
	var log []string
	h.actEval(tab, `window.log`, &log)
	want := "Control+ctrl Shift+ctrl+shift A+ctrl+shift ArrowLeft   x ArrowLeft   x"
	if got := strings.Join(log, " "); got != want {
		t.Fatalf("key log %q, want %q", got, want)
	}
	// Enter in a form submits: a landing.
	h.must("browser_type_text", `{"target":"`+h.actTarget(tab, "Query")+`","text":"k"}`)
	r = h.must("browser_press_key", `{"key":"Enter"}`)
	h.facts(r, &f)
	if f.Landing == nil || !strings.Contains(f.Landing.URL, "/found") {
		t.Fatalf("enter: %s", r.JSON)
	}
	actNoReplay(t, r)
}

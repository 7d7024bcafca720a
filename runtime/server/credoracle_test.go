package server

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
	"github.com/ghostlight-dev/ghostlight/runtime/pipeline"
)

// payPage is cardPage with the number shown three ways as it is typed: the
// preview's text, the pay button's name, and the URL (?n=). A page opened
// with ?shown=<number> shows it the same way with nothing typed: the
// control of a session where nobody typed it.
const payPage = `<title>Pay</title><body style="margin:0"><label>Card number <input id="cc" autocomplete="cc-number" style="position:absolute;left:0;top:40px;width:100%;height:300px"></label><p id="preview" style="position:absolute;top:400px">Card preview</p><button id="pay" style="position:absolute;top:440px">Pay</button><p style="position:absolute;top:480px">Ships to Berlin</p>
<script>
function show(v) {
  var g = v.replace(/(\d{4})(?=\d)/g, '$1 ');
  document.getElementById('preview').textContent = 'Card ' + g;
  document.getElementById('pay').textContent = 'Pay ' + g;
  history.replaceState(null, '', '?n=' + v);
}
document.getElementById('cc').addEventListener('input', function (e) { show(e.target.value) });
var m = /[?&]shown=(\d+)/.exec(location.search);
if (m) show(m[1]);
</script></body>`

// TestPageSideQueriesAreNoOracle: the person types a card number, which the
// page shows in its text, a button's name and its URL. A page-side query is
// answered on the text the model sees, so it tells nothing the mask hides:
// find "Card 41" finds nothing, a wait for "4111" times out as on a page
// without it, a selector naming the button by the number is not found. In
// a session where nobody typed the number (the same page, told to show
// it), the same queries match: the test fails if the judging is unwired.
func TestPageSideQueriesAreNoOracle(t *testing.T) {
	const card, shown = "4111111111111111", "4111 1111 1111 1111"
	srv := serve(t, payPage)
	h := newCredHarness(t, srv.URL+"/")
	if err := h.person(card); err != nil {
		t.Fatal(err)
	}
	if v := h.page(`document.getElementById('pay').textContent + ' | ' + location.search`); v != "Pay "+shown+" | ?n="+card {
		t.Fatalf("the page shows %q: the echo this test is about never happened", v)
	}

	// The control: another session, on the page showing the same number,
	// where nobody typed it.
	ctl := func(tool, args string) pipeline.Result {
		t.Helper()
		return h.s.Pipeline().Call(h.ctx, "control", tool, []byte(args), nil)
	}
	var nav surface.BrowserNavigateFacts
	if r := ctl("browser_navigate", `{"url":"`+srv.URL+`/?shown=`+card+`","timeout_ms":30000}`); json.Unmarshal(r.Envelope.Facts, &nav) != nil || nav.Tab == "" {
		t.Fatalf("control navigate: %s", r.JSON)
	}
	masked := func(tool, args string) pipeline.Result {
		t.Helper()
		return h.call(tool, strings.Replace(args, "{", `{"tab":"`+h.tab+`",`, 1))
	}
	control := func(tool, args string) pipeline.Result {
		t.Helper()
		return ctl(tool, strings.Replace(args, "{", `{"tab":"`+nav.Tab+`",`, 1))
	}
	find := func(call func(string, string) pipeline.Result, text string) surface.BrowserFindFacts {
		t.Helper()
		r := call("browser_find", `{"text":"`+text+`"}`)
		var f surface.BrowserFindFacts
		if r.Envelope.Status != surface.StatusSucceeded || json.Unmarshal(r.Envelope.Facts, &f) != nil {
			t.Fatalf("find %q: %s", text, r.JSON)
		}
		return f
	}

	// browser_find.
	for _, q := range []string{"Card 41", "card 4111 1111", "Pay 4111"} {
		if f := find(masked, q); len(f.Matches) != 0 || f.Total != 0 {
			t.Errorf("find %q matches inside the person's number: %d matches, total %d", q, len(f.Matches), f.Total)
		}
		if f := find(control, q); len(f.Matches) == 0 || f.Total == 0 {
			t.Errorf("control: find %q matches nothing where nobody typed the number", q)
		}
	}
	names := func(f surface.BrowserFindFacts) string {
		var ns []string
		for _, m := range f.Matches {
			ns = append(ns, m.Name)
		}
		return strings.Join(ns, " | ")
	}
	if f := find(masked, "Card"); !strings.Contains(names(f), "Card *******************") || f.Total != len(f.Matches) {
		t.Errorf("find Card: want the preview, its name masked: %s (total %d)", names(f), f.Total)
	}
	if f := find(masked, "Berlin"); len(f.Matches) != 1 || f.Total != 1 {
		t.Errorf("find Berlin: %s (total %d)", names(f), f.Total)
	}

	// browser_wait on text and on the URL.
	// A wait expected to time out is kept short; one expected to hold gets
	// time to (waitHolds: a loaded machine answers slowly).
	wait := func(call func(string, string) pipeline.Result, cond, value string) pipeline.Result {
		t.Helper()
		return call("browser_wait", `{"condition":"`+cond+`","value":"`+value+`","timeout_ms":400}`)
	}
	waitHolds := func(call func(string, string) pipeline.Result, cond, value string) pipeline.Result {
		t.Helper()
		return call("browser_wait", `{"condition":"`+cond+`","value":"`+value+`","timeout_ms":10000}`)
	}
	outcome := func(r pipeline.Result) string {
		var f surface.BrowserWaitFacts
		_ = json.Unmarshal(r.Envelope.Facts, &f)
		reason := ""
		if r.Refusal != nil {
			reason = string(r.Refusal.Reason) + " " + r.Refusal.Limit
		}
		return string(r.Envelope.Status) + " " + reason + " satisfied=" + map[bool]string{true: "yes", false: "no"}[f.Satisfied] + " " + r.Envelope.Summary
	}
	for _, c := range []struct{ cond, value, absent string }{
		{"text_present", "4111", "4999"},
		{"text_present", "Card 4111 1111", "Card 4999 1111"},
		{"url_contains", "4111", "4999"},
		{"url_contains", "n=41", "n=49"},
	} {
		got, none := outcome(wait(masked, c.cond, c.value)), outcome(wait(masked, c.cond, c.absent))
		if got != none || !strings.Contains(got, "timeout") {
			t.Errorf("wait %s %q: %s; on a page without it: %s", c.cond, c.value, got, none)
		}
		if r := waitHolds(control, c.cond, c.value); r.Envelope.Status != surface.StatusSucceeded {
			t.Errorf("control: wait %s %q: %s", c.cond, c.value, r.JSON)
		}
	}
	if r := waitHolds(masked, "text_absent", "Card 41"); r.Envelope.Status != surface.StatusSucceeded {
		t.Errorf("wait text_absent \"Card 41\": %s", r.JSON)
	}
	if r := wait(control, "text_absent", "Card 41"); r.Envelope.Status == surface.StatusSucceeded {
		t.Errorf("control: wait text_absent \"Card 41\": %s", r.JSON)
	}
	for _, c := range []struct{ cond, value string }{{"text_present", "Card"}, {"text_present", "Berlin"}, {"text_absent", "4999"}, {"url_contains", "?n="}} {
		if r := waitHolds(masked, c.cond, c.value); r.Envelope.Status != surface.StatusSucceeded {
			t.Errorf("wait %s %q: %s", c.cond, c.value, r.JSON)
		}
	}

	// A selector by name (browser_read of one element).
	read := func(call func(string, string) pipeline.Result, sel string) pipeline.Result {
		t.Helper()
		return call("browser_read", `{"selector":`+sel+`}`)
	}
	refused := func(r pipeline.Result) string {
		if r.Refusal == nil {
			return string(r.Envelope.Status)
		}
		return string(r.Envelope.Status) + " " + string(r.Refusal.Reason) + " " + r.Refusal.Pointer
	}
	none := refused(read(masked, `{"name":"Pay 4999"}`))
	if !strings.Contains(none, string(surface.ReasonTargetNotFound)) {
		t.Fatalf("a selector naming nothing: %s", none)
	}
	for _, sel := range []string{`{"name":"Pay 4111"}`, `{"name":"pay 4111 1111 1111 1111"}`, `{"name":"Pay 4111 1111 1111 1111","exact":true}`, `{"name":"Pay 4111","role":"button"}`} {
		if got := refused(read(masked, sel)); got != none {
			t.Errorf("selector %s: %s; naming nothing: %s", sel, got, none)
		}
		if r := read(control, sel); r.Envelope.Status != surface.StatusSucceeded {
			t.Errorf("control: selector %s: %s", sel, r.JSON)
		}
	}
	if r := read(masked, `{"name":"Pay"}`); r.Envelope.Status != surface.StatusSucceeded || !strings.Contains(string(r.JSON), "Pay *******************") {
		t.Errorf("selector Pay: want the button, its text masked: %s", r.JSON)
	}
}

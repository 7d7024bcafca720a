package tools

import (
	"strings"
	"testing"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
)

// TestFramedEchoIsNoOracle: a payment form in a cross-origin frame (B,
// 127.0.0.2, out of process) shows the card number the person typed, in
// its text and in its pay button's name. Before the session holds the
// number, text queries match it; once it does (the person typed it: the
// workbench's live view reports each key), find, a wait on text and a
// selector by name answer on the text the model sees, the frame's included:
// the number's digits match nothing, what is around them still does.
func TestFramedEchoIsNoOracle(t *testing.T) {
	s := newBoundarySite(t, map[string]string{
		"/outer": `<title>Checkout</title><p>Checkout words</p><iframe src="{B}/pay" style="width:400px;height:200px"></iframe>`,
	}, map[string]string{
		"/pay": `<title>Pay</title><p>Card 4111 1111 1111 1111</p><button>Pay 4111 1111 1111 1111</button><p>Ships to Berlin</p>`,
	})
	h := newHarness(t)
	h.must("browser_navigate", `{"url":`+quote(s.A+"/outer")+`}`)
	h.must("browser_wait", `{"condition":"text_present","value":"Ships to Berlin","timeout_ms":10000}`)

	findCount := func(text string) (int, int) {
		var f surface.BrowserFindFacts
		h.facts(h.must("browser_find", `{"text":`+quote(text)+`}`), &f)
		return len(f.Matches), f.Total
	}
	// A wait expected to hold gets time to (a loaded machine answers
	// slowly); one expected to time out is kept short.
	wait := func(cond, value string, holds bool) surface.Status {
		ms := "300"
		if holds {
			ms = "10000"
		}
		return h.call("browser_wait", `{"condition":"`+cond+`","value":`+quote(value)+`,"timeout_ms":`+ms+`}`).Envelope.Status
	}
	sel := func(sel string) string {
		r := h.call("browser_read", `{"selector":`+sel+`}`)
		if r.Refusal != nil {
			return string(r.Refusal.Reason)
		}
		return string(r.Envelope.Status)
	}
	// oracle lists the queries that match inside the number; typed says
	// whether the person typed it (what each wait is expected to do).
	oracle := func(typed bool) []string {
		var got []string
		if n, total := findCount("Card 41"); n != 0 || total != 0 {
			got = append(got, "find")
		}
		if wait("text_present", "Card 4111", !typed) == surface.StatusSucceeded {
			got = append(got, "text_present")
		}
		if wait("text_absent", "4111 1111", typed) != surface.StatusSucceeded {
			got = append(got, "text_absent")
		}
		if sel(`{"name":"Pay 4111"}`) == string(surface.StatusSucceeded) {
			got = append(got, "selector")
		}
		return got
	}
	// Nobody typed the number: every query matches it.
	if got := strings.Join(oracle(false), " "); got != "find text_present text_absent selector" {
		t.Fatalf("before the person typed the number, these matched it: %q", got)
	}

	testHandler.Person().Typed(h.session, testHandler.Person().NewRun(), []rune("4111111111111111"))
	if got := oracle(true); len(got) != 0 {
		t.Errorf("queries that match inside the typed number: %q", got)
	}
	// What is around the number still matches.
	if n, total := findCount("Card"); n != 1 || total != 1 {
		t.Errorf("find Card: %d matches, total %d", n, total)
	}
	if n, total := findCount("Berlin"); n != 1 || total != 1 {
		t.Errorf("find Berlin: %d matches, total %d", n, total)
	}
	if st := wait("text_present", "Card", true); st != surface.StatusSucceeded {
		t.Errorf("wait text_present Card: %s", st)
	}
	if got := sel(`{"name":"Pay"}`); got != string(surface.StatusSucceeded) {
		t.Errorf("selector Pay: %s", got)
	}
	if got := sel(`{"name":"Pay 4111"}`); got != string(surface.ReasonTargetNotFound) {
		t.Errorf("selector Pay 4111: %s, want the refusal of a selector naming nothing", got)
	}
}

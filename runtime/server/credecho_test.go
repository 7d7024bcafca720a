package server

import (
	"strings"
	"testing"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
)

// cardPage is a card-number field filling the top of the viewport (the
// person's click at (0.5, 0.1) lands in it) and the page's own preview,
// which shows the number grouped in fours as it is typed, as card forms do.
const cardPage = `<title>Pay</title><body style="margin:0"><label>Card number <input id="cc" autocomplete="cc-number" style="position:absolute;left:0;top:40px;width:100%;height:300px"></label><p id="preview" style="position:absolute;top:400px">Card preview</p>
<script>document.getElementById('cc').addEventListener('input', function (e) { document.getElementById('preview').textContent = 'Card ' + e.target.value.replace(/(\d{4})(?=\d)/g, '$1 ') })</script></body>`

// TestPagesEchoOfTheSecretNeverReachesTheModel: the person types a card
// number in the workbench; the page shows it back in its own text (its
// preview, grouped in fours). No result the model gets quotes it, in any
// spelling the page used: not browser_read's text, not browser_find, not a
// script the person let run once they released the document; and no
// picture is taken of a page whose text shows it. What the page holds is read through DevTools, so the test fails
// if the page never showed the number.
func TestPagesEchoOfTheSecretNeverReachesTheModel(t *testing.T) {
	const card, shown = "4111111111111111", "4111 1111 1111 1111"
	h := newCredHarness(t, serve(t, cardPage).URL+"/")
	r := h.call("browser_type_text", `{"tab":"`+h.tab+`","selector":{"name":"Card number"},"text":"model-guess"}`)
	if !strings.Contains(string(r.JSON), `"credential_handoff"`) {
		t.Fatalf("type_text into the card field: %s", r.JSON)
	}
	if err := h.person(card); err != nil {
		t.Fatal(err)
	}
	if v := h.page(`document.getElementById('preview').textContent`); v != "Card "+shown {
		t.Fatalf("the page's preview shows %q: the echo this test is about never happened", v)
	}
	leaks := func(what string, r string) {
		t.Helper()
		for _, s := range []string{card, shown, "4111 1111", "41111111"} {
			if strings.Contains(r, s) {
				t.Fatalf("%s quotes the person's card number (%q): %s", what, s, r)
			}
		}
	}
	read := h.call("browser_read", `{"tab":"`+h.tab+`"}`)
	if read.Envelope.Status != surface.StatusSucceeded || !strings.Contains(string(read.JSON), "Card *******************") {
		t.Fatalf("browser_read: want the preview masked: %s", read.JSON)
	}
	leaks("browser_read", string(read.JSON))
	find := h.call("browser_find", `{"tab":"`+h.tab+`","text":"Card"}`)
	leaks("browser_find", string(find.JSON))

	// The person releases the document: the model's script may run again,
	// and reads the field and the preview; the result masks both.
	if !h.wb.Release(h.tab) {
		t.Fatal("nothing held to release")
	}
	ex := h.call("browser_execute", `{"tab":"`+h.tab+`","script":"document.getElementById('cc').value + ' | ' + document.getElementById('preview').textContent"}`)
	if ex.Envelope.Status != surface.StatusSucceeded || !strings.Contains(string(ex.JSON), "****************") {
		t.Fatalf("browser_execute after release: want the value masked: %s", ex.JSON)
	}
	leaks("browser_execute", string(ex.JSON))

	// A picture cannot be masked: while the page's text shows the number,
	// no screenshot is taken; on a page that does not, it is.
	shot := h.call("browser_screenshot", `{"tab":"`+h.tab+`"}`)
	if shot.Envelope.Status == surface.StatusSucceeded || shot.Image != nil || !strings.Contains(shot.Envelope.Summary, "shows what the user typed") {
		t.Fatalf("a screenshot of the page showing the number: %s", shot.JSON)
	}
	paid := serve(t, `<title>Paid</title><p>Payment received</p>`)
	if r := h.call("browser_navigate", `{"tab":"`+h.tab+`","url":"`+paid.URL+`/"}`); r.Envelope.Status != surface.StatusSucceeded {
		t.Fatalf("navigate: %s", r.JSON)
	}
	if r := h.call("browser_screenshot", `{"tab":"`+h.tab+`"}`); r.Envelope.Status != surface.StatusSucceeded || r.Image == nil {
		t.Fatalf("a screenshot of a page without the number: %s", r.JSON)
	}

	// A value the person did not type is never masked: the model's own
	// number passes as it is.
	if r := h.call("browser_execute", `{"tab":"`+h.tab+`","script":"'5500 0000 0000 0004'"}`); !strings.Contains(string(r.JSON), "5500 0000 0000 0004") {
		t.Fatalf("a number nobody typed was masked: %s", r.JSON)
	}
}

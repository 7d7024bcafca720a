package server

import (
	"strings"
	"testing"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
	"github.com/ghostlight-dev/ghostlight/runtime/workbench"
)

// groupedCardPage is a card-number field that groups the number in fours
// as it is typed, keeping the caret among the digits as card widgets do,
// and shows it back in its own preview.
const groupedCardPage = `<title>Pay</title><body style="margin:0"><label>Card number <input id="cc" autocomplete="cc-number" style="position:absolute;left:0;top:40px;width:100%;height:300px"></label><p id="preview" style="position:absolute;top:400px">Card preview</p>
<script>
const cc = document.getElementById('cc');
cc.addEventListener('input', function () {
  const before = cc.value.slice(0, cc.selectionStart).replace(/\D/g, '').length;
  const f = cc.value.replace(/\D/g, '').slice(0, 19).replace(/(\d{4})(?=\d)/g, '$1 ');
  cc.value = f;
  let at = 0;
  for (let seen = 0; at < f.length && seen < before; at++) if (/\d/.test(f[at])) seen++;
  cc.setSelectionRange(at, at);
  document.getElementById('preview').textContent = 'Card ' + f;
});
</script></body>`

// TestEditedSecretIsMaskedAsTheFieldHoldsIt: the person types a card number
// into a field the page groups in fours, moves the caret back over the last
// digit, takes back the one before it and types another: the page's
// preview shows the edited number, and the model's read masks it. Then the
// person selects the whole field and types another number over it: masked
// too. The keys alone (a caret key ends what they can follow) would leave
// the edited number unmasked: with the live view's read of the field
// turned off, this test fails at the first read.
func TestEditedSecretIsMaskedAsTheFieldHoldsIt(t *testing.T) {
	h := newCredHarness(t, serve(t, groupedCardPage).URL+"/")
	lv, err := h.wb.Live(h.ctx, h.tab)
	if err != nil {
		t.Fatal(err)
	}
	defer lv.Close()
	send := func(es ...workbench.Input) {
		t.Helper()
		for _, e := range es {
			if err := lv.Input(h.ctx, e); err != nil {
				t.Fatalf("%+v: %v", e, err)
			}
		}
	}
	key := func(k string, mods ...string) workbench.Input {
		return workbench.Input{Type: "key", Key: k, Modifiers: mods}
	}
	send(workbench.Input{Type: "click", X: 0.5, Y: 0.1, Button: "primary", Count: 1})
	for _, c := range "4111111111111112" {
		send(workbench.Input{Type: "text", Text: string(c)})
	}
	send(key("ArrowLeft"), key("Backspace"), key("9"))
	const edited = "4111 1111 1111 1192"
	if v := h.page(`document.getElementById('preview').textContent`); v != "Card "+edited {
		t.Fatalf("the page's preview shows %q, want the edited number", v)
	}
	read := func(what, want string, leaks ...string) {
		t.Helper()
		r := h.call("browser_read", `{"tab":"`+h.tab+`"}`)
		if r.Envelope.Status != surface.StatusSucceeded {
			t.Fatalf("browser_read: %s", r.JSON)
		}
		for _, s := range leaks {
			if strings.Contains(string(r.JSON), s) {
				t.Fatalf("%s: browser_read quotes the person's number (%q): %s", what, s, r.JSON)
			}
		}
		if !strings.Contains(string(r.JSON), want) {
			t.Fatalf("%s: want %q in browser_read: %s", what, want, r.JSON)
		}
	}
	read("edited in the middle", "Card *******************", edited, "1111 1192", "4111111111111192")

	// Selected whole and typed over.
	send(key("a", "Control"), workbench.Input{Type: "text", Text: "5555555555554444"})
	const retyped = "5555 5555 5555 4444"
	if v := h.page(`document.getElementById('preview').textContent`); v != "Card "+retyped {
		t.Fatalf("the page's preview shows %q, want the number typed over the selection", v)
	}
	read("typed over a selection", "Card *******************", retyped, "5555 4444")
}

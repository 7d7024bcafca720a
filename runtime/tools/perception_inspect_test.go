package tools

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
)

const formPage = `<title>Sign in</title>
<header><nav aria-label="Main"><a href="/help">Help</a></nav></header>
<main><h1>Sign in</h1>
<form>
  <label>Email <input type="email" value="ada@example.com-secret"></label>
  <label>Password <input type="password" value="pw-secret-123"></label>
  <label>Card <input autocomplete="cc-number" value="4111-secret"></label>
  <label><input type="checkbox" checked> Remember me</label>
  <button type="submit">Sign in</button>
  <button disabled>Disabled one</button>
  <button style="display:none">Hidden button</button>
  <div aria-hidden="true"><button>Aria hidden</button></div>
</form>
<div id="host"></div>
<iframe src="/frame" title="inner"></iframe>
</main>
<script>
  const root = document.getElementById('host').attachShadow({mode: 'open'});
  root.innerHTML = '<button>Shadow action</button>';
</script>`

func TestInspectControls(t *testing.T) {
	h := newHarness(t)
	srv := site(t, map[string]string{"/": formPage, "/frame": `<button>Framed action</button>`})
	nav := h.open(srv.URL + "/")
	f, r := h.inspect(`{}`)
	if f.Tab != nav.Tab || f.DocumentGeneration != nav.DocumentGeneration || f.Snapshot != "" || f.Diff != nil {
		t.Fatalf("facts: %s", r.Envelope.Facts)
	}
	js := string(r.JSON)
	for _, secret := range []string{"ada@example.com-secret", "pw-secret", "4111-secret"} {
		if strings.Contains(js, secret) {
			t.Fatalf("inspect returned an editable value %q: %s", secret, js)
		}
	}
	for _, hidden := range []string{"Hidden button", "Aria hidden"} {
		if strings.Contains(js, hidden) {
			t.Fatalf("inspect returned hidden %q", hidden)
		}
	}
	if !itemNamed(t, f.Items, "textbox", "Password").Credential || !itemNamed(t, f.Items, "textbox", "Card").Credential || itemNamed(t, f.Items, "textbox", "Email").Credential {
		t.Fatalf("credential flags: %s", r.Envelope.Facts)
	}
	if st := itemNamed(t, f.Items, "checkbox", "Remember me").State; len(st) == 0 || st[0] != "checked" {
		t.Fatalf("checkbox state %v", st)
	}
	if st := itemNamed(t, f.Items, "button", "Disabled one").State; len(st) == 0 || st[0] != "disabled" {
		t.Fatalf("disabled state %v", st)
	}
	itemNamed(t, f.Items, "button", "Shadow action")
	itemNamed(t, f.Items, "button", "Framed action")
	itemNamed(t, f.Items, "link", "Help")
	if f.Total != len(f.Items) || f.Truncated {
		t.Fatalf("total %d of %d items, truncated %v", f.Total, len(f.Items), f.Truncated)
	}
	// Every handle is fresh: bound to this tab and generation.
	for _, it := range f.Items {
		ref, st := h.actSess().targets.lookup(it.Target)
		if st != targetBound || len(it.Target) > surface.HandleCharsMax || ref.tab != nav.Tab || ref.gen != uint64(nav.DocumentGeneration) {
			t.Fatalf("handle %s is not bound to %s generation %d", it.Target, nav.Tab, nav.DocumentGeneration)
		}
	}
	if !strings.Contains(r.Envelope.Summary, strconv.Itoa(f.Total)+" controls") {
		t.Fatalf("summary %q does not name the total %d", r.Envelope.Summary, f.Total)
	}

	st, _ := h.inspect(`{"scope":"structure"}`)
	itemNamed(t, st.Items, "heading", "Sign in")
	itemNamed(t, st.Items, "navigation", "Main")
	for _, it := range st.Items {
		if it.Role == "button" || it.Role == "textbox" {
			t.Fatalf("structure scope listed a control: %s", names(st.Items))
		}
	}
	all, _ := h.inspect(`{"scope":"all"}`)
	if all.Total != st.Total+f.Total {
		t.Fatalf("all %d != structure %d + controls %d", all.Total, st.Total, f.Total)
	}
	few, fr := h.inspect(`{"max_items":2}`)
	if len(few.Items) != 2 || !few.Truncated || few.Total != f.Total || !strings.Contains(fr.Envelope.Summary, "first 2") {
		t.Fatalf("max_items 2: %s", fr.JSON)
	}
}

// The token-economy page: 2,000 buttons and 500 links.
func TestInspectBigPageBudget(t *testing.T) {
	h := newHarness(t)
	srv := site(t, map[string]string{"/": bigPage()})
	h.open(srv.URL + "/")
	f, r := h.inspect(`{}`)
	if len(f.Items) != surface.InspectItemsDefault || !f.Truncated || f.Total != 2500 {
		t.Fatalf("big page: %d items, total %d, truncated %v", len(f.Items), f.Total, f.Truncated)
	}
	if len(r.JSON) >= 16<<10 {
		t.Fatalf("inspect envelope is %d bytes (budget 16 KB)", len(r.JSON))
	}
	if !strings.Contains(r.Envelope.Summary, "2500 controls") {
		t.Fatalf("summary: %s", r.Envelope.Summary)
	}
	mx, _ := h.inspect(`{"max_items":` + strconv.Itoa(surface.InspectItemsMax) + `}`)
	if len(mx.Items) != surface.InspectItemsMax || mx.Total != 2500 {
		t.Fatalf("max_items max: %d items, total %d", len(mx.Items), mx.Total)
	}
	h.refuse("browser_inspect", `{"max_items":`+strconv.Itoa(surface.InspectItemsMax+1)+`}`, surface.ReasonInvalidArguments)
}

func TestInspectDocumentSnapshots(t *testing.T) {
	h := newHarness(t)
	srv := site(t, map[string]string{
		"/one": `<title>One</title><header><h1>Shop</h1></header><main><section aria-label="Cart"><h2>Cart</h2><ul><li>Item</li></ul></section><p>Hello there.</p><div style="display:none"><h2>Hidden heading</h2></div></main>`,
		"/two": `<title>Two</title><header><h1>Shop</h1></header><main><section aria-label="Cart"><h2>Basket</h2><ul><li>Item</li></ul></section><h2>Offers</h2><table><tr><td>x</td></tr></table></main>`,
	})
	nav := h.open(srv.URL + "/one")
	d1, r1 := h.inspect(`{"scope":"document"}`)
	if !strings.HasPrefix(d1.Snapshot, "snap_") || d1.Diff != nil || d1.DocumentGeneration != nav.DocumentGeneration {
		t.Fatalf("first snapshot: %s", r1.Envelope.Facts)
	}
	if strings.Contains(string(r1.JSON), "Hidden heading") {
		t.Fatal("document tree holds hidden content")
	}
	main := itemNamed(t, d1.Items, "main", "")
	cart := itemNamed(t, d1.Items, "region", "Cart")
	if main.Level != 1 || cart.Level != 2 || itemNamed(t, d1.Items, "heading", "Cart").Level != 3 {
		t.Fatalf("levels: main %d cart %d", main.Level, cart.Level)
	}
	if d1.Total != len(d1.Items) || d1.Truncated {
		t.Fatalf("total %d for %d nodes", d1.Total, len(d1.Items))
	}
	// Depth bound.
	shallow, sr := h.inspect(`{"scope":"document","max_depth":1}`)
	for _, it := range shallow.Items {
		if it.Level > 1 {
			t.Fatalf("max_depth 1 returned level %d: %s", it.Level, names(shallow.Items))
		}
	}
	if shallow.Diff == nil || shallow.Diff.Previous != d1.Snapshot || len(sr.Envelope.NextSteps) == 0 || !strings.Contains(sr.Envelope.NextSteps[0], "max_depth") {
		t.Fatalf("shallow snapshot: %s", sr.JSON)
	}
	// Item bound: total stays true to the page.
	cut, _ := h.inspect(`{"scope":"document","max_items":2}`)
	if len(cut.Items) != 2 || !cut.Truncated || cut.Total != d1.Total {
		t.Fatalf("max_items 2: %d items, total %d (want %d), truncated %v", len(cut.Items), cut.Total, d1.Total, cut.Truncated)
	}
	// A subtree.
	sub, _ := h.inspect(`{"scope":"document","root":"` + cart.Target + `"}`)
	if len(sub.Items) == 0 || sub.Items[0].Target != cart.Target || strings.Contains(names(sub.Items), "Shop") {
		t.Fatalf("subtree: %s", names(sub.Items))
	}
	h.inspect(`{"scope":"document"}`) // the full tree again, as the base of the diff below

	// Another document: the diff is against the tab's prior snapshot.
	h.open(srv.URL + "/two")
	h.refuse("browser_inspect", `{"scope":"document","root":"`+cart.Target+`"}`, surface.ReasonStaleTarget)
	d2, r2 := h.inspect(`{"scope":"document"}`)
	if d2.Diff == nil || d2.Snapshot == d1.Snapshot {
		t.Fatalf("second snapshot: %s", r2.Envelope.Facts)
	}
	d := d2.Diff
	if d.Changed < 1 || d.Added < 2 || d.Removed < 1 || len(d.Samples) == 0 || len(d.Samples) > surface.DiffSamplesMax {
		t.Fatalf("diff: %+v", d)
	}
	if !strings.Contains(strings.Join(d.Samples, "\n"), `"Basket"`) {
		t.Fatalf("samples do not name the rename: %q", d.Samples)
	}
	// Same page again: no change, and the diff names the snapshot it superseded.
	d3, r3 := h.inspect(`{"scope":"document"}`)
	if d3.Diff == nil || d3.Diff.Previous != d2.Snapshot || d3.Diff.Added+d3.Diff.Removed+d3.Diff.Changed != 0 || !strings.Contains(r3.Envelope.Summary, "No structural change") {
		t.Fatalf("unchanged diff: %s", r3.JSON)
	}
}

// stateListed fails unless every row of facts[key] carries a state array
// (the contract lists state on every item and match, [] when none holds),
// and returns how many rows had none.
func stateListed(t testing.TB, facts []byte, key string) (empty int) {
	t.Helper()
	var f map[string]json.RawMessage
	var rows []map[string]json.RawMessage
	if err := json.Unmarshal(facts, &f); err != nil || json.Unmarshal(f[key], &rows) != nil || len(rows) == 0 {
		t.Fatalf("no %s rows in %s", key, facts)
	}
	for _, row := range rows {
		var st []string
		raw, ok := row["state"]
		if !ok || json.Unmarshal(raw, &st) != nil || st == nil {
			t.Fatalf("a %s row without a state array: %s", key, facts)
		}
		if len(st) == 0 {
			empty++
		}
	}
	return empty
}

func TestInspectItemsCarryState(t *testing.T) {
	h := newHarness(t)
	srv := site(t, map[string]string{"/": formPage, "/frame": `<button>Framed action</button>`})
	h.open(srv.URL + "/")
	for _, scope := range []string{"controls", "structure", "all", "document"} {
		_, r := h.inspect(`{"scope":"` + scope + `"}`)
		if stateListed(t, r.Envelope.Facts, "items") == 0 {
			t.Fatalf("%s: no item with an empty state list: %s", scope, r.Envelope.Facts)
		}
	}
	// Document-scope items carry their real state too.
	srv2 := site(t, map[string]string{"/": `<title>D</title><main><details open aria-label="More"><summary>More</summary><p>Body</p></details><nav aria-label="Side"></nav></main>`})
	h.open(srv2.URL + "/")
	d, _ := h.inspect(`{"scope":"document"}`)
	var more *surface.Item
	for _, it := range d.Items {
		if it.Name == "More" {
			more = it
		}
	}
	if more == nil || len(more.State) != 1 || more.State[0] != "expanded" {
		t.Fatalf("open details in the document tree: %+v (%s)", more, names(d.Items))
	}
}

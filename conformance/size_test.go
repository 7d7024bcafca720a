package conformance

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
)

// sizePages serves the pages the receipt budgets are measured on: a small
// page with a Save button and a name field, a long page to scroll, a
// 12-control form and a 2,500-control page.
func sizePages() *httptest.Server {
	mux := http.NewServeMux()
	html := func(body string) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/html")
			fmt.Fprint(w, body)
		}
	}
	mux.HandleFunc("/", html(`<title>Lantern keepers</title><main><h1>Lantern keepers</h1>`+
		`<p>Some prose to read about lanterns and keepers.</p>`+
		`<label>Name <input id="name"></label> <button onclick="this.textContent='Saved'">Save</button>`+
		`<a href="/other" target="_blank">Other page</a>`+
		`<div style="height:3000px"></div><p id="end">The end.</p></main>`))
	mux.HandleFunc("/other", html(`<title>Other page</title><p>Another page.</p>`))
	var form strings.Builder
	form.WriteString(`<title>Sign up</title><form><h1>Sign up</h1>`)
	for _, l := range []string{"First name", "Last name", "Email", "Phone", "Street", "City", "Postcode"} {
		fmt.Fprintf(&form, `<label>%s <input name="%s"></label>`, l, strings.ReplaceAll(strings.ToLower(l), " ", "_"))
	}
	form.WriteString(`<label>Country <select><option>Norway</option><option>Sweden</option></select></label>`)
	form.WriteString(`<label><input type="checkbox"> Newsletter</label>`)
	form.WriteString(`<label><input type="radio" name="plan"> Basic</label><label><input type="radio" name="plan"> Pro</label>`)
	form.WriteString(`<button type="submit">Create account</button></form>`)
	mux.HandleFunc("/form", html(form.String()))
	var big strings.Builder
	big.WriteString(`<title>Big</title><main>`)
	for i := 1; i <= 2500; i++ {
		fmt.Fprintf(&big, `<button>Item %d</button>`, i)
	}
	big.WriteString(`</main>`)
	mux.HandleFunc("/big", html(big.String()))
	return httptest.NewServer(mux)
}

// textBytes is the size of a result's text block, what a model reading text
// pays for.
func textBytes(t *testing.T, res *mcp.CallToolResult) (int, string) {
	t.Helper()
	tc, ok := res.Content[0].(mcp.TextContent)
	if !ok {
		t.Fatalf("first block is not text: %#v", res.Content[0])
	}
	return len(tc.Text), tc.Text
}

// TestReceiptSizes holds the receipts of routine steps to their budgets in
// spec/bounds.cue, as text-block bytes (what a model reading text pays),
// over the shipped binary and real Chromium: navigate, click, type and
// scroll (receipt_action_bytes), a two-tab list (receipt_tabs_bytes), the
// inspect of a 12-control form (receipt_form_bytes) and 80 inspect items of
// a 2,500-control page (receipt_page_bytes). Each receipt must still carry
// the facts the contract names.
func TestReceiptSizes(t *testing.T) {
	page := sizePages()
	defer page.Close()
	s := startStdio(t)
	defer s.c.Close()
	measure := func(name, tool string, args map[string]any, budget int, facts ...string) surface.Envelope {
		t.Helper()
		res, env := s.call(t, tool, args)
		if env.Status != surface.StatusSucceeded {
			t.Fatalf("%s: %s", name, env.Summary)
		}
		n, text := textBytes(t, res)
		t.Logf("%s: %d bytes (budget %d)", name, n, budget)
		if n > budget {
			t.Errorf("%s: text block is %d bytes, over its budget of %d:\n%s", name, n, budget, text)
		}
		for _, f := range facts {
			if !strings.Contains(text, f) || !strings.Contains(string(env.Facts), f) {
				t.Errorf("%s: %s missing from the text block or the envelope:\n%s", name, f, text)
			}
		}
		return env
	}
	action := surface.ReceiptActionBytesMax
	nav := measure("navigate", "browser_navigate", map[string]any{"url": page.URL + "/"}, action,
		`"tab"`, `"url"`, `"title"`, `"created"`, `"reused"`, `"document_generation"`)
	var nf surface.BrowserNavigateFacts
	if err := json.Unmarshal(nav.Facts, &nf); err != nil {
		t.Fatal(err)
	}
	_, ins := s.call(t, "browser_inspect", map[string]any{})
	var items surface.BrowserInspectFacts
	if err := json.Unmarshal(ins.Facts, &items); err != nil {
		t.Fatal(err)
	}
	var save, name string
	for _, it := range items.Items {
		switch it.Role {
		case surface.RoleButton:
			save = it.Target
		case surface.RoleTextbox:
			name = it.Target
		}
	}
	click := measure("click", "browser_click", map[string]any{"target": save}, action, `"tab"`, `"target"`, `"activated"`)
	if !strings.Contains(click.Summary, `the "Save" button`) {
		t.Errorf("click receipt does not name the element: %s", click.Summary)
	}
	measure("type", "browser_type_text", map[string]any{"target": name, "text": "Ada"}, action, `"tab"`, `"target"`, `"typed"`, `"character_count"`)
	measure("scroll", "browser_scroll", map[string]any{}, action, `"tab"`, `"scrolled"`, `"scroll_x"`, `"scroll_y"`)
	s.call(t, "browser_navigate", map[string]any{"url": page.URL + "/other", "new_tab": true})
	measure("two-tab list", "browser_tabs", map[string]any{"action": "list"}, surface.ReceiptTabsBytesMax,
		`"tab"`, `"title"`, `"url"`, `"active"`, `"readiness"`)
	s.call(t, "browser_navigate", map[string]any{"url": page.URL + "/form", "tab": nf.Tab})
	form := measure("inspect form", "browser_inspect", map[string]any{"tab": nf.Tab}, surface.ReceiptFormBytesMax,
		`"target"`, `"role"`, `"name"`, `"state"`, `"credential"`)
	var ff surface.BrowserInspectFacts
	if err := json.Unmarshal(form.Facts, &ff); err != nil || len(ff.Items) != 12 {
		t.Fatalf("form inspect lists %d items, want 12: %v", len(ff.Items), err)
	}
	s.call(t, "browser_navigate", map[string]any{"url": page.URL + "/big", "tab": nf.Tab})
	big := measure("inspect 2,500-control page", "browser_inspect", map[string]any{"tab": nf.Tab}, surface.ReceiptPageBytesMax,
		`"target"`, `"role"`, `"name"`, `"state"`, `"credential"`)
	var bf surface.BrowserInspectFacts
	if err := json.Unmarshal(big.Facts, &bf); err != nil || len(bf.Items) != surface.InspectItemsDefault || bf.Total != 2500 {
		t.Fatalf("big inspect lists %d of %d items: %v", len(bf.Items), bf.Total, err)
	}
}

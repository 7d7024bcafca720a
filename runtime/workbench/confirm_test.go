package workbench_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
)

// TestConfirmThroughWorkbench: under the harness layer's confirm:
// defaults: true, a "Place order" click waits (the shop's server sees no
// order), the workbench lists the tab's handoff as kind "confirm", and the
// person's answers through its HTTP API decide the model's retries:
// approve once runs one click, refuse refuses the next, saying so; the
// workbench page shows the three answers, and its "Approve for this page"
// button lets two clicks run.
func TestConfirmThroughWorkbench(t *testing.T) {
	var orders atomic.Int32
	shop := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/ordered" {
			orders.Add(1)
			return
		}
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprint(w, `<!doctype html><title>Shop</title><button onclick="fetch('/ordered',{method:'POST'})">Place order</button>`)
	}))
	defer shop.Close()
	agent := mcpClient(t, nil)
	nav := call(t, agent, "browser_navigate", map[string]any{"url": shop.URL + "/", "new_tab": true})
	tab, _ := nav.Facts["tab"].(string)
	click := map[string]any{"tab": tab, "selector": map[string]any{"role": "button", "name": "Place order"}}
	stop := call(t, agent, "browser_click", click)
	if stop.Status != "attention_required" || stop.Facts["reason"] != "action_confirm" || !strings.Contains(stop.Summary, "/workbench/") {
		t.Fatalf("click: %s %s", stop.Status, stop.Summary)
	}
	c := entered(t)
	if _, body := get(t, c, "/workbench/api/tabs"); !strings.Contains(body, `"kind":"confirm"`) {
		t.Fatalf("tabs: %s", body)
	}
	own := map[string]string{"Origin": env.ts.URL, "X-Ghostlight-Workbench": "1"}
	if resp, body := do(t, c, "POST", "/workbench/api/handback?tab="+tab+"&answer=always", "", own); resp.StatusCode != http.StatusBadRequest {
		t.Fatalf("bad answer: %d %s", resp.StatusCode, body)
	}
	if resp, body := do(t, c, "POST", "/workbench/api/handback?tab="+tab+"&answer=once", "", own); resp.StatusCode != http.StatusNoContent {
		t.Fatalf("answer once: %d %s", resp.StatusCode, body)
	}
	if r := call(t, agent, "browser_click", click); r.Status != "succeeded" {
		t.Fatalf("retry: %s %s", r.Status, r.Summary)
	}
	eventually(t, "the approved order reaches the shop", func() bool { return orders.Load() == 1 })
	if r := call(t, agent, "browser_click", click); r.Status != "attention_required" {
		t.Fatalf("second click: %s %s", r.Status, r.Summary)
	}
	if resp, _ := do(t, c, "POST", "/workbench/api/handback?tab="+tab+"&answer=refuse", "", own); resp.StatusCode != http.StatusNoContent {
		t.Fatalf("refuse: %d", resp.StatusCode)
	}
	if r := call(t, agent, "browser_click", click); r.Status != "attention_required" || !strings.Contains(r.Summary, "the user refused") {
		t.Fatalf("refused retry: %s %s", r.Status, r.Summary)
	}

	// The page: a waiting action shows the three answers, not Hand back.
	call(t, agent, "browser_click", click)
	p := personPage(t)
	clickListed(t, p, `#tab-list li[data-tab="`+tab+`"]`)
	p.MustElement("#answer-page").MustWaitVisible()
	if p.MustElement("#handback").MustVisible() {
		t.Fatal("Hand back shown for a confirmation")
	}
	p.MustElement("#answer-page").MustClick()
	eventually(t, "the answer is taken", func() bool {
		_, body := get(t, c, "/workbench/api/tabs")
		return !strings.Contains(body, `"kind":"confirm"`)
	})
	for i := 0; i < 2; i++ {
		if r := call(t, agent, "browser_click", click); r.Status != "succeeded" {
			t.Fatalf("click %d on the approved page: %s %s", i, r.Status, r.Summary)
		}
	}
	eventually(t, "three orders in all", func() bool { return orders.Load() == 3 })
	if orders.Load() != 3 {
		t.Fatalf("orders: %d", orders.Load())
	}
}

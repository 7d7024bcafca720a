package tools

import (
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
	"github.com/ghostlight-dev/ghostlight/runtime/handoff"
)

// shop is a test site on one loopback host: a page with a "Place order"
// and a "Save" button, each counting its clicks on the page itself (the
// page's own counter) and on the server, and a form posting to payTo.
type shop struct {
	base string
	mu   sync.Mutex
	hits map[string]int
}

func newShop(t *testing.T, host, payTo string) *shop {
	t.Helper()
	ln, err := net.Listen("tcp", host+":0")
	if err != nil {
		t.Fatal(err)
	}
	s := &shop{base: "http://" + ln.Addr().String(), hits: map[string]int{}}
	if payTo == "" {
		payTo = s.base
	}
	page := `<!doctype html><title>Shop</title>
<p>Orders placed: <output id="n">0</output>. Saved: <output id="s">0</output>.</p>
<button onclick="n.textContent=+n.textContent+1;fetch('/ordered',{method:'POST'})">Place order</button>
<button onclick="s.textContent=+s.textContent+1;fetch('/saved',{method:'POST'})">Save</button>
<form method="post" action="` + payTo + `/pay"><input name="note" aria-label="Order note"><button type="submit">Continue</button></form>`
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		s.hits[r.URL.Path]++
		s.mu.Unlock()
		w.Header().Set("Content-Type", "text/html")
		if r.URL.Path == "/pay" {
			fmt.Fprint(w, `<!doctype html><title>Paid</title><h1>Paid</h1>`)
			return
		}
		fmt.Fprint(w, page)
	})}
	go func() { _ = srv.Serve(ln) }()
	t.Cleanup(func() { _ = srv.Close() })
	return s
}

func (s *shop) count(path string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.hits[path]
}

// confirmFacts are the facts of an action_confirm answer.
type confirmFacts struct {
	Reason, Layer, Host, Tab string
	WouldDeny                []struct{ Reason, Layer string } `json:"would_deny"`
}

func waits(h *policyHarness, what, tool, args string) confirmFacts {
	h.t.Helper()
	r := h.call(tool, args)
	var f confirmFacts
	_ = json.Unmarshal(r.Envelope.Facts, &f)
	if r.Envelope.Status != surface.StatusAttentionRequired || f.Reason != "action_confirm" {
		h.t.Fatalf("%s: want action_confirm: %s", what, r.JSON)
	}
	return f
}

// pageSays reads the page's own counters.
func pageSays(h *policyHarness, want string) {
	h.t.Helper()
	r := h.must("browser_read", `{}`)
	if !strings.Contains(string(r.JSON), want) {
		h.t.Fatalf("the page does not say %q: %s", want, r.JSON)
	}
}

var placeOrder = `{"selector":{"role":"button","name":"Place order"}}`

// TestConfirmPlaceOrderLive: under confirm: defaults: true a "Place order"
// click waits and nothing is clicked (the page's counter and the server
// both say 0); approve once lets the retry click exactly once and the
// next click waits again; approve for this page covers every click on the
// same document but not after a navigation; refuse refuses the retry,
// saying so, once. A "Save" click never waits. policy_explain lists the
// confirmations.
func TestConfirmPlaceOrderLive(t *testing.T) {
	s := newShop(t, "127.0.0.1", "")
	h := workspaceHarness(t, "", `confirm: defaults: true`)
	nav := h.must("browser_navigate", `{"url":`+quote(s.base+"/")+`}`)
	var nf struct{ Tab string }
	h.facts(nav, &nf)
	f := waits(h, "first click", "browser_click", placeOrder)
	if f.Layer != "workspace" || f.Tab != nf.Tab {
		t.Fatalf("facts: %+v", f)
	}
	pageSays(h, "Orders placed: 0")
	if n := s.count("/ordered"); n != 0 {
		t.Fatalf("the server saw %d orders before any answer", n)
	}
	shown := ""
	for _, ho := range testHandler.Handoffs() {
		if ho.Tab == nf.Tab {
			shown = ho.Kind + ": " + ho.Field
		}
	}
	if shown != `confirm: an action on a control named like "place order"` {
		t.Fatalf("the workbench shows %q", shown)
	}
	h.must("browser_click", `{"selector":{"role":"button","name":"Save"}}`)
	pageSays(h, "Saved: 1")

	// Approve once: the retry clicks once; the one after waits again.
	if !testHandler.Person().Answer(h.session, nf.Tab, handoff.AnswerOnce) {
		t.Fatal("no handoff was open")
	}
	h.must("browser_click", placeOrder)
	pageSays(h, "Orders placed: 1")
	waits(h, "click after the one approved", "browser_click", placeOrder)
	pageSays(h, "Orders placed: 1")

	// Approve for this page: two clicks run; after a navigation, waits.
	if !testHandler.Person().Answer(h.session, nf.Tab, handoff.AnswerPage) {
		t.Fatal("no handoff was open")
	}
	h.must("browser_click", placeOrder)
	h.must("browser_click", placeOrder)
	pageSays(h, "Orders placed: 3")
	h.must("browser_navigate", `{"url":`+quote(s.base+"/")+`}`)
	waits(h, "click on the next document", "browser_click", placeOrder)
	pageSays(h, "Orders placed: 0") // a fresh document

	// Refuse: the retry is refused, saying the user refused; nothing ran.
	if !testHandler.Person().Answer(h.session, nf.Tab, handoff.AnswerRefuse) {
		t.Fatal("no handoff was open")
	}
	r := h.call("browser_click", placeOrder)
	if !strings.Contains(r.Envelope.Summary, "the user refused") {
		t.Fatalf("refused retry: %s", r.JSON)
	}
	pageSays(h, "Orders placed: 0")
	if n := s.count("/ordered"); n != 3 {
		t.Fatalf("the server saw %d orders, want 3", n)
	}
	// A sequence's click step goes the same way: the step before it runs,
	// the order waits.
	r = h.call("browser_sequence", `{"steps":[{"action":"click","selector":{"role":"button","name":"Save"}},{"action":"click","selector":{"role":"button","name":"Place order"}}]}`)
	if r.Envelope.Status != surface.StatusAttentionRequired || !strings.Contains(string(r.JSON), `"status":"attention_required","effect":"none","summary":"browser_click was not run: an action on a control named like \"place order\" waits for the user`) {
		t.Fatalf("sequence: %s", r.JSON)
	}
	pageSays(h, "Orders placed: 0. Saved: 1")
	var ex struct{ Confirm []string }
	h.facts(h.must("policy_explain", `{}`), &ex)
	if got := strings.Join(ex.Confirm, "|"); !strings.Contains(got, `action "place order" (workspace)`) || !strings.Contains(got, `action "subscribe" (workspace)`) {
		t.Fatalf("explain confirm: %v", ex.Confirm)
	}
}

// TestConfirmSubmitLive: a form posting to a confirm host waits, by its
// submit button and by Enter in its field (the host's server sees no
// post); fill_form's submit too; approved, the Enter goes through.
func TestConfirmSubmitLive(t *testing.T) {
	pay := newShop(t, "127.0.0.2", "")
	s := newShop(t, "127.0.0.1", pay.base)
	h := workspaceHarness(t, "", `confirm: submit_to: ["127.0.0.2"]`)
	nav := h.must("browser_navigate", `{"url":`+quote(s.base+"/")+`}`)
	var nf struct{ Tab string }
	h.facts(nav, &nf)
	waits(h, "submit button", "browser_click", `{"selector":{"role":"button","name":"Continue"}}`)
	enter := `{"selector":{"role":"textbox","name":"Order note"},"key":"Enter"}`
	waits(h, "Enter in the field", "browser_press_key", enter)
	waits(h, "fill_form submit", "browser_fill_form", `{"fields":[{"selector":{"role":"textbox","name":"Order note"},"value":"gift"}],"submit_selector":{"role":"button","name":"Continue"}}`)
	if n := pay.count("/pay"); n != 0 {
		t.Fatalf("the confirm host saw %d posts before any answer", n)
	}
	h.must("browser_click", `{"selector":{"role":"button","name":"Save"}}`) // no form: runs
	if !testHandler.Person().Answer(h.session, nf.Tab, handoff.AnswerOnce) {
		t.Fatal("no handoff was open")
	}
	h.must("browser_fill_form", `{"fields":[{"selector":{"role":"textbox","name":"Order note"},"value":"gift"}],"submit_selector":{"role":"button","name":"Continue"}}`)
	if n := pay.count("/pay"); n != 1 {
		t.Fatalf("the confirm host saw %d posts after one approval", n)
	}
}

// TestConfirmSiteScopedAndMonitorLive: a sites entry's confirm applies on
// its site only; a monitor layer's confirm is noted as would_deny and the
// click runs.
func TestConfirmSiteScopedAndMonitorLive(t *testing.T) {
	a, b := newShop(t, "127.0.0.1", ""), newShop(t, "127.0.0.2", "")
	h := workspaceHarness(t, "", `sites: "127.0.0.2": confirm: actions: ["button: save"]`)
	h.must("browser_navigate", `{"url":`+quote(a.base+"/")+`}`)
	h.must("browser_click", `{"selector":{"role":"button","name":"Save"}}`)
	h.must("browser_navigate", `{"url":`+quote(b.base+"/")+`}`)
	if f := waits(h, "save on the site", "browser_click", `{"selector":{"role":"button","name":"Save"}}`); f.Layer != "workspace" {
		t.Fatalf("facts: %+v", f)
	}
	if n := b.count("/saved"); n != 0 {
		t.Fatalf("the site saw %d saves", n)
	}
	if n := a.count("/saved"); n != 1 {
		t.Fatalf("the other site saw %d saves, want 1", n)
	}

	m := workspaceHarness(t, "monitor", "mode: \"monitor\"\nconfirm: defaults: true")
	m.must("browser_navigate", `{"url":`+quote(a.base+"/")+`}`)
	r := m.must("browser_click", placeOrder)
	var f confirmFacts
	m.facts(r, &f)
	if len(f.WouldDeny) != 1 || f.WouldDeny[0].Reason != "action_confirm" || f.WouldDeny[0].Layer != "workspace" {
		t.Fatalf("would_deny: %s", r.JSON)
	}
	pageSays(m, "Orders placed: 1")
}

// TestConfirmDownloadLive: with downloads allowed and confirm: downloads:
// true, a click that starts a download is refused before a byte is kept
// (no file in the session's directory), says it waits for the user, and
// opens the tab's confirm handoff; approved once, the repeat downloads it.
func TestConfirmDownloadLive(t *testing.T) {
	as := newAttachmentSite(t, 64<<10)
	h := workspaceHarness(t, "", "downloads: \"allow\"\nconfirm: downloads: true")
	nav := h.must("browser_navigate", `{"url":`+quote(as.URL+"/")+`}`)
	var nf struct{ Tab string }
	h.facts(nav, &nf)
	var f struct{ Download *surface.Download }
	r := h.must("browser_click", `{"selector":{"name":"Get the report"}}`)
	h.facts(r, &f)
	if f.Download == nil || f.Download.State != surface.DownloadStateRefused || !strings.Contains(r.Envelope.Summary, "wait for the user") {
		t.Fatalf("held download: %s", r.JSON)
	}
	if dir := testBrowser.Workspace(h.session).DownloadDir(); dir != "" && len(downloaded(t, dir)) != 0 {
		t.Fatal("a held download left a file")
	}
	open := false
	for _, ho := range testHandler.Handoffs() {
		open = open || ho.Tab == nf.Tab && ho.Kind == handoff.KindConfirm
	}
	if !open {
		t.Fatal("no confirm handoff opened for the held download")
	}
	if !testHandler.Person().Answer(h.session, nf.Tab, handoff.AnswerOnce) {
		t.Fatal("no handoff was open")
	}
	r = h.must("browser_click", `{"selector":{"name":"Get the report"}}`)
	f.Download = nil
	h.facts(r, &f)
	if f.Download == nil || f.Download.State != surface.DownloadStateCompleted {
		t.Fatalf("approved download: %s", r.JSON)
	}
}

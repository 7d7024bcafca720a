package server

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
	"github.com/ghostlight-dev/ghostlight/runtime/pipeline"
	"github.com/ghostlight-dev/ghostlight/runtime/workbench"
)

// signInPage is a password field filling the top of the viewport (so the
// person's click at (0.5, 0.1) lands in it) and a paragraph below it.
const signInPage = `<title>Sign in</title><body style="margin:0"><label>Password <input id="pw" type="password" style="position:absolute;left:0;top:40px;width:100%;height:300px"></label><p id="out" style="position:absolute;top:400px">Words</p></body>`

// credHarness is a server with its own Chromium, one model session and the
// workbench's side of it, for the tests of what the person types.
type credHarness struct {
	t   *testing.T
	ctx context.Context
	s   *Server
	wb  workbenchBrowser
	tab string // the tab the model opened first
}

// serve answers every path with page.
func serve(t *testing.T, page string) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, page)
	}))
	t.Cleanup(srv.Close)
	return srv
}

// newCredHarness starts the server and has the model open url.
func newCredHarness(t *testing.T, url string) *credHarness {
	s := headlessServer(t)
	ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
	t.Cleanup(cancel)
	h := &credHarness{t: t, ctx: ctx, s: s, wb: workbenchBrowser{b: s.browser, h: s.handler}}
	var nav surface.BrowserNavigateFacts
	r := h.call("browser_navigate", `{"url":"`+url+`","timeout_ms":30000}`)
	if err := json.Unmarshal(r.Envelope.Facts, &nav); err != nil || nav.Tab == "" {
		t.Fatalf("navigate: %s", r.JSON)
	}
	h.tab = nav.Tab
	return h
}

// call is the model's call, through the whole pipeline.
func (h *credHarness) call(tool, args string) pipeline.Result {
	h.t.Helper()
	return h.s.Pipeline().Call(h.ctx, "cred", tool, []byte(args), nil)
}

// person clicks the password field in the tab's live view and types text,
// as the workbench's input API does; the text's input error is returned.
func (h *credHarness) person(text string) error {
	h.t.Helper()
	lv, err := h.wb.Live(h.ctx, h.tab)
	if err != nil {
		h.t.Fatal(err)
	}
	defer lv.Close()
	if err := lv.Input(h.ctx, workbench.Input{Type: "click", X: 0.5, Y: 0.1, Button: "primary", Count: 1}); err != nil {
		h.t.Fatal(err)
	}
	return lv.Input(h.ctx, workbench.Input{Type: "text", Text: text})
}

// page evaluates js in the tab through DevTools (what the page holds, not
// what a result says), as a string.
func (h *credHarness) page(js string) string {
	h.t.Helper()
	bt := h.wb.tab(h.tab)
	if bt == nil || bt.Page() == nil {
		h.t.Fatal("the tab is gone")
	}
	res, err := bt.Page().Context(h.ctx).Eval(`() => String(` + js + `)`)
	if err != nil {
		h.t.Fatal(err)
	}
	return res.Value.Str()
}

// listed is the workbench's row of the tab.
func (h *credHarness) listed() workbench.Tab {
	h.t.Helper()
	for _, x := range h.wb.Tabs() {
		if x.Tab == h.tab {
			return x
		}
	}
	h.t.Fatal("the workbench does not list the tab")
	return workbench.Tab{}
}

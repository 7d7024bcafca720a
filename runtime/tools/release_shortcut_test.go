package tools

import (
	"context"
	"testing"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
)

// A browser shortcut a page does not take (Control+Shift+A opens Chromium's
// tab search) leaves a bubble on the window; a session released then used to
// take the whole browser down as its context was disposed (12 of 14
// releases). The release now waits for the context's pages to be gone.
func TestReleaseAfterBrowserShortcutKeepsTheBrowser(t *testing.T) {
	srv := actSite(t, map[string]string{"/": actTypePage}, nil)
	for range 5 {
		h := newHarness(t)
		tab := h.actOpen(srv.URL + "/")
		h.must("browser_press_key", `{"target":"`+h.actTarget(tab, "Keys")+`","key":"a","modifiers":["Control","Shift"]}`)
		testHandler.Release(context.Background(), h.session)
		next := newHarness(t)
		r := next.call("browser_navigate", `{"url":`+quote(srv.URL+"/")+`,"new_tab":true}`)
		if r.Envelope.Status != surface.StatusSucceeded {
			t.Fatalf("the next session found no browser: %s", r.JSON)
		}
		testHandler.Release(context.Background(), next.session)
	}
}

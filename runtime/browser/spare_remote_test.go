//go:build unix

package browser

import (
	"context"
	"testing"
	"time"
)

// TestNoSpareWindowInABrowserAttachedTo: in a browser Ghostlight did not
// launch (a remote one here, the person's own elsewhere), a workspace that
// opens tabs schedules no blank window.
func TestNoSpareWindowInABrowserAttachedTo(t *testing.T) {
	r := startRemoteChromium(t)
	b := remoteBrowser(t, r.pool.browserless())
	s := newTwoHosts(t, nil)
	ws := b.Workspace("nospare")
	t.Cleanup(func() { _ = b.ReleaseWorkspace(context.Background(), "nospare") })
	for _, p := range []string{"/one", "/two"} {
		if _, err := ws.Open(ctxT(t, 20*time.Second), "http://"+s.a+p, OpenOptions{NewTab: true}); err != nil {
			t.Fatal(err)
		}
	}
	// A launched browser's workspace has one scheduled by now (refillSpares
	// counts it before Open returns).
	ws.mu.Lock()
	ready, making := len(ws.spare.ready), ws.spare.making
	ws.mu.Unlock()
	if ready != 0 || making != 0 {
		t.Fatalf("spares in an attached browser: %d ready, %d being made", ready, making)
	}
}

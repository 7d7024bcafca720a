package browser

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/go-rod/rod/lib/proto"
)

// TestSpareWindowServesTheNextNewTab: once a workspace of the launched
// (headless) browser holds two tabs and goes idle, it makes one blank window
// of its own context, and its next new tab takes it. The spare is in no tab
// list; a tab made from it is governed from its first navigation (a denied
// host receives nothing); the workspace's release closes the spare with its
// tabs.
func TestSpareWindowServesTheNextNewTab(t *testing.T) {
	s := newTwoHosts(t, nil)
	id := fmt.Sprintf("spare-%d", time.Now().UnixNano())
	ws := shared.Workspace(id)
	released := false
	t.Cleanup(func() {
		if !released {
			_ = shared.ReleaseWorkspace(context.Background(), id)
		}
	})
	c := liveConn(t, shared)
	open := func(ctx context.Context, u string) (OpenResult, error) {
		t.Helper()
		return ws.Open(ctx, u, OpenOptions{NewTab: true})
	}
	for i := range 2 {
		if _, err := open(ctxT(t, 20*time.Second), "http://"+s.a+"/p"+fmt.Sprint(i)); err != nil {
			t.Fatal(err)
		}
	}
	// spareMade waits until the workspace, idle, has its spare, and returns
	// the spare's target.
	spareMade := func(what string) proto.TargetTargetID {
		t.Helper()
		var spare *Tab
		eventually(t, what, func() bool {
			ws.mu.Lock()
			defer ws.mu.Unlock()
			if len(ws.spare.ready) == 1 {
				spare = ws.spare.ready[0]
			}
			return spare != nil
		})
		return spare.binding().targetID
	}
	spareTarget := spareMade("a spare window made once the workspace is idle")
	if got := targetContext(t, c, spareTarget); got != ws.ContextID() {
		t.Fatalf("the spare is in context %q, the workspace's is %q", got, ws.ContextID())
	}
	tabs, err := ws.Tabs(ctxT(t, 10*time.Second))
	if err != nil || len(tabs) != 2 {
		t.Fatalf("tabs with a spare made: %+v %v", tabs, err)
	}

	// The next new tab, to a host the call may not reach: the spare is taken,
	// its first navigation is refused, and the tab goes.
	_, err = open(governed(t, onlyA(false)), "http://"+s.b+"/secret")
	if KindOf(err) != KindHostDenied {
		t.Fatalf("a denied first navigation of a spare: %v", err)
	}
	if ws.SparesUsed() != 1 {
		t.Fatalf("spares used: %d, want 1", ws.SparesUsed())
	}
	if got := s.bRequests(); len(got) != 0 {
		t.Fatalf("the denied host received %v", got)
	}
	eventually(t, "the refused tab closed", func() bool { return !targetExists(t, c, spareTarget) })

	// Idle again: another spare; the new tab takes it and lands.
	spareTarget = spareMade("the spare made again")
	res, err := open(ctxT(t, 20*time.Second), "http://"+s.a+"/third")
	if err != nil || res.Tab.binding().targetID != spareTarget || ws.SparesUsed() != 2 {
		t.Fatalf("the third tab: %+v %v (spares used %d)", res, err, ws.SparesUsed())
	}
	if res.Landing.URL != "http://"+s.a+"/third" {
		t.Fatalf("landing %+v", res.Landing)
	}
	// A navigation's history starts at its page, as a created tab's does.
	hist, err := proto.PageGetNavigationHistory{}.Call(res.Tab.Page().Context(ctxT(t, 5*time.Second)))
	if err != nil || len(hist.Entries) != 1 {
		t.Fatalf("the tab's history: %+v %v", hist, err)
	}

	spareTarget = spareMade("the spare made again")
	if err := shared.ReleaseWorkspace(ctxT(t, 10*time.Second), id); err != nil {
		t.Fatal(err)
	}
	released = true
	eventually(t, "the spare closed with its workspace", func() bool { return !targetExists(t, c, spareTarget) })
}

package browser

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/go-rod/rod/lib/proto"
)

func TestTabsListsOnlyThisWorkspace(t *testing.T) {
	ws1, ws2 := newWS(t), newWS(t)
	t1 := openTab(t, ws1, pageURL("mine"))
	t2 := openTab(t, ws2, pageURL("theirs"))
	if !strings.HasPrefix(t1.Handle(), "tab_") || t1.Handle() == t2.Handle() {
		t.Fatalf("handles %q %q", t1.Handle(), t2.Handle())
	}
	list, err := ws1.Tabs(ctxT(t, 5*time.Second))
	if err != nil {
		t.Fatal(err)
	}
	if len(list) != 1 || list[0].Handle != t1.Handle() || list[0].Title != "mine" ||
		list[0].URL != pageURL("mine") || !list[0].Active || list[0].Readiness != ReadyComplete {
		t.Fatalf("ws1 list: %+v", list)
	}
	if _, err := ws1.Resolve(ctxT(t, time.Second), t2.Handle()); KindOf(err) != KindUnknownTab {
		t.Fatalf("another workspace's handle must be unknown, got %v", err)
	}
	if _, err := ws1.Close(ctxT(t, time.Second), t2.Handle()); KindOf(err) != KindUnknownTab {
		t.Fatalf("closing another workspace's handle must be refused, got %v", err)
	}
}

func TestResolveOmittedTab(t *testing.T) {
	ws := newWS(t)
	_, err := ws.Resolve(ctxT(t, 5*time.Second), "")
	wantKind(t, err, KindNoTab)
	a := openTab(t, ws, pageURL("a"))
	got, err := ws.Resolve(ctxT(t, 5*time.Second), "")
	if err != nil || got != a {
		t.Fatalf("only tab: %v %v", got, err)
	}
	b := openTab(t, ws, pageURL("b"))
	// Each controlled tab has its own window, so both are active: ambiguous.
	_, err = ws.Resolve(ctxT(t, 5*time.Second), "")
	wantKind(t, err, KindAmbiguousTab)
	if _, err := ws.Close(ctxT(t, 5*time.Second), a.Handle()); err != nil {
		t.Fatal(err)
	}
	got, err = ws.Resolve(ctxT(t, 5*time.Second), "")
	if err != nil || got != b {
		t.Fatalf("after closing a: %v %v", got, err)
	}
}

func TestResolveSoleActiveTab(t *testing.T) {
	ws := newWS(t)
	opener := openTab(t, ws, srv.URL+"/opener")
	click(t, opener, 50, 50) // target=_blank: a new tab in the opener's window hides the opener
	var child *Tab
	eventually(t, "child adopted", func() bool {
		if o := opener.TakeOpened(); len(o) > 0 {
			child = o[0]
		}
		return child != nil
	})
	eventually(t, "child loaded", func() bool {
		info, err := child.Info(ctxT(t, 5*time.Second))
		return err == nil && info.Title == "child" && info.Readiness == ReadyComplete
	})
	got, err := ws.Resolve(ctxT(t, 5*time.Second), "")
	if err != nil || got != child {
		t.Fatalf("the sole active tab should be selected: %v %v", got, err)
	}
	f, err := ws.Focus(ctxT(t, 5*time.Second), opener.Handle())
	if err != nil || !f.Active || !f.WindowFocused {
		t.Fatalf("focus: %+v %v", f, err)
	}
	got, err = ws.Resolve(ctxT(t, 5*time.Second), "")
	if err != nil || got != opener {
		t.Fatalf("after focus the opener is the sole active tab: %v %v", got, err)
	}
	list, err := ws.Tabs(ctxT(t, 5*time.Second))
	if err != nil || len(list) != 2 {
		t.Fatalf("list: %+v %v", list, err)
	}
	for _, ti := range list {
		if (ti.Handle == opener.Handle()) != ti.Active {
			t.Fatalf("only the opener should be active now: %+v", list)
		}
	}
}

func TestWindowOpenAdoptedIntoWorkspace(t *testing.T) {
	ws, bystander := newWS(t), newWS(t)
	openTab(t, bystander, pageURL("bystander"))
	opener := openTab(t, ws, srv.URL+"/opener")
	click(t, opener, 50, 150) // the window.open button
	var popup *Tab
	eventually(t, "popup adopted", func() bool {
		if o := opener.TakeOpened(); len(o) > 0 {
			popup = o[0]
		}
		return popup != nil
	})
	if len(opener.TakeOpened()) != 0 {
		t.Fatal("TakeOpened must drain")
	}
	eventually(t, "popup loaded", func() bool {
		info, err := popup.Info(ctxT(t, 5*time.Second))
		return err == nil && info.Readiness == ReadyComplete && info.Title == "popup" && popup.Title() == "popup"
	})
	if popup.Generation() == 0 {
		t.Fatal("adopted tab should have a document generation")
	}
	list, err := ws.Tabs(ctxT(t, 5*time.Second))
	if err != nil || len(list) != 2 {
		t.Fatalf("workspace should list opener and popup: %+v %v", list, err)
	}
	other, err := bystander.Tabs(ctxT(t, 5*time.Second))
	if err != nil || len(other) != 1 || other[0].Title != "bystander" {
		t.Fatalf("bystander must not see the popup: %+v %v", other, err)
	}
	land, err := popup.Navigate(ctxT(t, 10*time.Second), pageURL("popup2"), NavigateOptions{})
	if err != nil || land.Title != "popup2" {
		t.Fatalf("navigate adopted popup: %v %+v", err, land)
	}
}

func TestRecreateByHandleAfterPageClosedItself(t *testing.T) {
	ws := newWS(t)
	tab := openTab(t, ws, srv.URL+"/closer")
	gen := tab.Generation()
	// A created tab has a single history entry, so the page may close itself.
	eval(t, tab, `setTimeout(() => window.close(), 10); 1`)
	eventually(t, "tab gone", func() bool { return !tab.Alive() })
	_, err := ws.Resolve(ctxT(t, 5*time.Second), tab.Handle())
	wantKind(t, err, KindTabGone)
	_, err = tab.Navigate(ctxT(t, 5*time.Second), pageURL("x"), NavigateOptions{})
	wantKind(t, err, KindTabGone)
	again, recreated, err := ws.Reopen(ctxT(t, 15*time.Second), tab.Handle())
	if err != nil || !recreated || again != tab {
		t.Fatalf("reopen: %v recreated=%v", err, recreated)
	}
	land, err := tab.Navigate(ctxT(t, 10*time.Second), pageURL("back"), NavigateOptions{})
	if err != nil || land.Title != "back" || land.Generation <= gen {
		t.Fatalf("navigate recreated tab: %v %+v (gen before %d)", err, land, gen)
	}
	if _, again, err := ws.Reopen(ctxT(t, 5*time.Second), tab.Handle()); err != nil || again {
		t.Fatalf("reopening a live tab recreates nothing: %v %v", again, err)
	}
}

func TestCloseOfGoneTabTouchesNoBrowser(t *testing.T) {
	ws := newWS(t)
	tab := openTab(t, ws, pageURL("x"))
	c := liveConn(t, shared)
	if _, err := (proto.TargetCloseTarget{TargetID: tab.TargetID()}).Call(c.call(ctxT(t, 5*time.Second), "")); err != nil {
		t.Fatal(err)
	}
	eventually(t, "tab gone", func() bool { return !tab.Alive() })
	before := shared.calls.Load()
	res, err := ws.Close(ctxT(t, 5*time.Second), tab.Handle())
	if err != nil || res.Closed || !res.AlreadyGone {
		t.Fatalf("close of gone tab: %+v %v", res, err)
	}
	if n := shared.calls.Load() - before; n != 0 {
		t.Fatalf("closing a gone tab made %d browser calls", n)
	}
	// The slot is durable: navigation by handle recreates it.
	if _, recreated, err := ws.Reopen(ctxT(t, 15*time.Second), tab.Handle()); err != nil || !recreated {
		t.Fatalf("reopen after CDP close: %v %v", recreated, err)
	}
}

func TestCloseLiveTab(t *testing.T) {
	ws := newWS(t)
	tab := openTab(t, ws, pageURL("x"))
	id := tab.TargetID()
	res, err := ws.Close(ctxT(t, 5*time.Second), tab.Handle())
	if err != nil || !res.Closed {
		t.Fatalf("close: %+v %v", res, err)
	}
	c := liveConn(t, shared)
	eventually(t, "target closed", func() bool { return !targetExists(t, c, id) })
	list, err := ws.Tabs(ctxT(t, 5*time.Second))
	if err != nil || len(list) != 0 {
		t.Fatalf("closed tab still listed: %+v %v", list, err)
	}
}

func TestOpenAdoptsUnboundSameHostTab(t *testing.T) {
	c := liveConn(t, shared)
	// Unbound tabs: one on another host name, one same-host, one exact.
	other := createUnbound(t, shared, strings.Replace(pageURL("otherhost"), "127.0.0.1", "localhost", 1), "otherhost")
	near := createUnbound(t, shared, pageURL("near"), "near")
	exact := createUnbound(t, shared, pageURL("exact"), "exact")

	// The person's tabs are in the default context: only a shared workspace
	// adopts them (isolation_test.go has the session side).
	ws := newSharedWS(t)
	res, err := ws.Open(ctxT(t, 15*time.Second), pageURL("exact"), OpenOptions{})
	if err != nil || !res.Reused || res.Created || res.Tab.TargetID() != exact {
		t.Fatalf("exact URL should be adopted: %+v %v", res, err)
	}
	if res.Landing.Title != "exact" || res.Landing.Readiness != ReadyComplete {
		t.Fatalf("landing: %+v", res.Landing)
	}

	ws2 := newSharedWS(t)
	res2, err := ws2.Open(ctxT(t, 15*time.Second), pageURL("elsewhere"), OpenOptions{})
	if err != nil || !res2.Reused || res2.Tab.TargetID() != near {
		t.Fatalf("same-host tab should be adopted and navigated: %+v %v", res2, err)
	}
	if res2.Landing.Title != "elsewhere" {
		t.Fatalf("adopted tab should have navigated: %+v", res2.Landing)
	}

	ws3 := newSharedWS(t)
	res3, err := ws3.Open(ctxT(t, 15*time.Second), pageURL("exact"), OpenOptions{Reuse: ReuseNever})
	if err != nil || res3.Reused || !res3.Created {
		t.Fatalf("reuse never must create: %+v %v", res3, err)
	}
	// The only unbound tab left is on another host name: it is not adopted.
	ws4 := newSharedWS(t)
	res4, err := ws4.Open(ctxT(t, 15*time.Second), pageURL("fresh"), OpenOptions{})
	if err != nil || res4.Reused || !res4.Created || res4.Tab.TargetID() == other {
		t.Fatalf("other host must not be adopted: %+v %v", res4, err)
	}
	_ = c
}

func TestOpenUsesControlledTabOrNewTab(t *testing.T) {
	ws := newWS(t)
	first, err := ws.Open(ctxT(t, 15*time.Second), pageURL("one"), OpenOptions{Reuse: ReuseNever})
	if err != nil || !first.Created {
		t.Fatalf("first open: %+v %v", first, err)
	}
	second, err := ws.Open(ctxT(t, 15*time.Second), pageURL("two"), OpenOptions{})
	if err != nil || second.Created || second.Reused || second.Tab != first.Tab || second.Landing.Title != "two" {
		t.Fatalf("open without new_tab should use the controlled tab: %+v %v", second, err)
	}
	third, err := ws.Open(ctxT(t, 15*time.Second), pageURL("three"), OpenOptions{NewTab: true})
	if err != nil || !third.Created || third.Tab == first.Tab {
		t.Fatalf("new_tab: %+v %v", third, err)
	}
	_, err = ws.Open(ctxT(t, 15*time.Second), pageURL("four"), OpenOptions{})
	wantKind(t, err, KindAmbiguousTab)
}

func TestReleaseWorkspaceClosesItsTabs(t *testing.T) {
	c := liveConn(t, shared)
	ws := shared.Workspace("release-me")
	tab := openTab(t, ws, pageURL("x"))
	id := tab.TargetID()
	if err := shared.ReleaseWorkspace(ctxT(t, 5*time.Second), "release-me"); err != nil {
		t.Fatal(err)
	}
	eventually(t, "released tab closed", func() bool { return !targetExists(t, c, id) })
	if shared.Workspace("release-me").lookup(tab.Handle()) != nil {
		t.Fatal("a released workspace's handles are forgotten")
	}
}

func TestPerTabSerialization(t *testing.T) {
	ws := newWS(t)
	a := openTab(t, ws, pageURL("a"))
	b := openTab(t, ws, pageURL("b"))
	type span struct{ start, end time.Time }
	run := func(tab *Tab) span {
		var s span
		err := tab.Do(ctxT(t, 10*time.Second), func(ctx context.Context) error {
			s.start = time.Now()
			// A real call inside the hold, plus time for another caller to try to overlap.
			if _, err := tab.Readiness(ctx); err != nil {
				return err
			}
			time.Sleep(150 * time.Millisecond)
			s.end = time.Now()
			return nil
		})
		if err != nil {
			t.Error(err)
		}
		return s
	}
	overlap := func(x, y span) bool { return x.start.Before(y.end) && y.start.Before(x.end) }

	var wg sync.WaitGroup
	spans := make([]span, 2)
	for i, tab := range []*Tab{a, a} {
		wg.Add(1)
		go func() { defer wg.Done(); spans[i] = run(tab) }()
	}
	wg.Wait()
	if overlap(spans[0], spans[1]) {
		t.Fatalf("two calls on one tab overlapped: %+v", spans)
	}
	for i, tab := range []*Tab{a, b} {
		wg.Add(1)
		go func() { defer wg.Done(); spans[i] = run(tab) }()
	}
	wg.Wait()
	if !overlap(spans[0], spans[1]) {
		t.Fatalf("calls on two tabs should run in parallel: %+v", spans)
	}
	// Operations inside Do do not wait for the hold they are already in.
	err := a.Do(ctxT(t, 10*time.Second), func(ctx context.Context) error {
		_, err := a.Navigate(ctx, pageURL("nested"), NavigateOptions{})
		return err
	})
	if err != nil {
		t.Fatalf("nested navigate: %v", err)
	}
	// A waiting caller gives up with its own deadline.
	hold := make(chan struct{})
	go func() {
		_ = a.Do(ctxT(t, 10*time.Second), func(ctx context.Context) error { <-hold; return nil })
	}()
	time.Sleep(50 * time.Millisecond)
	_, err = a.Navigate(ctxT(t, 100*time.Millisecond), pageURL("late"), NavigateOptions{})
	close(hold)
	wantKind(t, err, KindTimeout)
}

// TestTargetAbsentReadsTheBrowsersList: a close that fails is taken as "the tab
// had already closed itself" only when the browser lists no such target, never
// from the error's wording: a live tab is present, an id the browser never
// made is absent.
func TestTargetAbsentReadsTheBrowsersList(t *testing.T) {
	ws := newWS(t)
	tab := openTab(t, ws, pageURL("present"))
	c := liveConn(t, shared)
	ctx := ctxT(t, 5*time.Second)
	if c.targetAbsent(ctx, tab.TargetID()) {
		t.Fatal("a live tab's target reads as absent")
	}
	if !c.targetAbsent(ctx, proto.TargetTargetID("0123456789ABCDEF0123456789ABCDEF")) {
		t.Fatal("an id the browser never made reads as present")
	}
	done, cancel := context.WithCancel(ctx)
	cancel()
	if c.targetAbsent(done, "0123456789ABCDEF0123456789ABCDEF") {
		t.Fatal("a list that could not be read was taken to say the target closed")
	}
}

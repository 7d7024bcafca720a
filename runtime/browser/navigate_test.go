package browser

import (
	"net"
	"testing"
	"time"
)

func TestGenerationBumpsOnNewDocumentOnly(t *testing.T) {
	ws := newWS(t)
	tab := openTab(t, ws, pageURL("g1"))
	g1 := tab.Generation()
	if g1 == 0 {
		t.Fatal("a loaded tab has a generation")
	}
	land, err := tab.Navigate(ctxT(t, 10*time.Second), pageURL("g2"), NavigateOptions{})
	if err != nil || land.Generation != g1+1 || tab.Generation() != g1+1 {
		t.Fatalf("navigation should bump the generation once: %v %+v (was %d)", err, land, g1)
	}
	eval(t, tab, `history.pushState({}, "", "/pushed"); 1`)
	eventually(t, "pushState observed", func() bool { return tab.URL() == srv.URL+"/pushed" })
	land, err = tab.Navigate(ctxT(t, 10*time.Second), srv.URL+"/pushed#frag", NavigateOptions{})
	if err != nil || land.URL != srv.URL+"/pushed#frag" || !land.Committed {
		t.Fatalf("fragment navigation: %v %+v", err, land)
	}
	if tab.Generation() != g1+1 || land.Generation != g1+1 {
		t.Fatalf("same-document moves must not bump the generation: %d", tab.Generation())
	}
	land, err = tab.History(ctxT(t, 10*time.Second), HistoryReload, false)
	if err != nil || land.Generation != g1+2 {
		t.Fatalf("reload is a new document: %v %+v", err, land)
	}
}

func TestNavigateLandingAndHistory(t *testing.T) {
	ws := newWS(t)
	tab := openTab(t, ws, pageURL("h1"))
	// The created tab's about:blank entry is gone: nothing to go back to.
	_, err := tab.History(ctxT(t, 5*time.Second), HistoryBack, false)
	wantKind(t, err, KindNoHistoryEntry)
	land, err := tab.Navigate(ctxT(t, 10*time.Second), pageURL("h2"), NavigateOptions{})
	if err != nil || land.Title != "h2" || land.URL != pageURL("h2") || land.Readiness != ReadyComplete || !land.Committed {
		t.Fatalf("navigate: %v %+v", err, land)
	}
	land, err = tab.History(ctxT(t, 10*time.Second), HistoryBack, false)
	if err != nil || land.Title != "h1" || land.Readiness != ReadyComplete {
		t.Fatalf("back: %v %+v", err, land)
	}
	land, err = tab.History(ctxT(t, 10*time.Second), HistoryForward, false)
	if err != nil || land.Title != "h2" {
		t.Fatalf("forward: %v %+v", err, land)
	}
	_, err = tab.History(ctxT(t, 5*time.Second), HistoryForward, false)
	e := wantKind(t, err, KindNoHistoryEntry)
	if e.Landing == nil || e.Landing.Title != "h2" {
		t.Fatalf("refusal should carry where the tab is: %+v", e.Landing)
	}
}

func TestReloadBypassCache(t *testing.T) {
	ws := newWS(t)
	tab := openTab(t, ws, srv.URL+"/cached")
	if eval(t, tab, `String(window.cachedLoaded)`) != "true" {
		t.Fatal("script did not load")
	}
	hits := site.cachedHits.Load()
	if _, err := tab.History(ctxT(t, 10*time.Second), HistoryReload, false); err != nil {
		t.Fatal(err)
	}
	if n := site.cachedHits.Load(); n != hits {
		t.Fatalf("a normal reload should reuse the cached script (hits %d -> %d)", hits, n)
	}
	land, err := tab.History(ctxT(t, 10*time.Second), HistoryReload, true)
	if err != nil || land.Title != "cached" {
		t.Fatalf("bypass reload: %v %+v", err, land)
	}
	if n := site.cachedHits.Load(); n != hits+1 {
		t.Fatalf("a bypass-cache reload should refetch the script (hits %d -> %d)", hits, n)
	}
}

func TestNavigationNetworkError(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	dead := "http://" + l.Addr().String() + "/"
	l.Close()
	ws := newWS(t)
	tab := openTab(t, ws, pageURL("before-error"))
	_, err = tab.Navigate(ctxT(t, 10*time.Second), dead, NavigateOptions{})
	e := wantKind(t, err, KindNavigation)
	if e.NetError != "net::ERR_CONNECTION_REFUSED" {
		t.Fatalf("net error text: %q", e.NetError)
	}
	if e.Landing == nil || e.Landing.URL != dead || !e.Landing.Committed {
		t.Fatalf("a failed navigation reports the address that failed: %+v", e.Landing)
	}
}

func TestReadinessOnSlowPage(t *testing.T) {
	ws := newWS(t)
	tab := openTab(t, ws, pageURL("start"))
	defer site.releaseSlow()
	land, err := tab.Navigate(ctxT(t, 1500*time.Millisecond), srv.URL+"/slow", NavigateOptions{})
	e := wantKind(t, err, KindTimeout)
	if e.Landing == nil || !land.Committed || land.Readiness != ReadyLoading || land.URL != srv.URL+"/slow" {
		t.Fatalf("a timed-out load should report the committed, loading page: %+v", land)
	}
	r, err := tab.Readiness(ctxT(t, 5*time.Second))
	if err != nil || r != ReadyLoading {
		t.Fatalf("readiness while the body streams: %q %v", r, err)
	}
	site.releaseSlow()
	eventually(t, "slow page complete", func() bool {
		r, err := tab.Readiness(ctxT(t, 5*time.Second))
		return err == nil && r == ReadyComplete
	})
}

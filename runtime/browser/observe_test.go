package browser

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strconv"
	"sync"
	"testing"
	"time"
)

// TestSyncIsAnEventBarrier: once Sync returns, every event the page emitted
// before it has reached the tab's observers, however the machine schedules
// goroutines. Each round starts a request from page script and asserts,
// right after one Sync and with no waiting, that its requestWillBeSent was
// observed; the request never answers, so nothing but the barrier orders it.
func TestSyncIsAnEventBarrier(t *testing.T) {
	hang := make(chan struct{})
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/hang" {
			select {
			case <-hang:
			case <-r.Context().Done():
			}
			return
		}
		w.Header().Set("Content-Type", "text/html")
		w.Write([]byte(`<title>Barrier</title><p>barrier</p>`))
	}))
	// Cleanups run last first: release the hanging requests before Close waits for them.
	t.Cleanup(site.Close)
	t.Cleanup(func() { close(hang) })

	ws := newWS(t)
	tab := openTab(t, ws, site.URL+"/")
	ctx := ctxT(t, 60*time.Second)
	var mu sync.Mutex
	seen := map[string]bool{}
	var o *Observation
	err := tab.Do(ctx, func(ctx context.Context) error {
		var err error
		o, err = tab.Observe(func(method string, params json.RawMessage) {
			if method != "Network.requestWillBeSent" {
				return
			}
			var e struct {
				Request struct {
					URL string `json:"url"`
				} `json:"request"`
			}
			if json.Unmarshal(params, &e) == nil {
				mu.Lock()
				seen[e.Request.URL] = true
				mu.Unlock()
			}
		})
		if err != nil {
			return err
		}
		return tab.EnableNetwork(ctx)
	})
	if err != nil {
		t.Fatal(err)
	}
	defer o.Stop()
	p := tab.Page()
	for i := 0; i < 50; i++ {
		u := site.URL + "/hang?n=" + strconv.Itoa(i)
		// The script starts the request and returns at once.
		if _, err := p.Context(ctx).Eval(`u => { fetch(u); return 1 }`, u); err != nil {
			t.Fatal(err)
		}
		if err := tab.Sync(ctx); err != nil {
			t.Fatal(err)
		}
		mu.Lock()
		ok := seen[u]
		mu.Unlock()
		if !ok {
			t.Fatalf("round %d: Sync returned before the request's event was observed", i)
		}
	}
	o.Stop()
	if !o.Ended() {
		t.Fatal("a stopped observation has not ended")
	}
}

// TestObservationEndsWithItsPage: closing the tab ends the observation.
func TestObservationEndsWithItsPage(t *testing.T) {
	ws := newWS(t)
	tab := openTab(t, ws, pageURL("obs"))
	ctx := ctxT(t, 30*time.Second)
	var o *Observation
	if err := tab.Do(ctx, func(ctx context.Context) error {
		var err error
		o, err = tab.Observe(func(string, json.RawMessage) {})
		return err
	}); err != nil {
		t.Fatal(err)
	}
	if _, err := ws.Close(ctx, tab.Handle()); err != nil {
		t.Fatal(err)
	}
	select {
	case <-o.Done():
	case <-ctx.Done():
		t.Fatal("the observation outlived its tab")
	}
}

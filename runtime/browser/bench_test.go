package browser

import (
	"context"
	"testing"
	"time"

	"github.com/go-rod/rod/lib/proto"
)

func BenchmarkNavigateToLoad(b *testing.B) {
	ws := newWS(b)
	tab := openTab(b, ws, pageURL("bench0"))
	urls := []string{pageURL("bench1"), pageURL("bench2")}
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		_, err := tab.Navigate(ctx, urls[i%2], NavigateOptions{})
		cancel()
		if err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkTabsList(b *testing.B) {
	ws := newWS(b)
	for _, n := range []string{"l1", "l2", "l3"} {
		openTab(b, ws, pageURL(n))
	}
	for b.Loop() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		list, err := ws.Tabs(ctx)
		cancel()
		if err != nil || len(list) != 3 {
			b.Fatal(list, err)
		}
	}
}

func BenchmarkNewTab(b *testing.B) {
	ws := newWS(b)
	for b.Loop() {
		ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
		res, err := ws.Open(ctx, pageURL("fresh"), OpenOptions{NewTab: true})
		if err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		_, _ = ws.Close(ctx, res.Tab.Handle())
		cancel()
		b.StartTimer()
	}
}

// BenchmarkNavigateRawBaseline is the browser's own floor on this machine right now:
// Page.navigate plus the load event through rod, with no executor bookkeeping.
func BenchmarkNavigateRawBaseline(b *testing.B) {
	ws := newWS(b)
	tab := openTab(b, ws, pageURL("raw0"))
	urls := []string{pageURL("raw1"), pageURL("raw2")}
	for i := 0; b.Loop(); i++ {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		p := tab.Page().Context(ctx)
		wait := p.WaitEvent(&proto.PageLoadEventFired{})
		if _, err := (proto.PageNavigate{URL: urls[i%2]}).Call(p); err != nil {
			b.Fatal(err)
		}
		wait()
		cancel()
	}
}

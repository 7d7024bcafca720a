package tools

import (
	"testing"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
)

// Each benchmark measures one whole call through the pipeline (decode,
// authorize, handler, envelope), after a warm-up call that pays the page's
// first layout and the isolated world's installation.

func benchCall(b *testing.B, page, tool, args string) {
	h := newHarness(b)
	srv := site(b, map[string]string{"/": page})
	h.open(srv.URL + "/")
	h.must(tool, args)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		r := testPipe.Call(b.Context(), h.session, tool, []byte(args), nil)
		if r.Envelope.Status != surface.StatusSucceeded {
			b.Fatalf("%s: %s", tool, r.JSON)
		}
	}
}

func BenchmarkInspectBigPage(b *testing.B) { benchCall(b, bigPage(), "browser_inspect", `{}`) }

func BenchmarkFindBigPage(b *testing.B) {
	benchCall(b, bigPage(), "browser_find", `{"text":"Button 1900"}`)
}

func BenchmarkReadArticle(b *testing.B) { benchCall(b, article(120), "browser_read", `{}`) }

func BenchmarkScreenshotViewport(b *testing.B) {
	benchCall(b, article(120), "browser_screenshot", `{}`)
}

package pagejs

import (
	"encoding/json"
	"testing"
)

func BenchmarkInspect80(b *testing.B) {
	_, w := openPage(b, bigPage())
	ctx := testCtx(b)
	if _, err := Inspect(ctx, w, InspectRequest{MaxItems: 80}); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		r, err := Inspect(ctx, w, InspectRequest{MaxItems: 80})
		if err != nil || len(r.Items) != 80 {
			b.Fatal(err, len(r.Items))
		}
	}
}

func BenchmarkInspect80FirstAfterLoad(b *testing.B) {
	url := siteA.add(bigPage())
	p, w := openURL(b, url)
	ctx := testCtx(b)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		navigate(b, p, url)
		b.StartTimer()
		r, err := Inspect(ctx, w, InspectRequest{MaxItems: 80})
		if err != nil || len(r.Items) != 80 {
			b.Fatal(err, len(r.Items))
		}
	}
}

func BenchmarkFind(b *testing.B) {
	_, w := openPage(b, bigPage())
	ctx := testCtx(b)
	if _, err := Inspect(ctx, w, InspectRequest{MaxItems: 1}); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		r, err := Find(ctx, w, FindRequest{Text: "Button 1900", Max: 20})
		if err != nil || len(r.Matches) == 0 {
			b.Fatal(err)
		}
	}
}

func BenchmarkReadArticle(b *testing.B) {
	_, w := openPage(b, textPage())
	ctx := testCtx(b)
	if _, err := Read(ctx, w, ReadRequest{MaxChars: 50000}); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		r, err := Read(ctx, w, ReadRequest{MaxChars: 50000})
		if err != nil || r.ModeUsed != ReadArticle {
			b.Fatal(err, r.ModeUsed)
		}
	}
}

func BenchmarkLocate(b *testing.B) {
	_, w := openPage(b, bigPage())
	ctx := testCtx(b)
	f, err := Find(ctx, w, FindRequest{Text: "Button 5", Max: 1})
	if err != nil || len(f.Matches) == 0 {
		b.Fatal(err)
	}
	id := f.Matches[0].ID
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := Locate(ctx, w, id); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkRoundTrip is the floor under every call: one
// Runtime.callFunctionOn into the isolated world, measured under the same
// machine load as the benchmarks above.
func BenchmarkRoundTrip(b *testing.B) {
	_, w := openPage(b, page(`<p>x</p>`))
	ctx := testCtx(b)
	if _, err := w.call(ctx, `function(){return 1}`); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := w.call(ctx, `function(){return 1}`); err != nil {
			b.Fatal(err)
		}
	}
}

// benchPageSide times one API method inside the page (performance.now
// around the call, no protocol or JSON transfer) and reports the mean and
// the minimum as custom metrics; ns/op still includes the round trip.
func benchPageSide(b *testing.B, html, method, arg string) {
	_, w := openPage(b, html)
	ctx := testCtx(b)
	fn := `function(){ const t0 = performance.now(); const r = JSON.parse(this.` + method + `(` + arg + `)); if (r.err) throw new Error(r.err.detail); return performance.now() - t0; }`
	if _, err := w.call(ctx, fn); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	var sum, min float64
	for i := 0; i < b.N; i++ {
		raw, err := w.call(ctx, fn)
		if err != nil {
			b.Fatal(err)
		}
		var ms float64
		if err := json.Unmarshal(raw, &ms); err != nil {
			b.Fatal(err)
		}
		sum += ms
		if i == 0 || ms < min {
			min = ms
		}
	}
	b.ReportMetric(sum/float64(b.N), "page-ms/op")
	b.ReportMetric(min, "page-min-ms")
}

func BenchmarkPageSideInspect80(b *testing.B) {
	benchPageSide(b, bigPage(), "inspect", `{maxItems: 80, nameMax: 80, scope: 'controls'}`)
}

func BenchmarkPageSideFind(b *testing.B) {
	benchPageSide(b, bigPage(), "find", `{text: 'Button 1900', max: 20, nameMax: 80, scope: 'any'}`)
}

func BenchmarkPageSideReadArticle(b *testing.B) {
	benchPageSide(b, textPage(), "read", `{mode: 'article', maxChars: 50000}`)
}

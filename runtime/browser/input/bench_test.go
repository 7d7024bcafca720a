package input

import (
	"testing"
	"time"
)

// BenchmarkClick clicks a static button end to end: the point lookup (a getBoundingClientRect eval
// standing in for pagejs) plus mouseMoved, mousePressed and mouseReleased.
func BenchmarkClick(b *testing.B) {
	p := newPage(b, doc(`<button id=b style="width:120px;height:40px" onclick="window.n=(window.n||0)+1">B</button>`))
	ctx := tctx(b, time.Hour)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := Click(ctx, p, center(b, p, "#b"), "primary", 1); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	if n := evalNum(b, p, "window.n"); int(n) != b.N {
		b.Fatalf("%v clicks landed, want %d", n, b.N)
	}
}

// BenchmarkClickDispatch is the dispatch alone, with the point already known.
func BenchmarkClickDispatch(b *testing.B) {
	p := newPage(b, doc(`<button id=b style="width:120px;height:40px">B</button>`))
	ctx := tctx(b, time.Hour)
	pt := center(b, p, "#b")
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := Click(ctx, p, pt, "primary", 1); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkTypeText20 types 20 characters with real key events.
func BenchmarkTypeText20(b *testing.B) {
	p := newPage(b, doc(`<input id=i><script>i.focus()</script>`))
	ctx := tctx(b, time.Hour)
	const text = "Hello, World! 123abc" // 20 characters, some shifted
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if typed, _, err := TypeText(ctx, p, text); err != nil || typed != len(text) {
			b.Fatal(typed, err)
		}
	}
	b.StopTimer()
	if n := evalNum(b, p, "i.value.length"); int(n) != b.N*len(text) {
		b.Fatalf("%v characters landed, want %d", n, b.N*len(text))
	}
}

// BenchmarkDialogAccept accepts an open alert: Page.handleJavaScriptDialog through DialogWatch.Handle
// until the page's script resumes (observed by the next evaluation returning).
func BenchmarkDialogAccept(b *testing.B) {
	p := newPage(b, doc(`<script>window.done = 0;</script>`))
	w, err := WatchDialogs(tctx(b, 5*time.Second), p)
	if err != nil {
		b.Fatal(err)
	}
	defer w.Close()
	ctx := tctx(b, time.Hour)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		_, opened := w.Next()
		evalInto(b, p, "setTimeout(() => { alert('x'); done++; }, 0)", nil)
		<-opened
		b.StartTimer()
		if _, err := w.Handle(ctx, true, nil); err != nil {
			b.Fatal(err)
		}
		if n := evalNum(b, p, "done"); int(n) != i+1 {
			b.Fatalf("script resumed %v times, want %d", n, i+1)
		}
	}
}

// BenchmarkExecute runs a small script returning an object (evaluate plus serialization).
func BenchmarkExecute(b *testing.B) {
	p := newPage(b, doc(`<p>x</p>`))
	ctx := tctx(b, time.Hour)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := Execute(ctx, p, "({title: document.title, n: 1})", time.Second, 8000); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkRoundTrip is the baseline: one Runtime.evaluate("1") round trip on the same page setup,
// to read the other figures against the machine's current load.
func BenchmarkRoundTrip(b *testing.B) {
	p := newPage(b, doc(`<p>x</p>`))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		evalInto(b, p, "1", nil)
	}
}

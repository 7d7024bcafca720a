package pipeline

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
	"github.com/ghostlight-dev/ghostlight/runtime/governance"
)

// pageText is n bytes of varied prose, like a read result.
func pageText(seed, n int) string {
	words := strings.Fields("account holder invoice the of and quarterly ledger balance transfer ocelot marmalade " +
		"tessellate nightjar vault combination passport expires customer record internal only contact us")
	var b strings.Builder
	for i := 0; b.Len() < n; i++ {
		b.WriteString(words[(i*7+seed*13+i*i)%len(words)])
		fmt.Fprintf(&b, " %d ", (i*seed)%997)
	}
	return b.String()
}

// benchInvocation is a session whose store holds ten 20 KB page reads from
// one site, as the figures in docs/performance.md assume.
func benchInvocation(b *testing.B) *Invocation {
	p := New(Options{Authority: func() *governance.Authority { return governance.AllOpen("auto") }})
	inv := &Invocation{Session: "bench", Authority: governance.AllOpen("auto"), p: p}
	st := p.originsOf("bench")
	for i := 0; i < 10; i++ {
		st.Record("http://127.0.0.1", time.Now(), pageText(i, 20000))
	}
	return inv
}

// BenchmarkFlowCheckWrite is the per-write overhead: a 200-character value
// (half of it carried from the store's site) checked against a session
// holding 200 KB of another site's text, decided, and its own words noted.
func BenchmarkFlowCheckWrite(b *testing.B) {
	inv := benchInvocation(b)
	value := "Dear team, " + pageText(3, 20000)[5000:5100] + " please confirm by Friday, thanks a lot for the help here."
	args := &surface.BrowserTypeTextArgs{Text: value}
	b.ReportAllocs()
	for b.Loop() {
		inv.flowDone = nil
		if r := inv.p.checkFlow(inv, "http://127.0.0.2", inv.p.writeValues(inv, args), true); r != nil {
			b.Fatal(r)
		}
	}
	if inv.flow == nil {
		b.Fatal("the carried half was not found")
	}
}

// BenchmarkFlowRecordRead is what fingerprinting costs a 20 KB read result.
func BenchmarkFlowRecordRead(b *testing.B) {
	inv := benchInvocation(b)
	inv.page = "http://127.0.0.1"
	facts := []byte(fmt.Sprintf(`{"url":"http://127.0.0.1/x","text":%q}`, pageText(42, 20000)))
	b.ReportAllocs()
	for b.Loop() {
		inv.p.remember(inv, facts, "")
	}
}

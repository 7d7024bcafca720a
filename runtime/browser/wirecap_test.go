package browser

import (
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/go-rod/rod/lib/proto"
)

// A message past devtools_message_bytes is never held: an event carrying a huge
// console string is skipped as it arrives, a reply carrying a huge value fails its
// call at once, and the connection goes on serving.
func TestWireCapDropsOversizedMessages(t *testing.T) {
	ws := newWS(t)
	tab := openTab(t, ws, pageURL("wire"))
	c := liveConn(t, shared)
	p := tab.Page().Context(ctxT(t, 30*time.Second))
	if err := (proto.RuntimeEnable{}).Call(p); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = proto.RuntimeDisable{}.Call(p) }()
	huge := wireMessageMax + 1<<20
	dropped := c.wire.dropped.Load()
	runtime.GC()
	var m0, m1 runtime.MemStats
	runtime.ReadMemStats(&m0)
	// An event: the console message is skipped unread.
	// Building and serializing 17 MB takes the renderer seconds on a loaded
	// machine: this call has the test's 30 s, not eval's 5 s.
	if _, err := (proto.RuntimeEvaluate{Expression: "console.log('x'.repeat(" + itoa(huge) + ")); 1", ReturnByValue: true}).Call(p); err != nil {
		t.Fatal(err)
	}
	eventually(t, "oversized event dropped", func() bool { return c.wire.dropped.Load() > dropped })
	// A reply: the call fails with the bound named, at once.
	_, err := proto.RuntimeEvaluate{Expression: "'y'.repeat(" + itoa(huge) + ")", ReturnByValue: true}.Call(p)
	if err == nil || !strings.Contains(err.Error(), "DevTools message bound") {
		t.Fatalf("oversized reply: %v", err)
	}
	runtime.ReadMemStats(&m1)
	alloc := m1.TotalAlloc - m0.TotalAlloc
	t.Logf("two messages of %d MB each: Go allocated %d KB", huge>>20, alloc>>10)
	if alloc > uint64(huge)/4 {
		t.Fatalf("allocated %d bytes reading oversized messages", alloc)
	}
	if got := eval(t, tab, "'still ' + 'here'"); got != "still here" {
		t.Fatalf("connection after oversized messages: %q", got)
	}
}

func itoa(n int) string { return strconv.Itoa(n) }

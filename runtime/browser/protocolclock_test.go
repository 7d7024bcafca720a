package browser

import (
	"testing"
	"time"
)

// Overlapping calls are counted once; a gap between calls is not counted.
func TestProtocolClockCountsOverlapOnce(t *testing.T) {
	at := time.Unix(0, 0)
	c := &protocolClock{now: func() time.Time { return at }}
	step := func(ms int) { at = at.Add(time.Duration(ms) * time.Millisecond) }
	c.enter() // 0: A starts
	step(2)
	c.enter() // 2: B starts while A is out
	step(3)
	c.leave() // 5: A ends
	step(1)
	if got := c.read(); got != 6*time.Millisecond {
		t.Fatalf("open interval: %v, want 6ms", got)
	}
	c.leave() // 6: B ends
	step(10)  // 16: nothing outstanding
	c.enter()
	step(4)
	c.leave() // 20
	if got := c.read(); got != 10*time.Millisecond {
		t.Fatalf("total %v, want 10ms (6 + 4, the 10 ms gap left out)", got)
	}
}

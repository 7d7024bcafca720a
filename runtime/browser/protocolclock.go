package browser

import (
	"sync"
	"time"
)

// protocolClock measures how long at least one DevTools call was
// outstanding: the time a step spent waiting on the browser, overlapping
// calls counted once. The benchmark sets it beside a step's whole time to
// say how much of that time was the browser's (docs/performance.md).
type protocolClock struct {
	now func() time.Time

	mu       sync.Mutex
	inflight int
	since    time.Time // when inflight last rose from zero
	total    time.Duration
}

func (c *protocolClock) enter() {
	c.mu.Lock()
	if c.inflight == 0 {
		c.since = c.now()
	}
	c.inflight++
	c.mu.Unlock()
}

func (c *protocolClock) leave() {
	c.mu.Lock()
	c.inflight--
	if c.inflight == 0 {
		c.total += c.now().Sub(c.since)
	}
	c.mu.Unlock()
}

// read is the total so far, an interval still open included.
func (c *protocolClock) read() time.Duration {
	c.mu.Lock()
	defer c.mu.Unlock()
	t := c.total
	if c.inflight > 0 {
		t += c.now().Sub(c.since)
	}
	return t
}

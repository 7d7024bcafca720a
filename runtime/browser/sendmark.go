package browser

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"sync"
	"sync/atomic"
)

// A send mark lets a caller start a protocol call without waiting for its reply, yet know
// when its message is on the browser's socket: a message written before another on the
// same page session is handled before it in the renderer (both are Runtime commands of
// one session, run in order on the page's main thread). That orders a DOM probe ahead of
// the action it is the baseline of at the cost of no round trip (settle.StartAhead).
//
// The caller puts the mark in the message (an argument the page code ignores); the socket
// tap closes the mark's channel once a message holding it was written.

// NewSendMark returns a fresh mark, a channel closed once a message holding it was
// written to any browser's socket, and forget, which drops the mark (call it when done).
func NewSendMark() (mark string, sent <-chan struct{}, forget func()) {
	var b [9]byte
	_, _ = rand.Read(b[:])
	mark = "glmark-" + hex.EncodeToString(b[:])
	ch := make(chan struct{})
	sendMarks.mu.Lock()
	if sendMarks.byMark == nil {
		sendMarks.byMark = map[string]chan struct{}{}
	}
	sendMarks.byMark[mark] = ch
	sendMarks.n.Add(1)
	sendMarks.mu.Unlock()
	return mark, ch, func() { sendMarks.drop(mark) }
}

var sendMarks marks

type marks struct {
	n      atomic.Int32 // marks waiting: the tap looks only while any is
	mu     sync.Mutex
	byMark map[string]chan struct{}
}

// in returns the waiting marks data holds (nil, at the cost of a load, when none waits).
func (m *marks) in(data []byte) []string {
	if m.n.Load() == 0 || !bytes.Contains(data, markPrefix) {
		return nil
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	var out []string
	for mark := range m.byMark {
		if bytes.Contains(data, []byte(mark)) {
			out = append(out, mark)
		}
	}
	return out
}

// written closes the channels of marks whose message was written.
func (m *marks) written(marked []string) {
	if len(marked) == 0 {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, mark := range marked {
		if ch, ok := m.byMark[mark]; ok {
			close(ch)
			delete(m.byMark, mark)
			m.n.Add(-1)
		}
	}
}

func (m *marks) drop(mark string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if _, ok := m.byMark[mark]; ok {
		delete(m.byMark, mark)
		m.n.Add(-1)
	}
}

var markPrefix = []byte("glmark-")

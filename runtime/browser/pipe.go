package browser

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"strconv"
	"sync"
	"sync/atomic"

	"github.com/go-rod/rod/lib/cdp"

	"github.com/ghostlight-dev/ghostlight/generated/limits"
)

// A browser Ghostlight launches is driven over --remote-debugging-pipe: the
// browser reads commands on its fd 3 and writes replies and events on its fd
// 4, each message JSON followed by a NUL byte. There is no DevTools HTTP
// endpoint and no listening socket, so no page, no model and no other local
// process can reach the browser's own protocol (launch_pipe.go starts it).

// transport is what a connection reads and writes DevTools messages over: a
// websocket (a browser reached at an endpoint) or the pipe.
type transport interface {
	cdp.WebSocketable
	Close() error
}

// pipeConn is Ghostlight's end of a launched browser's DevTools pipe. Reads are
// capped like the websocket's (wirecap.go): no message larger than max is held
// whole; an oversized event is skipped, an oversized reply becomes an error
// reply with the same id.
type pipeConn struct {
	w   *os.File // the browser's fd 3, our write end
	rf  *os.File // the browser's fd 4, our read end
	r   *bufio.Reader
	max int
	buf []byte // the message being read (next); only the reader touches it

	dropped atomic.Pointer[atomic.Int64] // where oversized messages are counted (the conn's capDialer)
	own     atomic.Int64                 // the count before a conn adopts the pipe

	wmu       sync.Mutex
	closeOnce sync.Once
}

func newPipeConn(w, r *os.File, max int) *pipeConn {
	p := &pipeConn{w: w, rf: r, r: bufio.NewReaderSize(r, limits.DevtoolsBufferBytesMax), max: max, buf: make([]byte, 0, max)}
	p.dropped.Store(&p.own)
	return p
}

// Send writes one message and its terminating NUL.
func (p *pipeConn) Send(data []byte) error {
	if bytes.IndexByte(data, 0) >= 0 {
		return errors.New("devtools message holds a NUL byte")
	}
	p.wmu.Lock()
	defer p.wmu.Unlock()
	if _, err := p.w.Write(data); err != nil {
		return err
	}
	_, err := p.w.Write([]byte{0})
	return err
}

// Read returns the next message within the cap.
func (p *pipeConn) Read() ([]byte, error) {
	for {
		msg, err := p.next()
		if err != nil || msg != nil {
			return msg, err
		}
		// An oversized event was skipped: read on.
	}
}

// next reads one message; nil without an error when an oversized event was skipped.
// A message is gathered in buf, made once with room for max bytes (memory is
// only touched as far as messages reach), so a message past the cap costs no
// allocation: the pipe, unlike a websocket frame, does not declare its length
// ahead. A message within the cap is returned as a copy of its own size.
func (p *pipeConn) next() ([]byte, error) {
	p.buf = p.buf[:0]
	for {
		chunk, err := p.r.ReadSlice(0)
		switch {
		case err == nil:
			chunk = chunk[:len(chunk)-1]
			if len(p.buf)+len(chunk) > p.max {
				return p.oversized(p.buf, chunk, true)
			}
			p.buf = append(p.buf, chunk...)
			return bytes.Clone(p.buf), nil
		case errors.Is(err, bufio.ErrBufferFull):
			if len(p.buf)+len(chunk) > p.max {
				return p.oversized(p.buf, chunk, false)
			}
			p.buf = append(p.buf, chunk...)
		case errors.Is(err, io.EOF) && len(p.buf)+len(chunk) > 0:
			return nil, io.ErrUnexpectedEOF
		default:
			return nil, err
		}
	}
}

// oversized skips the rest of a message past the cap (ended tells whether
// its NUL was already read) and returns the error reply that stands for it,
// or nil for an event.
func (p *pipeConn) oversized(held, chunk []byte, ended bool) ([]byte, error) {
	var prefix []byte // enough of the start to read a reply's id
	prefix = append(prefix, held[:min(len(held), 96)]...)
	prefix = append(prefix, chunk[:min(len(chunk), 96-len(prefix))]...)
	size := int64(len(held) + len(chunk))
	for !ended {
		c, err := p.r.ReadSlice(0)
		switch {
		case err == nil:
			size += int64(len(c) - 1)
			ended = true
		case errors.Is(err, bufio.ErrBufferFull):
			size += int64(len(c))
		default:
			return nil, err
		}
	}
	p.dropped.Load().Add(1)
	if m := replyID.FindSubmatch(prefix); m != nil {
		return []byte(`{"id":` + string(m[1]) + `,"error":{"code":-32000,"message":"reply of ` + strconv.FormatInt(size, 10) +
			` bytes passes the ` + strconv.Itoa(p.max) + ` byte DevTools message bound"}}`), nil
	}
	return nil, nil
}

// Close closes both ends; a blocked Read returns at once. Chromium exits when
// its end of the pipe closes.
func (p *pipeConn) Close() error {
	var err error
	p.closeOnce.Do(func() {
		err = errors.Join(p.w.Close(), p.rf.Close())
	})
	return err
}

// dialPipe starts rod on a launched browser's pipe; oversized messages are
// counted where the websocket path counts them (c.wire).
func (b *Browser) dialPipe(ctx context.Context, p *pipeConn, portURL string) (*conn, error) {
	c := b.newConn(portURL)
	p.dropped.Store(&c.wire.dropped)
	return b.run(ctx, c, p)
}

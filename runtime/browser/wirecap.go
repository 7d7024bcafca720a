package browser

import (
	"bufio"
	"bytes"
	"context"
	"crypto/tls"
	"encoding/binary"
	"errors"
	"io"
	"net"
	"regexp"
	"strconv"
	"sync/atomic"

	"github.com/ghostlight-dev/ghostlight/generated/limits"
)

// The DevTools socket is read through wireCap, so that no single message larger than
// limits.DevtoolsMessageBytesMax is ever held by the server, whatever a page makes
// the browser send (a console.log of a 100 M-character string, an attribute read of a
// huge value): rod's reader allocates a message's whole declared length up front.
// An oversized event is skipped unread; an oversized reply becomes an error reply
// with the same id, so its caller fails at once instead of waiting.

// wireMessageMax is the largest message read whole.
const wireMessageMax = limits.DevtoolsMessageBytesMax

// capDialer dials the DevTools endpoint and caps what is read from it.
type capDialer struct {
	tls     bool
	max     int
	dropped atomic.Int64 // oversized messages dropped, for tests
}

func (d *capDialer) DialContext(ctx context.Context, network, address string) (net.Conn, error) {
	var c net.Conn
	var err error
	if d.tls {
		if _, _, perr := net.SplitHostPort(address); perr != nil {
			address += ":443"
		}
		c, err = (&tls.Dialer{}).DialContext(ctx, network, address)
	} else {
		c, err = (&net.Dialer{}).DialContext(ctx, network, address)
	}
	if err != nil {
		return nil, err
	}
	return &capConn{Conn: c, r: bufio.NewReaderSize(c, limits.DevtoolsBufferBytesMax), max: d.max, dropped: &d.dropped}, nil
}

// capConn passes the HTTP upgrade through, then re-frames the server's websocket
// stream: frames within max stream through unchanged; a larger one is discarded
// as it arrives and replaced by a small frame (or nothing).
type capConn struct {
	net.Conn
	r   *bufio.Reader
	max int

	upgraded bool
	pending  []byte // bytes to return before reading on
	passLeft int64  // payload bytes of the current frame still to pass through
	dropped  *atomic.Int64
}

func (c *capConn) Read(p []byte) (int, error) {
	for {
		if len(c.pending) > 0 {
			n := copy(p, c.pending)
			c.pending = c.pending[n:]
			return n, nil
		}
		if c.passLeft > 0 {
			if int64(len(p)) > c.passLeft {
				p = p[:c.passLeft]
			}
			n, err := c.r.Read(p)
			c.passLeft -= int64(n)
			return n, err
		}
		if !c.upgraded {
			// The upgrade response: up to and including its blank line.
			hdr, err := readHeader(c.r)
			if err != nil {
				return 0, err
			}
			c.upgraded, c.pending = true, hdr
			continue
		}
		if err := c.nextFrame(); err != nil {
			return 0, err
		}
	}
}

func readHeader(r *bufio.Reader) ([]byte, error) {
	var out []byte
	for {
		line, err := r.ReadSlice('\n')
		out = append(out, line...)
		if err != nil {
			return nil, err
		}
		if len(out) > limits.DevtoolsUpgradeBytesMax {
			return nil, errors.New("devtools upgrade response too long")
		}
		if len(bytes.TrimRight(line, "\r\n")) == 0 {
			return out, nil
		}
	}
}

// nextFrame reads one frame header and arranges for its bytes to be returned.
func (c *capConn) nextFrame() error {
	var h [2]byte
	if _, err := io.ReadFull(c.r, h[:]); err != nil {
		return err
	}
	head := append([]byte(nil), h[:]...)
	size := int64(h[1] & 0x7f)
	switch size {
	case 126:
		var ext [2]byte
		if _, err := io.ReadFull(c.r, ext[:]); err != nil {
			return err
		}
		head = append(head, ext[:]...)
		size = int64(binary.BigEndian.Uint16(ext[:]))
	case 127:
		var ext [8]byte
		if _, err := io.ReadFull(c.r, ext[:]); err != nil {
			return err
		}
		head = append(head, ext[:]...)
		size = int64(binary.BigEndian.Uint64(ext[:]) & (1<<63 - 1))
	}
	masked := h[1]&0x80 != 0
	if masked { // servers never mask; pass the key through untouched
		var key [4]byte
		if _, err := io.ReadFull(c.r, key[:]); err != nil {
			return err
		}
		head = append(head, key[:]...)
	}
	opcode := h[0] & 0x0f
	if size <= int64(c.max) || opcode >= 0x8 || h[0]&0x80 == 0 || masked {
		// Within the cap, a control frame, or a fragment (Chromium sends neither
		// fragments nor masks): stream it through.
		c.pending, c.passLeft = head, size
		return nil
	}
	// Too large: read the start to learn whether it is a reply, skip the rest.
	prefix := make([]byte, min(size, 96))
	if _, err := io.ReadFull(c.r, prefix); err != nil {
		return err
	}
	if _, err := io.CopyN(io.Discard, c.r, size-int64(len(prefix))); err != nil {
		return err
	}
	c.dropped.Add(1)
	if m := replyID.FindSubmatch(prefix); m != nil {
		msg := `{"id":` + string(m[1]) + `,"error":{"code":-32000,"message":"reply of ` + strconv.FormatInt(size, 10) +
			` bytes passes the ` + strconv.Itoa(c.max) + ` byte DevTools message bound"}}`
		c.pending = textFrame([]byte(msg))
	}
	return nil
}

// replyID reads the id of a reply: Chromium writes "id" first in replies and
// "method" first in events.
var replyID = regexp.MustCompile(`^\{"id":([0-9]{1,19})[,}]`)

// textFrame is an unmasked, final text frame carrying msg.
func textFrame(msg []byte) []byte {
	var out []byte
	switch n := len(msg); {
	case n <= 125:
		out = []byte{0x81, byte(n)}
	case n < 1<<16:
		out = []byte{0x81, 126, byte(n >> 8), byte(n)}
	default:
		out = make([]byte, 10)
		out[0], out[1] = 0x81, 127
		binary.BigEndian.PutUint64(out[2:], uint64(n))
	}
	return append(out, msg...)
}

// Package handle mints compact opaque handles: a fixed-width base62 body
// that is a keyed permutation of a per-table sequence number. The key is
// random per table (a session's targets, views, recordings; a process's
// invocations), so a body reveals nothing, the next one cannot be guessed,
// and a body another table minted decodes to an arbitrary number that this
// table almost surely never issued. Decoding gives the sequence number back,
// so a table can tell a handle it issued and has since dropped (stale) from
// one it never issued (unknown) without remembering every handle.
package handle

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"encoding/binary"
	"strings"
)

const alphabet = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"

// Codec is one table's permutation of [0, 62^width), written as width
// base62 characters.
type Codec struct {
	tag   string // the replica's name, written before every body (replica.go)
	width int
	n     uint64 // 62^width: the domain
	half  uint   // bits of a Feistel half: 2*half bits cover n
	block cipher.Block
}

// rounds of the Feistel network; with AES as its round function four are a
// pseudorandom permutation, eight leave a margin.
const rounds = 8

// New returns a codec of width characters (1 to 10) under a fresh random key.
func New(width int) *Codec { return NewTagged(width, "") }

// NewTagged is New whose bodies start with tag (a replica's name): Encode
// writes tag and width characters, Decode takes only bodies that start with
// it.
func NewTagged(width int, tag string) *Codec {
	if width < 1 || width > 10 {
		panic("handle: width out of range")
	}
	var key [16]byte
	_, _ = rand.Read(key[:])
	b, err := aes.NewCipher(key[:])
	if err != nil {
		panic(err) // a 16-byte key is always valid
	}
	n := uint64(1)
	for range width {
		n *= 62
	}
	bits := uint(0)
	for uint64(1)<<bits < n {
		bits++
	}
	return &Codec{tag: tag, width: width, n: n, half: (bits + 1) / 2, block: b}
}

// Capacity is how many distinct bodies the codec writes (62^width).
func (c *Codec) Capacity() uint64 { return c.n }

// Encode writes seq (taken modulo Capacity) as a width-character body.
func (c *Codec) Encode(seq uint64) string {
	v := seq % c.n
	for { // cycle-walk: the Feistel domain is a little larger than n
		v = c.feistel(v, false)
		if v < c.n {
			break
		}
	}
	out := make([]byte, c.width)
	for i := c.width - 1; i >= 0; i-- {
		out[i] = alphabet[v%62]
		v /= 62
	}
	return c.tag + string(out)
}

// Tag is the replica name the codec writes before its bodies.
func (c *Codec) Tag() string { return c.tag }

// Decode returns the sequence number a body encodes, or false when s is not
// a body of this width.
func (c *Codec) Decode(s string) (uint64, bool) {
	s, ok := strings.CutPrefix(s, c.tag)
	if !ok || len(s) != c.width {
		return 0, false
	}
	var v uint64
	for i := 0; i < len(s); i++ {
		d := digit(s[i])
		if d < 0 {
			return 0, false
		}
		v = v*62 + uint64(d)
	}
	for {
		v = c.feistel(v, true)
		if v < c.n {
			return v, true
		}
	}
}

func digit(ch byte) int {
	switch {
	case ch >= '0' && ch <= '9':
		return int(ch - '0')
	case ch >= 'A' && ch <= 'Z':
		return int(ch-'A') + 10
	case ch >= 'a' && ch <= 'z':
		return int(ch-'a') + 36
	}
	return -1
}

// feistel applies the balanced Feistel network over 2*half bits (or its
// inverse).
func (c *Codec) feistel(v uint64, inverse bool) uint64 {
	mask := uint64(1)<<c.half - 1
	l, r := v>>c.half&mask, v&mask
	for i := range rounds {
		round := i
		if inverse {
			round = rounds - 1 - i
			l, r = r^c.f(round, l)&mask, l
		} else {
			l, r = r, l^c.f(round, r)&mask
		}
	}
	return l<<c.half | r
}

// f is the round function: AES of (round, x), its first 8 bytes.
func (c *Codec) f(round int, x uint64) uint64 {
	var in, out [16]byte
	in[0] = byte(round)
	binary.BigEndian.PutUint64(in[8:], x)
	c.block.Encrypt(out[:], in[:])
	return binary.BigEndian.Uint64(out[:8])
}

package handle

import "testing"

// TestRoundTrip: every body has the codec's width, decodes to its sequence
// number, and no two numbers share a body.
func TestRoundTrip(t *testing.T) {
	for _, w := range []int{5, 7, 8} {
		c := New(w)
		seen := map[string]bool{}
		for seq := uint64(0); seq < 20000; seq++ {
			s := c.Encode(seq)
			if len(s) != w {
				t.Fatalf("width %d: %q", w, s)
			}
			if seen[s] {
				t.Fatalf("width %d: %q minted twice", w, s)
			}
			seen[s] = true
			if got, ok := c.Decode(s); !ok || got != seq {
				t.Fatalf("width %d: %q decodes to %d, %v; want %d", w, s, got, ok, seq)
			}
		}
	}
}

// TestOtherKeyIsUnknown: bodies another codec minted decode, under this one,
// to numbers spread over the whole domain, so a table that issued few
// numbers almost never takes them for its own.
func TestOtherKeyIsUnknown(t *testing.T) {
	a, b := New(5), New(5)
	const issued = 1000
	hits := 0
	for seq := uint64(0); seq < 100000; seq++ {
		if n, ok := b.Decode(a.Encode(seq)); ok && n < issued {
			hits++
		}
	}
	// expected 100000*1000/62^5, about 0.1
	if hits > 3 {
		t.Fatalf("%d of 100000 foreign bodies fell among the first %d numbers", hits, issued)
	}
}

func TestDecodeRefusesMalformed(t *testing.T) {
	c := New(5)
	for _, s := range []string{"", "abcd", "abcdef", "ab_cd", "ab cd", "abcdé"} {
		if _, ok := c.Decode(s); ok {
			t.Errorf("%q decoded", s)
		}
	}
}

func BenchmarkEncode(b *testing.B) {
	c := New(5)
	for i := 0; i < b.N; i++ {
		_ = c.Encode(uint64(i))
	}
}

package origin

import "unicode"

// normalize lowers letters and digits and turns every other run of
// characters into one space, so "Order #A-1234" and "order a 1234" are
// the same text: a model that re-spaces, re-cases or re-punctuates what it
// carries still carries it.
func normalize(s string, into []rune) []rune {
	out := into[:0]
	space := true // no leading space
	for _, r := range s {
		switch {
		case r < 0x80 && (r >= 'a' && r <= 'z' || r >= '0' && r <= '9'):
			out = append(out, r)
			space = false
		case r < 0x80 && r >= 'A' && r <= 'Z':
			out = append(out, r+('a'-'A'))
			space = false
		case r >= 0x80 && (unicode.IsLetter(r) || unicode.IsDigit(r)):
			out = append(out, unicode.ToLower(r))
			space = false
		default:
			if !space {
				out = append(out, ' ')
				space = true
			}
		}
	}
	if n := len(out); n > 0 && out[n-1] == ' ' {
		out = out[:n-1]
	}
	return out
}

// Rolling polynomial hash over runes, mixed so nearby windows spread.
const base = 0x100000001b3

// windows calls fn with the hash of every window of k runes of t, in order.
func windows(t []rune, k int, pow uint64, fn func(i int, h uint64)) {
	if len(t) < k {
		return
	}
	var h uint64
	for i := 0; i < k; i++ {
		h = h*base + uint64(t[i])
	}
	fn(0, mix(h))
	for i := k; i < len(t); i++ {
		h = (h-uint64(t[i-k])*pow)*base + uint64(t[i])
		fn(i-k+1, mix(h))
	}
}

// power is base^(k-1), the weight of a window's first rune.
func power(k int) uint64 {
	p := uint64(1)
	for i := 1; i < k; i++ {
		p *= base
	}
	return p
}

// mix is splitmix64's finalizer.
func mix(x uint64) uint64 {
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	x ^= x >> 31
	return x
}

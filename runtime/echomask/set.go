package echomask

import (
	"hash/maphash"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Limits bound a Set (spec/bounds_secrets.cue).
type Limits struct {
	Kept     int // secrets kept; past it the oldest goes
	MinChars int // shortest secret masked, separators not counted
	Chars    int // characters of a secret remembered
}

// Set is one session's typed secrets. It is not safe for concurrent use:
// its owner (runtime/handoff.Store) holds its lock around every call.
type Set struct {
	l       Limits
	seed    maphash.Seed
	entries []entry // oldest first
}

type entry struct {
	run uint64 // the typing run that made it: a later key replaces it
	n   int    // length in characters, separators not counted
	h   uint64
}

// New returns an empty set with its own seed.
func New(l Limits) *Set { return &Set{l: l, seed: maphash.MakeSeed()} }

// Empty reports whether nothing is kept.
func (s *Set) Empty() bool { return len(s.entries) == 0 }

// Put remembers what the person has typed so far in one run (one field,
// from its first key to focus leaving it), replacing the run's earlier
// state. A run shorter than MinChars is forgotten.
func (s *Set) Put(run uint64, typed string) { s.PutRunes(run, []rune(typed)) }

// PutRunes is Put of typed as characters, which stay the caller's: the
// normalized copy hashed here is cleared before PutRunes returns.
func (s *Set) PutRunes(run uint64, typed []rune) {
	for i, e := range s.entries {
		if e.run == run {
			s.entries = append(s.entries[:i], s.entries[i+1:]...)
			break
		}
	}
	norm, n := normalize(typed, s.l.Chars)
	defer clear(norm)
	if n < s.l.MinChars {
		return
	}
	if len(s.entries) >= s.l.Kept {
		s.entries = s.entries[1:]
	}
	s.entries = append(s.entries, entry{run: run, n: n, h: maphash.Bytes(s.seed, norm)})
}

// Mask returns text with every echo of a kept secret masked, and whether
// anything was.
func (s *Set) Mask(text string) (string, bool) {
	if len(s.entries) == 0 || len(text) < s.l.MinChars {
		return text, false
	}
	// The text without separators, and where each of its characters was.
	var kept strings.Builder
	var off []int    // byte offset in kept of each character, and the end
	var spans []span // byte span in text of each character of kept
	for i, r := range text {
		if separator(r) {
			continue
		}
		off = append(off, kept.Len())
		kept.WriteRune(r)
		spans = append(spans, span{i, i + utf8.RuneLen(r)})
	}
	off = append(off, kept.Len())
	k := kept.String()
	byLen := map[int][]uint64{} // at most Kept hashes in all: a scan beats a map
	for _, e := range s.entries {
		byLen[e.n] = append(byLen[e.n], e.h)
	}
	var hits []span
	for n, hs := range byLen {
		for i := 0; i+n <= len(spans); i++ {
			h := maphash.String(s.seed, k[off[i]:off[i+n]])
			for _, w := range hs {
				if h == w {
					hits = append(hits, span{spans[i].start, spans[i+n-1].end})
					break
				}
			}
		}
	}
	if len(hits) == 0 {
		return text, false
	}
	var b strings.Builder
	b.Grow(len(text))
	for i, r := range text {
		if covered(hits, i) {
			b.WriteByte('*')
		} else {
			b.WriteRune(r)
		}
	}
	return b.String(), true
}

type span struct{ start, end int }

func covered(hits []span, i int) bool {
	for _, h := range hits {
		if i >= h.start && i < h.end {
			return true
		}
	}
	return false
}

// separator: what a page puts between a secret's characters to show it.
func separator(r rune) bool {
	return unicode.IsSpace(r) || strings.ContainsRune("-./()", r)
}

// normalize is typed without separators, cut to chars characters, as
// UTF-8 (what Mask hashes a text's windows as), and its length in
// characters.
func normalize(typed []rune, chars int) ([]byte, int) {
	b := make([]byte, 0, len(typed)*utf8.UTFMax)
	n := 0
	for _, r := range typed {
		if separator(r) {
			continue
		}
		if n == chars {
			break
		}
		b = utf8.AppendRune(b, r)
		n++
	}
	return b, n
}

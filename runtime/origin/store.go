package origin

import (
	"sync"
	"time"
)

// Limits bound what a Store keeps (spec/bounds_dataflow.cue).
type Limits struct {
	MinChars int           // window length: the shortest run that counts
	Entries  int           // fingerprints kept
	Bytes    int           // bytes of text the fingerprints cover
	Age      time.Duration // how long a result's fingerprints are kept
	KeyChars int           // printable strokes kept per target
}

// key is one fingerprint: a window's hash under one site.
type key struct {
	h    uint64
	site uint16
}

// record is one result's fingerprints, oldest first in Store.records.
type record struct {
	seq    uint64
	at     time.Time
	bytes  int
	hashes []key
}

// Store is one session's memory of page text. Safe for concurrent use.
type Store struct {
	mu      sync.Mutex
	lim     Limits
	pow     uint64
	sites   []string
	siteIdx map[string]uint16
	prints  map[key]uint64 // fingerprint → seq of the newest record holding it
	records []record       // FIFO, oldest first
	seq     uint64
	bytes   int
	keys    map[string][]rune // press_key strokes per target
	// own: windows the model wrote before any site returned them (its own
	// words: a query it typed, which a page may echo back). They count for
	// no site later.
	own map[uint64]struct{}
	buf []rune
}

// NewStore makes an empty store.
func NewStore(l Limits) *Store {
	if l.MinChars < 1 {
		l.MinChars = 1
	}
	return &Store{lim: l, pow: power(l.MinChars), siteIdx: map[string]uint16{}, prints: map[key]uint64{}, keys: map[string][]rune{}, own: map[uint64]struct{}{}}
}

// maxSites bounds the site table (a uint16 index); past it, text from yet
// another site is not remembered.
const maxSites = 1 << 16

func (s *Store) site(name string, add bool) (uint16, bool) {
	if i, ok := s.siteIdx[name]; ok {
		return i, true
	}
	if !add || len(s.sites) >= maxSites {
		return 0, false
	}
	i := uint16(len(s.sites))
	s.sites = append(s.sites, name)
	s.siteIdx[name] = i
	return i, true
}

// Record remembers the fingerprints of texts one result handed the model
// from site. Texts shorter than MinChars normalized characters add nothing.
func (s *Store) Record(site string, now time.Time, texts ...string) {
	if site == "" || len(texts) == 0 {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.expire(now)
	si, ok := s.site(site, true)
	if !ok {
		return
	}
	s.seq++
	rec := record{seq: s.seq, at: now}
	for _, t := range texts {
		if rec.bytes+len(t) > s.lim.Bytes || len(rec.hashes) >= s.lim.Entries {
			break // one result never holds more than the whole store
		}
		s.buf = normalize(t, s.buf)
		if len(s.buf) < s.lim.MinChars {
			continue
		}
		rec.bytes += len(t)
		if need := len(rec.hashes) + len(s.buf) - s.lim.MinChars + 1; need > cap(rec.hashes) {
			rec.hashes = append(make([]key, 0, min(need, s.lim.Entries)), rec.hashes...)
		}
		windows(s.buf, s.lim.MinChars, s.pow, func(_ int, h uint64) {
			if len(rec.hashes) >= s.lim.Entries {
				return
			}
			// One map operation a window: a repeat within this result is
			// listed twice, which eviction (by seq) does not mind.
			k := key{h, si}
			s.prints[k] = rec.seq
			rec.hashes = append(rec.hashes, k)
		})
	}
	if len(rec.hashes) == 0 {
		return
	}
	s.records = append(s.records, rec)
	s.bytes += rec.bytes
	for len(s.records) > 1 && (len(s.prints) > s.lim.Entries || s.bytes > s.lim.Bytes) {
		s.evictOldest()
	}
}

// expire forgets results older than the age bound.
func (s *Store) expire(now time.Time) {
	for len(s.records) > 0 && now.Sub(s.records[0].at) > s.lim.Age {
		s.evictOldest()
	}
}

// evictOldest forgets the oldest result: its fingerprints that no newer
// result holds too.
func (s *Store) evictOldest() {
	r := s.records[0]
	s.records = s.records[1:]
	s.bytes -= r.bytes
	for _, k := range r.hashes {
		if s.prints[k] == r.seq {
			delete(s.prints, k)
		}
	}
}

// Flow is what a write carries of another site's text.
type Flow struct {
	From  string // the source site
	Chars int    // normalized characters of the value covered by its text
}

// Match reports the site other than to whose text covers the most of
// value, in runs of at least MinChars normalized characters. A window the
// target site itself returned counts for no other site: carrying a site's
// own text back to it is no flow. ok is false when no other site's text is
// carried.
func (s *Store) Match(to string, now time.Time, value string) (Flow, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.expire(now)
	if len(s.prints) == 0 {
		return Flow{}, false
	}
	s.buf = normalize(value, s.buf)
	if len(s.buf) < s.lim.MinChars {
		return Flow{}, false
	}
	ti, hasTarget := s.site(to, false)
	// Per site: characters covered so far, and the end of the last covered
	// window (windows arrive in order, so coverage is a running union).
	type cover struct{ chars, end int }
	var covers map[uint16]*cover
	k := s.lim.MinChars
	windows(s.buf, k, s.pow, func(i int, h uint64) {
		if _, mine := s.own[h]; mine {
			return
		}
		if hasTarget {
			if _, own := s.prints[key{h, ti}]; own {
				return
			}
		}
		for si := range s.sites {
			if hasTarget && uint16(si) == ti {
				continue
			}
			if _, hit := s.prints[key{h, uint16(si)}]; !hit {
				continue
			}
			if covers == nil {
				covers = map[uint16]*cover{}
			}
			c := covers[uint16(si)]
			if c == nil {
				c = &cover{}
				covers[uint16(si)] = c
			}
			start := max(i, c.end)
			c.chars += i + k - start
			c.end = i + k
		}
	})
	var best Flow
	for si, c := range covers {
		if c.chars > best.Chars || c.chars == best.Chars && s.sites[si] < best.From {
			best = Flow{From: s.sites[si], Chars: c.chars}
		}
	}
	return best, best.Chars > 0
}

// Own records the windows of a value the model wrote that no site had
// returned: the model's own words, which a page echoing them back does not
// make that page's.
func (s *Store) Own(now time.Time, value string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.buf = normalize(value, s.buf)
	windows(s.buf, s.lim.MinChars, s.pow, func(_ int, h uint64) {
		for si := range s.sites {
			if _, seen := s.prints[key{h, uint16(si)}]; seen {
				return
			}
		}
		if len(s.own) >= s.lim.Entries {
			clear(s.own) // bounded like the fingerprints; oldest go with the rest
		}
		s.own[h] = struct{}{}
	})
}

// Keys appends printable strokes to a target's run of keys and returns the
// run, its last KeyChars strokes: keys pressed one call at a time spell a
// value as surely as typed text does.
func (s *Store) Keys(target, strokes string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.keys[target]; !ok && len(s.keys) >= s.lim.KeyChars {
		clear(s.keys) // each run holds a stroke: never more runs than strokes kept
	}
	run := append(s.keys[target], []rune(strokes)...)
	if n := len(run) - s.lim.KeyChars; n > 0 {
		run = append([]rune(nil), run[n:]...)
	}
	s.keys[target] = run
	return string(run)
}

// Size is the fingerprints and text bytes held, for tests and figures.
func (s *Store) Size() (entries, bytes, results int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.prints), s.bytes, len(s.records)
}

package origin

import (
	"strings"
	"testing"
	"time"
)

var t0 = time.Date(2026, 12, 4, 20, 0, 0, 0, time.UTC)

func lim() Limits {
	return Limits{MinChars: 20, Entries: 1 << 16, Bytes: 1 << 20, Age: time.Hour, KeyChars: 64}
}

const (
	siteA = "http://127.0.0.1"
	siteB = "http://127.0.0.2"
)

func TestMatchFindsACarriedRunAndNotAShortOne(t *testing.T) {
	s := NewStore(lim())
	s.Record(siteA, t0, "Account holder: Marguerite Okonkwo-Vance, IBAN GB29 NWBK 6016 1331 9268 19")
	cases := []struct {
		name, value string
		want        bool
	}{
		{"whole name, re-cased and re-spaced", "marguerite   OKONKWO vance", true},
		{"the IBAN", "gb29nwbk... no: GB29 NWBK 6016 1331 9268 19", true},
		{"19 characters of it", "marguerite okonkwo", false},
		{"unrelated", "the weather in Lisbon is fine today", false},
		{"common words", "account holder", false},
	}
	for _, c := range cases {
		f, ok := s.Match(siteB, t0, c.value)
		if ok != c.want {
			t.Errorf("%s: match %v (%+v), want %v", c.name, ok, f, c.want)
		}
		if ok && f.From != siteA {
			t.Errorf("%s: from %q", c.name, f.From)
		}
	}
	if _, ok := s.Match(siteA, t0, "Marguerite Okonkwo-Vance"); ok {
		t.Error("the source site's own text written back to it is a flow")
	}
}

func TestTextTheTargetAlsoReturnedIsNoFlow(t *testing.T) {
	s := NewStore(lim())
	s.Record(siteA, t0, "shipping to 221B Baker Street, London NW1")
	s.Record(siteB, t0, "our office: 221B Baker Street, London NW1")
	if f, ok := s.Match(siteB, t0, "221B Baker Street, London NW1"); ok {
		t.Errorf("text site B returned too counted as from %s", f.From)
	}
}

func TestCharsCountsTheCoveredUnion(t *testing.T) {
	s := NewStore(lim())
	secret := "zq7 tessellate marmalade 4471 ocelot"
	s.Record(siteA, t0, secret)
	f, ok := s.Match(siteB, t0, "prefix words here "+secret+" and more")
	if !ok || f.Chars != len(normalize(secret, nil)) {
		t.Fatalf("flow %+v ok %v, want %d chars", f, ok, len(normalize(secret, nil)))
	}
}

func TestEvictionOldestFirstWithinBounds(t *testing.T) {
	l := lim()
	l.Entries = 100
	s := NewStore(l)
	first := "first record unique tail of words"
	s.Record(siteA, t0, first)
	var last string
	for i := 0; i < 5; i++ {
		// 40 distinct characters: 21 windows each, none shared.
		var b strings.Builder
		for j := 0; j < 40; j++ {
			b.WriteByte(byte('a' + (i*7+j*j)%26))
			if j%5 == 4 {
				b.WriteByte(byte('0' + i))
			}
		}
		last = b.String()
		s.Record(siteA, t0, last)
	}
	entries, _, _ := s.Size()
	if entries > l.Entries {
		t.Fatalf("%d entries held, bound %d", entries, l.Entries)
	}
	if _, ok := s.Match(siteB, t0, "first record unique tail"); ok {
		t.Error("the oldest result was not the one forgotten")
	}
	if _, ok := s.Match(siteB, t0, last); !ok {
		t.Error("the newest result was forgotten")
	}
}

func TestAgeForgets(t *testing.T) {
	s := NewStore(lim())
	s.Record(siteA, t0, "a long enough secret phrase to count")
	if _, ok := s.Match(siteB, t0.Add(59*time.Minute), "a long enough secret phrase"); !ok {
		t.Fatal("forgotten too early")
	}
	if _, ok := s.Match(siteB, t0.Add(61*time.Minute), "a long enough secret phrase"); ok {
		t.Fatal("kept past the age bound")
	}
}

func TestBytesBound(t *testing.T) {
	l := lim()
	l.Bytes = 100
	s := NewStore(l)
	for i := 0; i < 10; i++ {
		s.Record(siteA, t0, strings.Repeat(string(rune('a'+i)), 40))
	}
	if _, b, _ := s.Size(); b > l.Bytes {
		t.Fatalf("%d bytes held, bound %d", b, l.Bytes)
	}
}

func TestKeysAccumulatePerTarget(t *testing.T) {
	s := NewStore(lim())
	var run string
	for _, r := range "hello there" {
		run = s.Keys("tab_1/target_2", string(r))
	}
	s.Keys("tab_1/target_3", "z")
	if run != "hello there" {
		t.Fatalf("run %q", run)
	}
	for i := 0; i < 100; i++ {
		run = s.Keys("tab_1/target_2", "x")
	}
	if len([]rune(run)) != 64 {
		t.Fatalf("run of %d strokes, bound 64", len([]rune(run)))
	}
}

func TestSite(t *testing.T) {
	for in, want := range map[string]string{
		"https://mail.example.co.uk:8443/x?y": "https://example.co.uk",
		"http://127.0.0.2:41234/page":         "http://127.0.0.2",
		"http://[::1]:80/":                    "http://[::1]",
		"http://localhost:3000/":              "http://localhost",
		"about:blank":                         "",
		"file:///etc/passwd":                  "",
	} {
		if got := Site(in); got != want {
			t.Errorf("Site(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestTheModelsOwnWordsEchoedBackAreNoFlow(t *testing.T) {
	s := NewStore(lim())
	query := "vintage brass telescope with tripod"
	s.Own(t0, query)                                // typed into site A's search box
	s.Record(siteA, t0, "Results for "+query+": 3") // A echoes it
	if f, ok := s.Match(siteB, t0, query); ok {
		t.Errorf("the model's own query counted as from %s", f.From)
	}
	secret := "customer ref 88412-QX-alpha-omega"
	s.Record(siteA, t0, secret)
	s.Own(t0, secret) // carried to B once (a flow): it stays A's
	if _, ok := s.Match(siteB, t0, secret); !ok {
		t.Error("text carried once became the model's own")
	}
}

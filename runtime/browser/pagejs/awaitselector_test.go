package pagejs

import (
	"errors"
	"testing"
	"time"
)

// The retry decision, fed the outcomes a lookup can have: only "matched
// nothing" before the deadline is looked up again.
func TestSelectorRetry(t *testing.T) {
	now := time.Unix(100, 0)
	before, after := now.Add(time.Second), now.Add(-time.Millisecond)
	cases := []struct {
		name     string
		err      error
		deadline time.Time
		want     bool
	}{
		{"found", nil, before, false},
		{"no match, time left", &Error{Kind: KindNoMatch}, before, true},
		{"no match, deadline passed", &Error{Kind: KindNoMatch}, after, false},
		{"no match at the deadline itself", &Error{Kind: KindNoMatch}, now, false},
		{"ambiguous", &Error{Kind: KindAmbiguous, Count: 2}, before, false},
		{"page gone", &Error{Kind: KindUnavailable}, before, false},
		{"wrapped no match", errors.Join(errors.New("resolve"), &Error{Kind: KindNoMatch}), before, true},
		{"not a page error", errors.New("boom"), before, false},
	}
	for _, c := range cases {
		if got := selectorRetry(c.err, now, c.deadline); got != c.want {
			t.Errorf("%s: retry %v, want %v", c.name, got, c.want)
		}
	}
}

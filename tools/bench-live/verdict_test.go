package main

import (
	"strings"
	"testing"
	"time"
)

func TestVerdict(t *testing.T) {
	ms := func(f float64) time.Duration { return time.Duration(f * float64(time.Millisecond)) }
	cases := []struct {
		ghost, floor, same, wire float64
		want                     string
	}{
		{78, 74, 0, 70, "within 1.5x"},
		{2.6, 0.9, 0, 2.0, "over 1.5x"},                          // no same calls measured
		{2.0, 0.9, 1.5, 1.6, "the browser is the floor: within"}, // 1.33x of the same calls
		{2.2, 0.9, 1.1, 1.6, "the browser is the floor: 73%"},    // 2.2 <= 1.5*1.6, 1.6 <= 1.5*1.1
		{2.6, 0.9, 1.1, 1.6, "over 1.5x"},                        // Ghostlight's own work is over a third
		{2.6, 0.9, 1.1, 2.4, "over 1.5x"},                        // its calls cost more than the work needs
	}
	for _, c := range cases {
		got := verdict(ms(c.ghost), ms(c.floor), ms(c.same), ms(c.wire))
		if !strings.HasPrefix(got, c.want) {
			t.Errorf("verdict(%v, %v, %v, %v) = %q, want %q...", c.ghost, c.floor, c.same, c.wire, got, c.want)
		}
	}
}

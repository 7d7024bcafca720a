package mcpedge

import (
	"slices"
	"testing"
	"time"
)

// The idle decision on recorded times: a session expires only past the TTL
// after its last activity, never while a request is open, and ids never
// created here are not tracked.
func TestIdleSessionsDecision(t *testing.T) {
	t0 := time.Unix(1000, 0)
	s := newIdleSessions(time.Second)
	s.touch("a", t0)
	s.touch("b", t0)
	end := s.begin("b", t0.Add(500*time.Millisecond)) // b's call runs long
	s.begin("ghost", t0)(t0)                          // an id never created
	if got := s.expired(t0.Add(900 * time.Millisecond)); len(got) != 0 {
		t.Fatalf("expired early: %v", got)
	}
	if got := s.expired(t0.Add(1100 * time.Millisecond)); !slices.Equal(got, []string{"a"}) {
		t.Fatalf("at 1.1 s: %v, want [a]", got)
	}
	if got := s.expired(t0.Add(10 * time.Second)); len(got) != 0 {
		t.Fatalf("a session with an open request expired: %v", got)
	}
	end(t0.Add(10 * time.Second)) // the call ends; the clock restarts there
	if got := s.expired(t0.Add(10*time.Second + 900*time.Millisecond)); len(got) != 0 {
		t.Fatalf("expired right after its call: %v", got)
	}
	if got := s.expired(t0.Add(11*time.Second + 100*time.Millisecond)); !slices.Equal(got, []string{"b"}) {
		t.Fatalf("b after its call: %v", got)
	}
	s.touch("c", t0)
	s.forget("c")
	if got := s.expired(t0.Add(time.Hour)); len(got) != 0 {
		t.Fatalf("a forgotten session expired: %v", got)
	}
}

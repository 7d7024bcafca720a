package browser

import "testing"

// A mark's channel closes only once a message holding it was written, and
// only for that mark; a message without any mark costs one load.
func TestSendMarkClosesOnItsMessage(t *testing.T) {
	a, sentA, forgetA := NewSendMark()
	b, sentB, forgetB := NewSendMark()
	defer forgetA()
	defer forgetB()
	if a == b {
		t.Fatalf("two marks alike: %s", a)
	}
	if got := sendMarks.in([]byte(`{"id":1,"method":"Runtime.evaluate"}`)); got != nil {
		t.Fatalf("unmarked message matched %v", got)
	}
	msg := []byte(`{"id":2,"params":{"arguments":[{"value":"` + a + `"}]}}`)
	hit := sendMarks.in(msg)
	select {
	case <-sentA:
		t.Fatal("closed before the message was written")
	default:
	}
	sendMarks.written(hit)
	select {
	case <-sentA:
	default:
		t.Fatal("not closed after its message was written")
	}
	select {
	case <-sentB:
		t.Fatal("another mark's channel closed")
	default:
	}
	forgetB()
	if n := sendMarks.n.Load(); n != 0 {
		t.Fatalf("%d marks still waiting", n)
	}
}

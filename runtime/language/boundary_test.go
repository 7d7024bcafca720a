package language

import "testing"

func TestWithheld(t *testing.T) {
	if got := Withheld("1 tab is", 1); got != "1 tab is outside the hosts this call may reach: only its origin is shown, the rest of the URL and the title are withheld." {
		t.Fatalf("one: %q", got)
	}
	if got := Withheld("2 tabs are", 2); got != "2 tabs are outside the hosts this call may reach: only their origin is shown, the rest of the URL and the title are withheld." {
		t.Fatalf("two: %q", got)
	}
}

package language

import "testing"

func TestFramesWithheldForSecret(t *testing.T) {
	for n, want := range map[int]string{
		1: "1 frame was left out of the replay: it may show what the user typed into a credential field.",
		3: "3 frames were left out of the replay: they may show what the user typed into a credential field.",
	} {
		if got := FramesWithheldForSecret(n); got != want {
			t.Errorf("%d: %q", n, got)
		}
	}
}

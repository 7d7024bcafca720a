package language

import "testing"

// TestViewPointMessages: a refusal of a view point names the point and, when
// it is outside the image, the image's size.
func TestViewPointMessages(t *testing.T) {
	for got, want := range map[string]string{
		ViewPointOutside(640, 12, 640, 400): "(640, 12) is outside the 640x400 image",
		ViewPointHidden(3, 900):             "(3, 900) is not in the visible part of the page; scroll it into view first",
	} {
		if got != want {
			t.Errorf("got %q, want %q", got, want)
		}
	}
}

package language

import (
	"fmt"
	"strings"
)

// Covering names the element that covered a target ("another element" when
// the page gave it no role), its page name quoted.
func Covering(role, name string) string {
	if role == "" {
		return "another element"
	}
	s := "a " + role
	if q := Quote(name); q != "" {
		s += coveringNamed + q
	}
	return s
}

const coveringNamed = " named "

// WithoutName drops the page name from a Covering phrase, for a call that
// withholds names: `a button named "Save"` becomes "a button".
func WithoutName(covering string) string {
	role, _, _ := strings.Cut(covering, coveringNamed)
	return role
}

// FullPageTooLong says why a full-page capture of a page got times as long as
// it is wide was refused, and what to capture instead.
func FullPageTooLong(got, limit float64) string {
	return fmt.Sprintf("a full page %.0f times as long as it is wide passes the %g:1 bound (full_page_aspect), so its image would be a sliver; capture the viewport after browser_scroll, or a target", got, limit)
}

package browser

import (
	"strings"

	"github.com/ghostlight-dev/ghostlight/generated/limits"
)

// Page-controlled strings the executor keeps (titles, URLs, dialog text) are cut where
// they enter: a page cannot make a tab's state, a listing or a landing grow past the
// bounds facts carry. Chromium itself caps URLs at 2 MB and titles at 4 KB.

// dialogTextChars bounds a dialog's message and default prompt as kept in memory (never
// in facts, logs or audit): a prompt response may be this long.
const dialogTextChars = limits.PromptCharsMax

// urlKeepChars bounds a kept URL. It is longer than the facts bound so that governance
// (which reads the host) and the facts cut (which drops credentials and the fragment
// after parsing) still see a well-formed prefix.
const urlKeepChars = 2 * limits.URLCharsMax

// boundTitle cuts a page title to the facts bound.
func boundTitle(s string) string { return boundText(s, limits.TitleCharsMax) }

// boundURL cuts a URL without leaving a half percent-escape at its end, so it still parses.
func boundURL(s string) string {
	if len(s) <= urlKeepChars {
		return s
	}
	s = boundText(s, urlKeepChars)
	if i := strings.LastIndexByte(s, '%'); i >= 0 && i >= len(s)-2 {
		s = s[:i]
	}
	return s
}

// boundText cuts s to at most n code points.
func boundText(s string, n int) string {
	if len(s) <= n {
		return s
	}
	i := 0
	for pos := range s {
		if i == n {
			return s[:pos]
		}
		i++
	}
	return s
}

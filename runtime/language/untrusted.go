package language

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Page strings (accessible names, titles) are the page's words, not
// Ghostlight's. They enter a sentence only through Quote, which cleans them
// so they cannot close their quotes or reorder the sentence around them, and
// marks the sentence as quoting page content.

// pageMark travels just before every quoted page string, from Quote to
// Bounded: a handler passes sentences on as plain strings, and the mark cannot
// be separated from the quote it marks, so no path can lose the fact that a
// result quotes the page. U+FDD0 is a Unicode noncharacter, reserved for a
// process's internal use; Clean removes it from every page string, and
// Bounded removes every one from the authored text before it leaves.
const pageMark = '\uFDD0'

// Clean returns a page string as a sentence may carry it: every run of
// whitespace (newlines, tabs, line and paragraph separators) becomes one
// space; control characters, bidi controls (U+202A–U+202E, U+2066–U+2069,
// U+200E, U+200F, U+061C), zero-width and other format or default-ignorable
// characters (U+200B–U+200D, U+2060, U+FEFF, U+00AD, Hangul fillers, tags),
// private-use characters, noncharacters and invalid bytes are removed. Marks
// and variation selectors stay, so text and emoji render as the page shows
// them.
func Clean(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	space := false
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size
		switch {
		case r == utf8.RuneError && size == 1:
			// an invalid byte: dropped
		case unicode.IsSpace(r):
			space = b.Len() > 0
		case invisible(r):
			// dropped without a space: a zero-width character inside a word
			// hides nothing once removed
		default:
			if space {
				b.WriteByte(' ')
				space = false
			}
			b.WriteRune(r)
		}
	}
	return b.String()
}

// invisible reports characters a page string never keeps: controls, format
// characters (bidi, zero-width), other default-ignorable code points,
// private use, surrogates and noncharacters (unassigned code points too,
// since none is printable).
func invisible(r rune) bool {
	if unicode.Is(unicode.Variation_Selector, r) {
		return false
	}
	return unicode.In(r, unicode.Cc, unicode.Cf, unicode.Co, unicode.Cs, unicode.Other_Default_Ignorable_Code_Point) ||
		noncharacter(r) || !unicode.IsPrint(r)
}

func noncharacter(r rune) bool {
	return r >= 0xFDD0 && r <= 0xFDEF || r&0xFFFE == 0xFFFE
}

// Quote puts a page string in a sentence: cleaned, bounded like a target name,
// its backslashes and double quotes escaped so nothing in it closes the
// quotes, inside double quotes. It returns "" when nothing visible remains.
// Every page string a sentence quotes goes through Quote; the result of the
// sentence then says, once, that quoted text is untrusted page content.
func Quote(s string) string {
	n := Name(s)
	if n == "" {
		return ""
	}
	var b strings.Builder
	b.Grow(len(n) + 8)
	b.WriteRune(pageMark)
	b.WriteByte('"')
	for _, r := range n {
		if r == '"' || r == '\\' {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	b.WriteByte('"')
	return b.String()
}

// unmark removes every page mark from s and reports whether there was one.
func unmark(s string) (string, bool) {
	if !strings.ContainsRune(s, pageMark) {
		return s, false
	}
	return strings.ReplaceAll(s, string(pageMark), ""), true
}

// Package language authors what Ghostlight says: the summary and next steps
// of an envelope, from one typed outcome or refusal. Every host, count or
// size a sentence names is read from the facts beside it, never typed twice.
package language

import (
	"fmt"
	"net/url"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
)

// Text is an envelope's authored part.
type Text struct {
	Summary   string
	NextSteps []string
	// PageQuoted is set by Bounded: the summary or a next step quotes a page
	// string (see Quote), so the result says once that quoted names, titles
	// and page-derived facts are untrusted page content.
	PageQuoted bool
}

// Say builds a Text.
func Say(summary string, next ...string) Text { return Text{Summary: summary, NextSteps: next} }

// Bounded finishes a Text: it removes the page marks Quote left, setting
// PageQuoted when there were any, and cuts it to the envelope bounds. Every
// authored text passes through it before it leaves Ghostlight.
func Bounded(t Text) Text {
	var q bool
	t.Summary, q = unmark(t.Summary)
	t.PageQuoted = t.PageQuoted || q
	t.Summary = cut(t.Summary, surface.SummaryCharsMax)
	if len(t.NextSteps) > surface.NextStepsMax {
		t.NextSteps = t.NextSteps[:surface.NextStepsMax]
	}
	out := make([]string, 0, len(t.NextSteps))
	for _, s := range t.NextSteps {
		s, q = unmark(s)
		t.PageQuoted = t.PageQuoted || q
		if s != "" {
			out = append(out, cut(s, surface.NextStepCharsMax))
		}
	}
	t.NextSteps = out
	return t
}

// cut shortens s to at most n characters, ending with an ellipsis when cut,
// never splitting a character or a combining mark from its base.
func cut(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	rs := []rune(s)
	end := n - 1
	for end > 0 && unicode.Is(unicode.Mn, rs[end]) {
		end--
	}
	return strings.TrimRightFunc(string(rs[:end]), unicode.IsSpace) + "…"
}

// Name normalizes an accessible name: cleaned (see Clean), bounded to the
// target-name limit of visible characters.
func Name(s string) string {
	return cut(Clean(s), surface.TargetNameCharsMax)
}

// ariaToNoun maps ARIA roles to Ghostlight's closed nouns where they differ.
var ariaToNoun = map[string]surface.Role{
	"img": surface.RoleImage, "contentinfo": surface.RoleFooter, "gridcell": surface.RoleCell,
	"columnheader": surface.RoleCell, "rowheader": surface.RoleCell, "menuitemcheckbox": surface.RoleMenuitem,
	"menuitemradio": surface.RoleMenuitem, "alertdialog": surface.RoleDialog, "article": surface.RoleRegion,
	"section": surface.RoleRegion, "complementary": surface.RoleRegion, "search": surface.RoleRegion,
	"statictext": surface.RoleText, "generic": surface.RoleText, "tablist": surface.RoleList,
	"grid": surface.RoleTable, "treeitem": surface.RoleListitem, "tree": surface.RoleList, "menubar": surface.RoleMenu,
}

// Role narrows a browser role to the closed noun set; unknown roles become
// "control".
func Role(raw string) surface.Role {
	raw = strings.ToLower(strings.TrimSpace(raw))
	if r, ok := ariaToNoun[raw]; ok {
		return r
	}
	for _, r := range surface.RoleValues {
		if string(r) == raw {
			return r
		}
	}
	return surface.RoleControl
}

// Element names an element in a receipt: `the "Save" button` (the name
// quoted as a page string), or `a button` when the name is empty or names are
// withheld.
func Element(role surface.Role, name string, withName bool) string {
	if role == "" {
		role = surface.RoleControl
	}
	if withName {
		if q := Quote(name); q != "" {
			return "the " + q + " " + string(role)
		}
	}
	return article(string(role)) + " " + string(role)
}

func article(w string) string {
	if w != "" && strings.ContainsRune("aeiou", rune(w[0])) {
		return "an"
	}
	return "a"
}

// Host returns the host a sentence names for a URL.
func Host(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return "the page"
	}
	return u.Host
}

// Plural says "1 item" or "3 items".
func Plural(n int, one, many string) string {
	if n == 1 {
		return fmt.Sprintf("%d %s", n, one)
	}
	return fmt.Sprintf("%d %s", n, many)
}

// AriaRoles lists the browser roles a closed noun stands for, for matching a
// selector's role against the page.
func AriaRoles(noun surface.Role) []string {
	out := []string{string(noun)}
	for aria, n := range ariaToNoun {
		if n == noun {
			out = append(out, aria)
		}
	}
	sort.Strings(out[1:])
	return out
}

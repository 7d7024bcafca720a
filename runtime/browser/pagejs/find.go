package pagejs

import (
	"github.com/ghostlight-dev/ghostlight/generated/surface"

	"context"
	"strings"
)

// Find scopes.
const (
	FindAny     = surface.BrowserFindScopeAny
	FindControl = surface.BrowserFindScopeControl
	FindText    = surface.BrowserFindScopeText
)

// FindRequest searches the whole rendered document by visible or
// accessible text.
type FindRequest struct {
	Text                   string   `json:"text"`
	Scope                  string   `json:"scope"`
	Max                    int      `json:"max"`
	NameMax                int      `json:"nameMax"`
	CredentialAutocomplete []string `json:"credentialAutocomplete"`
	// Judge, in a session where the person typed a secret, keeps only the
	// matches that still hold on their text masked (judge.go); Total then
	// leaves out those it drops. The page is asked for the most matches a
	// call may return, each with the text it matched (Hay).
	Judge Judge `json:"-"`
	Hay   bool  `json:"hay,omitempty"`
}

// Match is a ranked hit. Score: 4 exact name, 3 prefix, 2 whole word,
// 1 substring (case-insensitive, whitespace-normalized).
type Match struct {
	Item
	Score int `json:"score"`
	Haystack
}

// FindResult holds the best Max matches (controls before text blocks at
// equal score, then document order) and the total number of matches.
type FindResult struct {
	Matches []Match `json:"matches"`
	Total   int     `json:"total"`
}

// Find ranks controls by accessible name and text blocks by their own
// visible text, in one round trip. Matches are registered.
func Find(ctx context.Context, w *World, req FindRequest) (FindResult, error) {
	if strings.TrimSpace(req.Text) == "" {
		return FindResult{}, &Error{Kind: KindBadRequest, Op: "find", Detail: "text is empty"}
	}
	switch req.Scope {
	case "":
		req.Scope = FindAny
	case FindAny, FindControl, FindText:
	default:
		return FindResult{}, &Error{Kind: KindBadRequest, Op: "find", Detail: "unknown scope " + req.Scope}
	}
	req.NameMax, req.CredentialAutocomplete = w.limitsFor(req.NameMax, req.CredentialAutocomplete)
	want := req.Max
	if req.Judge != nil {
		req.Hay, req.Max = true, findMax
	}
	var out FindResult
	if err := w.invoke(ctx, "find", req, &out); err != nil {
		return FindResult{}, err
	}
	if req.Judge != nil {
		out = judgeFind(out, want, req.Judge)
	}
	return out, nil
}

// Selector is a typed semantic selector. Role (and/or Roles, any of) are
// raw ARIA roles; empty means any control. Exact: case-sensitive
// whole-name equality; otherwise a case-insensitive whole-name match is
// preferred, then a case-insensitive substring.
type Selector struct {
	Name  string   `json:"name"`
	Role  string   `json:"role,omitempty"`
	Roles []string `json:"roles,omitempty"`
	Exact bool     `json:"exact,omitempty"`
	// Judge, in a session where the person typed a secret, resolves the
	// selector only to a control whose name still matches it masked
	// (judge.go); one that no longer does is no match.
	Judge Judge `json:"-"`
}

// ResolveSelector returns the id of the one visible control sel names.
// Errors: KindNoMatch, KindAmbiguous (Count set), KindBadRequest.
func ResolveSelector(ctx context.Context, w *World, sel Selector) (int, error) {
	if strings.TrimSpace(sel.Name) == "" {
		return 0, &Error{Kind: KindBadRequest, Op: "resolve", Detail: "selector name is empty"}
	}
	nameMax, _ := w.limitsFor(0, nil)
	var out struct {
		ID int `json:"id"`
	}
	req := struct {
		Selector
		NameMax int `json:"nameMax"`
	}{sel, nameMax}
	if sel.Judge != nil {
		return resolveJudged(ctx, w, req, sel.Judge)
	}
	if err := w.invoke(ctx, "resolve", req, &out); err != nil {
		return 0, err
	}
	return out.ID, nil
}

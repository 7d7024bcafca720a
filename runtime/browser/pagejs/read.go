package pagejs

import (
	"github.com/ghostlight-dev/ghostlight/generated/surface"

	"context"
	"strings"
	"unicode/utf8"
)

// Read modes.
const (
	ReadArticle = surface.BrowserReadModeArticle
	ReadVisible = surface.BrowserReadModeVisible
)

// ReadRequest asks for bounded prose. Target (an element id) overrides Mode.
// TitleMax 0 falls back to the World's Limits.
type ReadRequest struct {
	Mode     string `json:"mode"`
	Target   int    `json:"target"`
	MaxChars int    `json:"maxChars"`
	TitleMax int    `json:"titleMax"`
}

// ReadResult: ModeUsed is "article", "visible" (also the article fallback)
// or "target". Text is cut at MaxChars runes.
type ReadResult struct {
	Text      string `json:"text"`
	Truncated bool   `json:"truncated"`
	ModeUsed  string `json:"modeUsed"`
	Title     string `json:"title"`
	URL       string `json:"url"`
}

// Read returns rendered text: the main/article content (or the densest
// paragraph block) in article mode, falling back to all visible text.
// Editable values are never included.
func Read(ctx context.Context, w *World, req ReadRequest) (ReadResult, error) {
	switch req.Mode {
	case "":
		req.Mode = ReadArticle
	case ReadArticle, ReadVisible:
	default:
		return ReadResult{}, &Error{Kind: KindBadRequest, Op: "read", Detail: "unknown mode " + req.Mode}
	}
	if req.TitleMax <= 0 {
		req.TitleMax = w.Limits().TitleMax
	}
	var out ReadResult
	if err := w.invoke(ctx, "read", req, &out); err != nil {
		return ReadResult{}, err
	}
	// The page cuts by code points; enforce the rune bound here too.
	if req.MaxChars > 0 && utf8.RuneCountInString(out.Text) > req.MaxChars {
		out.Text = cutRunes(out.Text, req.MaxChars)
		out.Truncated = true
	}
	return out, nil
}

func cutRunes(s string, n int) string {
	i := 0
	for k := range s {
		if i == n {
			return s[:k]
		}
		i++
	}
	return s
}

// TextPresent reports whether text (case-insensitive, whitespace-normalized)
// occurs in the document's visible text.
func TextPresent(ctx context.Context, w *World, text string) (bool, error) {
	if strings.TrimSpace(text) == "" {
		return false, &Error{Kind: KindBadRequest, Op: "textPresent", Detail: "text is empty"}
	}
	var out struct {
		Present bool `json:"present"`
	}
	if err := w.invoke(ctx, "textPresent", map[string]string{"text": text}, &out); err != nil {
		return false, err
	}
	return out.Present, nil
}

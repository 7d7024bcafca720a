package pagejs

import (
	"context"
	"fmt"
	"strings"

	"github.com/ghostlight-dev/ghostlight/generated/limits"
)

// A text query answered by the page (Find, TextPresent, a selector by name)
// is answered on the page's own text. In a session where the person typed a
// secret the caller passes a Judge: the page then gives back the text each
// match was made on (a Haystack, bounded by query_haystack_chars), and a
// match counts only if the judge says it still holds on that text as the
// model would see it (runtime/echomask masks it there). Without a Judge the
// request and its answer are what they always were.

// Haystack is the text a match was made on: the whole text (whitespace-
// normalised), or windows around the query's occurrences, each its context
// and matched parts alternating (js/find.js, hayOf); More says occurrences
// past the windows were left out.
type Haystack struct {
	Whole string     `json:"hay,omitempty"`
	Near  [][]string `json:"near,omitempty"`
	More  bool       `json:"more,omitempty"`
}

func (h Haystack) given() bool { return h.Whole != "" || len(h.Near) > 0 || h.More }

// Judge reports whether a match still holds on its haystack as the model
// would see it.
type Judge func(Haystack) bool

// judgeFind keeps the matches judge holds, the first want of them (want <= 0:
// all). Total is the page's total less the matches dropped: matches past
// those the page gave back are not judged and count as the page counted them.
func judgeFind(res FindResult, want int, judge Judge) FindResult {
	kept := make([]Match, 0, len(res.Matches))
	for _, m := range res.Matches {
		if judge(m.Haystack) {
			m.Haystack = Haystack{}
			kept = append(kept, m)
		}
	}
	total := len(kept) + max(0, res.Total-len(res.Matches))
	if want > 0 && len(kept) > want {
		kept = kept[:want]
	}
	return FindResult{Matches: kept, Total: total}
}

// judgedTier is one of a selector's sets (js/find.js, selectorNames): its
// count and its first judged_candidates controls.
type judgedTier struct {
	Total int `json:"total"`
	Cands []struct {
		ID int `json:"id"`
		Haystack
	} `json:"cands"`
}

// resolveJudged is ResolveSelector choosing on judged names: in each
// document (the page's, then each frame's) the first set with a control the
// judge holds decides, as the page's own choice does; one control in all is
// the answer. A set with more controls than the page gave back is ambiguous.
func resolveJudged(ctx context.Context, w *World, req any, judge Judge) (int, error) {
	var out struct {
		Tiers  []judgedTier `json:"tiers"`
		Frames []struct {
			Tiers []judgedTier `json:"tiers"`
		} `json:"frames"`
	}
	if err := w.invoke(ctx, "selectorNames", req, &out); err != nil {
		return 0, err
	}
	docs := [][]judgedTier{out.Tiers}
	if len(out.Frames) > 0 {
		docs = docs[:0]
		for _, f := range out.Frames {
			docs = append(docs, f.Tiers)
		}
	}
	var ids []int
	for _, tiers := range docs {
		for _, t := range tiers {
			var held []int
			for _, c := range t.Cands {
				if judge(c.Haystack) {
					held = append(held, c.ID)
				}
			}
			n := len(held) + max(0, t.Total-len(t.Cands))
			if n == 0 {
				continue
			}
			if n > 1 || len(held) == 0 {
				n = max(n, 2)
				return 0, &Error{Kind: KindAmbiguous, Op: "resolve", Count: n, Detail: fmt.Sprintf("%d visible controls match the selector", n)}
			}
			ids = append(ids, held[0])
			break
		}
	}
	switch len(ids) {
	case 0:
		return 0, &Error{Kind: KindNoMatch, Op: "resolve", Detail: "no visible control matches the selector"}
	case 1:
		return ids[0], nil
	}
	return 0, &Error{Kind: KindAmbiguous, Op: "resolve", Count: len(ids), Detail: "matches in more than one frame"}
}

// TextShown is TextPresent answered on the text the model sees: with a
// judge, text counts as present only where the judge holds it (nil: the
// page's answer).
func TextShown(ctx context.Context, w *World, text string, judge Judge) (bool, error) {
	if judge == nil {
		return TextPresent(ctx, w, text)
	}
	if strings.TrimSpace(text) == "" {
		return false, &Error{Kind: KindBadRequest, Op: "textPresent", Detail: "text is empty"}
	}
	var out struct {
		Present bool `json:"present"`
		Haystack
		Hays []Haystack `json:"hays"`
	}
	req := struct {
		Text string `json:"text"`
		Hay  bool   `json:"hay"`
	}{text, true}
	if err := w.invoke(ctx, "textPresent", req, &out); err != nil {
		return false, err
	}
	if !out.Present {
		return false, nil
	}
	hays := out.Hays
	if len(hays) == 0 && out.Haystack.given() {
		hays = []Haystack{out.Haystack}
	}
	if len(hays) == 0 {
		return true, nil // no text to judge again: the page's answer
	}
	for _, h := range hays {
		if judge(h) {
			return true, nil
		}
	}
	return false, nil
}

// findMax is how many matches a judged Find asks the page for: the most a
// call may return, so that the matches dropped leave as many as asked.
const findMax = limits.FindResultsMax

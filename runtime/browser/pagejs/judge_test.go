package pagejs

import (
	"errors"
	"strings"
	"testing"

	"github.com/ghostlight-dev/ghostlight/generated/limits"
)

// masking is a judge standing in for the mask (runtime/echomask.Holds):
// it hides the number 4111 and looks for q in what is left.
func masking(q string) Judge {
	return func(h Haystack) bool {
		if h.More {
			return true
		}
		if h.Whole != "" && strings.Contains(strings.ToLower(strings.ReplaceAll(h.Whole, "4111", "****")), strings.ToLower(q)) {
			return true
		}
		for _, w := range h.Near {
			for i := 1; i < len(w); i += 2 {
				if !strings.Contains(w[i], "4111") {
					return true
				}
			}
		}
		return false
	}
}

// With a judge, Find keeps the matches it holds, and counts only those;
// the judge sees the whole text each match was made on.
func TestFindJudged(t *testing.T) {
	_, w := openPage(t, page(`<button>Pay 4111 1111</button><button>Pay 411 later</button><p>Pay 4112 by post</p><p>Nothing here</p>`))
	ctx := testCtx(t)
	plain, err := Find(ctx, w, FindRequest{Text: "pay 411", Max: 1})
	if err != nil || plain.Total != 3 || len(plain.Matches) != 1 || plain.Matches[0].Name != "Pay 4111 1111" || plain.Matches[0].Haystack.given() {
		t.Fatalf("unjudged: %+v %v", plain, err)
	}
	var seen []string
	judge := func(h Haystack) bool {
		seen = append(seen, h.Whole)
		return masking("pay 411")(h)
	}
	res, err := Find(ctx, w, FindRequest{Text: "pay 411", Max: 1, Judge: judge})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Matches) != 1 || res.Total != 2 || res.Matches[0].Name != "Pay 411 later" {
		t.Errorf("judged: %d matches (%v), total %d", len(res.Matches), res.Matches, res.Total)
	}
	if len(seen) != 3 || !contains(seen, "Pay 4111 1111") || !contains(seen, "Pay 4112 by post") {
		t.Errorf("haystacks: %q", seen)
	}
	// A match whose every occurrence is in the number is none.
	res, err = Find(ctx, w, FindRequest{Text: "pay 4111", Judge: masking("pay 4111")})
	if err != nil || len(res.Matches) != 0 || res.Total != 0 {
		t.Errorf("judged out: %+v %v", res, err)
	}
}

// A text longer than query_haystack_chars comes back as windows around the
// query's occurrences, reaching the pad either side; nearby occurrences
// share a window; past the bound the rest is More.
func TestHaystackWindows(t *testing.T) {
	filler := func(word string, n int) string { return strings.Repeat(word+" ", n/6) }
	long := filler("lorem", 2000) + "needle" + filler("lorem", 30) + "needle" + filler("lorem", 3000) + "needle" + filler("lorem", 2000)
	many := strings.Repeat(filler("ipsum", 1200)+"needle ", 12)
	_, w := openPage(t, page(`<p id="a">`+long+`</p><div><p>`+many+`</p></div>`))
	ctx := testCtx(t)
	var hays []Haystack
	res, err := Find(ctx, w, FindRequest{Text: "NEEDLE", Judge: func(h Haystack) bool { hays = append(hays, h); return true }})
	if err != nil || len(res.Matches) != 2 || len(hays) != 2 {
		t.Fatalf("find: %+v %v (%d haystacks)", res, err, len(hays))
	}
	for i, h := range hays {
		if h.Whole != "" || len(h.Near) == 0 {
			t.Fatalf("haystack %d: want windows: %+v", i, h)
		}
		chars := 0
		for _, win := range h.Near {
			if len(win)%2 == 0 || len(win) < 3 {
				t.Fatalf("window of %d parts", len(win))
			}
			for j, p := range win {
				n := len([]rune(p))
				chars += n
				switch {
				case j%2 == 1 && p != "needle":
					t.Errorf("matched part %q", p)
				case (j == 0 || j == len(win)-1) && n > hayPad:
					t.Errorf("context of %d characters past the pad %d", n, hayPad)
				}
			}
			if first, last := win[0], win[len(win)-1]; len(first) < hayPad-8 && !strings.HasPrefix(long, first) && !strings.HasPrefix(many, first) || len(last) < hayPad-8 && !strings.HasSuffix(strings.TrimSpace(long), last) && !strings.HasSuffix(strings.TrimSpace(many), last) {
				t.Errorf("a window reaches less than the pad: %d and %d characters", len(first), len(last))
			}
		}
		if chars > limits.QueryHaystackCharsMax {
			t.Errorf("haystack %d: %d characters past the bound", i, chars)
		}
	}
	if strings.Contains(hays[0].Near[0][0], "ipsum") {
		hays[0], hays[1] = hays[1], hays[0]
	}
	long0 := hays[0]
	if len(long0.Near) != 2 || len(long0.Near[0]) != 5 || long0.More {
		t.Errorf("the long text: want two windows, the first with both near occurrences, nothing left out: %d windows, %d parts, more %v", len(long0.Near), len(long0.Near[0]), long0.More)
	}
	if !hays[1].More || len(hays[1].Near) >= 12 {
		t.Errorf("twelve occurrences far apart: want the first few and More: %d windows, more %v", len(hays[1].Near), hays[1].More)
	}
	// The page's text, for a wait, comes back the same way.
	var page Haystack
	if ok, err := TextShown(ctx, w, "needle", func(h Haystack) bool { page = h; return false }); err != nil || ok {
		t.Fatalf("TextShown judged out: %v %v", ok, err)
	}
	if page.Whole != "" || len(page.Near) == 0 || !page.More || page.Near[0][1] != "needle" {
		t.Errorf("the page's text: want windows and More: %d windows, more %v", len(page.Near), page.More)
	}
}

// With a judge, a selector resolves to the one control whose name still
// matches; one that matches only in the number is no match, as on a page
// without it. (Frames: runtime/tools, TestFramedEchoIsNoOracle.)
func TestResolveSelectorJudged(t *testing.T) {
	_, w := openPage(t, page(`<button>Pay 4111 1111</button><button>Pay 4 now</button><button>Save</button><button>Save 4111</button><button>Only 4111</button><p>Ships to Berlin</p>`))
	ctx := testCtx(t)
	if _, err := ResolveSelector(ctx, w, Selector{Name: "Pay 4"}); KindOf(err) != KindAmbiguous {
		t.Fatalf("unjudged: %v", err)
	}
	for _, c := range []struct {
		sel  Selector
		want string // the name resolved to, "" no match
	}{
		{Selector{Name: "Pay 4", Judge: masking("Pay 4")}, "Pay 4 now"},
		{Selector{Name: "pay 4111", Judge: masking("pay 4111")}, ""},
		{Selector{Name: "Pay 4111 1111", Exact: true, Judge: masking("Pay 4111 1111")}, ""},
		{Selector{Name: "Pay 4111 1111", Exact: true}, "Pay 4111 1111"},
		{Selector{Name: "save", Judge: masking("save")}, "Save"},
		{Selector{Name: "Only 41", Judge: masking("Only 41")}, ""},
		{Selector{Name: "Only", Judge: masking("Only")}, "Only 4111"},
		{Selector{Name: "Only 41"}, "Only 4111"},
	} {
		id, err := ResolveSelector(ctx, w, c.sel)
		if c.want == "" {
			if e := mustKind(t, err, KindNoMatch); e.Detail != "no visible control matches the selector" {
				t.Errorf("%+v: %v", c.sel, e)
			}
			continue
		}
		if err != nil {
			t.Errorf("%+v: %v", c.sel, err)
			continue
		}
		if d, _ := Describe(ctx, w, id); d.Name != c.want {
			t.Errorf("%+v resolved to %q", c.sel, d.Name)
		}
	}
	// Two controls that still hold are ambiguous, counted.
	var e *Error
	if _, err := ResolveSelector(ctx, w, Selector{Name: "a", Roles: []string{"button"}, Judge: func(Haystack) bool { return true }}); !errors.As(err, &e) || e.Kind != KindAmbiguous || e.Count < 2 {
		t.Errorf("ambiguous: %v", err)
	}
	// Text on the page.
	for q, want := range map[string]bool{"4111": true, "pay 4111": true, "berlin": true, "nowhere": false} {
		if got, err := TextShown(ctx, w, q, nil); err != nil || got != want {
			t.Errorf("TextShown(%q, nil) = %v %v", q, got, err)
		}
	}
	for q, want := range map[string]bool{"4111": false, "pay 4111": false, "berlin": true, "pay 4 now": true, "nowhere": false} {
		if got, err := TextShown(ctx, w, q, masking(q)); err != nil || got != want {
			t.Errorf("TextShown(%q, judged) = %v %v", q, got, err)
		}
	}
}

// The cost of a judged query against the same query unjudged (the judge
// here keeps everything: the page's side and the transport are measured;
// the mask's own cost is runtime/echomask's BenchmarkHolds).
func BenchmarkQueryJudged(b *testing.B) {
	keep := func(Haystack) bool { return true }
	_, w := openPage(b, bigPage())
	_, tw := openPage(b, textPage())
	ctx := testCtx(b)
	for _, c := range []struct {
		name string
		run  func(Judge) error
	}{
		{"find-one", func(j Judge) error {
			_, err := Find(ctx, w, FindRequest{Text: "Button 1900", Max: 20, Judge: j})
			return err
		}},
		{"find-2000", func(j Judge) error {
			_, err := Find(ctx, w, FindRequest{Text: "Button", Max: 20, Judge: j})
			return err
		}},
		{"selector", func(j Judge) error {
			_, err := ResolveSelector(ctx, w, Selector{Name: "Button 1900", Judge: j})
			return err
		}},
		{"text-article", func(j Judge) error { _, err := TextShown(ctx, tw, "old mill", j); return err }},
	} {
		for _, judged := range []bool{false, true} {
			j := Judge(nil)
			name := c.name + "/plain"
			if judged {
				j, name = keep, c.name+"/judged"
			}
			b.Run(name, func(b *testing.B) {
				for b.Loop() {
					if err := c.run(j); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

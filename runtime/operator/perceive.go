package operator

import (
	"context"
	"fmt"
	"hash/fnv"
	"strconv"
	"strings"

	"github.com/ghostlight-dev/ghostlight/generated/operator"
	"github.com/ghostlight-dev/ghostlight/generated/surface"
	"github.com/ghostlight-dev/ghostlight/runtime/language"
	"github.com/ghostlight-dev/ghostlight/runtime/pipeline"
)

// OperatorPerceive reads a surface: its visible controls (browser_inspect)
// or the controls matching query (browser_find) as targets, its readiness,
// and, for a fresh reading without query, its text (browser_read). A
// reading longer than limit continues with next_cursor, which names the
// document generation, the offset and the query it continues; one reading
// reaches at most the listing bound of the tool it rests on.
func (Handler) OperatorPerceive(ctx context.Context, a *operator.OperatorPerceiveArgs) (*operator.OperatorPerceiveFacts, surface.Outcome) {
	offset, gen := 0, -1
	if a.Cursor != "" {
		c, ok := parseCursor(a.Cursor)
		if !ok || c.query != queryHash(a.Query) {
			return nil, surface.Outcome{Refusal: &surface.Refusal{Reason: surface.ReasonInvalidArguments, Pointer: "/cursor", Rule: surface.RuleHandle,
				Message: "that cursor continues no reading of this query; pass the same query as the reading that gave it"}}
		}
		offset, gen = c.offset, c.generation
	}
	want := offset + a.Limit
	var r pipeline.Result
	var items []*surface.Item
	var total, generation, reach int
	if a.Query != "" {
		reach = surface.FindResultsMax
		r = child(ctx, "browser_find", a.SurfaceID, map[string]any{"text": a.Query, "scope": surface.BrowserFindScopeControl, "max_results": min(want, reach)})
		if f, ok := r.Facts.(*surface.BrowserFindFacts); ok {
			items, total, generation = f.Matches, f.Total, f.DocumentGeneration
		}
	} else {
		reach = surface.InspectItemsMax
		r = child(ctx, "browser_inspect", a.SurfaceID, map[string]any{"scope": surface.BrowserInspectScopeControls, "max_items": min(want, reach)})
		if f, ok := r.Facts.(*surface.BrowserInspectFacts); ok {
			items, total, generation = f.Items, f.Total, f.DocumentGeneration
		}
	}
	if failed(r) {
		return nil, refused("operator_perceive", r)
	}
	if gen >= 0 && gen != generation {
		return nil, surface.Outcome{Refusal: &surface.Refusal{Reason: surface.ReasonStaleTarget, Pointer: "/cursor",
			Message: "the surface has loaded another document since the reading that cursor continues"},
			Summary:   "The surface has loaded another document since the reading that cursor continues.",
			NextSteps: []string{"Call operator_perceive without cursor to read it afresh."}}
	}
	f := &operator.OperatorPerceiveFacts{Targets: []*operator.Target{}, Readiness: readiness(r.Envelope.Readiness)}
	for i := offset; i < len(items) && i < offset+a.Limit; i++ {
		it := items[i]
		f.Targets = append(f.Targets, &operator.Target{Ref: it.Target, Role: it.Role, Name: it.Name})
	}
	if end := offset + a.Limit; total > end && end < reach {
		f.NextCursor = cursor{generation: generation, offset: end, query: queryHash(a.Query)}.String()
	}
	if a.Query == "" && a.Cursor == "" {
		t := child(ctx, "browser_read", a.SurfaceID, map[string]any{})
		if failed(t) {
			return nil, refused("operator_perceive", t)
		}
		if rf, ok := t.Facts.(*surface.BrowserReadFacts); ok {
			f.Text = rf.Text
		}
	}
	return f, surface.Outcome{RepeatSafe: true, Readiness: r.Envelope.Readiness, Summary: perceiveSummary(a, f, total, offset, reach), NextSteps: perceiveSteps(f)}
}

func perceiveSummary(a *operator.OperatorPerceiveArgs, f *operator.OperatorPerceiveFacts, total, offset, reach int) string {
	what := "controls"
	if a.Query != "" {
		what = fmt.Sprintf("controls matching %q", a.Query)
	}
	s := fmt.Sprintf("Read %s of %d %s (readiness %s).", language.Plural(len(f.Targets), "target", "targets"), total, what, f.Readiness)
	if offset > 0 {
		s = fmt.Sprintf("Read %s from %d on, of %d %s (readiness %s).", language.Plural(len(f.Targets), "target", "targets"), offset+1, total, what, f.Readiness)
	}
	if f.NextCursor == "" && total > offset+len(f.Targets) && offset+len(f.Targets) >= reach {
		s += fmt.Sprintf(" One reading reaches %d; narrow it with query.", reach)
	}
	return s
}

func perceiveSteps(f *operator.OperatorPerceiveFacts) []string {
	var out []string
	if f.NextCursor != "" {
		out = append(out, "Pass next_cursor as cursor (same query) for the rest.")
	}
	if len(f.Targets) > 0 {
		out = append(out, "Call operator_act with a target ref.")
	}
	return out
}

// cursor continues a reading: the document it read, where the next page
// starts, and a hash of the query, so a cursor never continues another
// reading. It is a cursor handle: "cur_G<generation>O<offset>Q<hash>".
type cursor struct {
	generation, offset int
	query              string
}

func (c cursor) String() string {
	return surface.HandlePrefixCursor + "_G" + strconv.Itoa(c.generation) + "O" + strconv.Itoa(c.offset) + "Q" + c.query
}

func parseCursor(s string) (cursor, bool) {
	rest, ok := strings.CutPrefix(s, surface.HandlePrefixCursor+"_G")
	g, rest, ok1 := strings.Cut(rest, "O")
	o, q, ok2 := strings.Cut(rest, "Q")
	gen, err1 := strconv.Atoi(g)
	off, err2 := strconv.Atoi(o)
	if !ok || !ok1 || !ok2 || err1 != nil || err2 != nil || gen < 0 || off <= 0 || q == "" {
		return cursor{}, false
	}
	return cursor{generation: gen, offset: off, query: q}, true
}

// queryHash is a short, stable digest of a query (letters and digits).
func queryHash(q string) string {
	h := fnv.New32a()
	h.Write([]byte(q))
	return strconv.FormatUint(uint64(h.Sum32()), 36)
}

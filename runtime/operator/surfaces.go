package operator

import (
	"context"
	"fmt"

	"github.com/ghostlight-dev/ghostlight/generated/operator"
	"github.com/ghostlight-dev/ghostlight/generated/surface"
	"github.com/ghostlight-dev/ghostlight/runtime/language"
)

// OperatorListSurfaces lists this session's tabs as browser surfaces
// (browser_tabs list): id is the tab handle, label its title, address its
// governed URL. Every surface is a browser, so another kind lists none.
func (Handler) OperatorListSurfaces(ctx context.Context, a *operator.OperatorListSurfacesArgs) (*operator.OperatorListSurfacesFacts, surface.Outcome) {
	f := &operator.OperatorListSurfacesFacts{Surfaces: []*operator.Surface{}}
	if a.Kind != "" && a.Kind != operator.SurfaceKindBrowser {
		return f, surface.Outcome{RepeatSafe: true, Summary: fmt.Sprintf("No %s surfaces: every surface here is a browser tab.", a.Kind)}
	}
	r := child(ctx, "browser_tabs", "", map[string]any{"action": surface.BrowserTabsActionList})
	if failed(r) {
		return f, refused("operator_list_surfaces", r)
	}
	tabs, _ := r.Facts.(*surface.BrowserTabsFacts)
	if tabs != nil {
		for _, row := range tabs.Tabs {
			f.Surfaces = append(f.Surfaces, &operator.Surface{ID: row.Tab, Kind: operator.SurfaceKindBrowser, Label: row.Title, Address: row.URL})
		}
	}
	out := surface.Outcome{RepeatSafe: true, Summary: r.Envelope.Summary}
	if len(f.Surfaces) == 0 {
		out.Summary = "No surface is open in this session yet."
		out.NextSteps = []string{"Surfaces are this session's tabs: one opens with browser_navigate (ghostlight serve --surface all)."}
	} else {
		out.Summary = fmt.Sprintf("%s open in this session.", language.Plural(len(f.Surfaces), "surface is", "surfaces are"))
		out.NextSteps = []string{"Call operator_perceive with a surface_id to read it."}
	}
	return f, out
}

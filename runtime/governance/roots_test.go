package governance

import "testing"

// TestReadRootLists: every layer that sets files.read_roots is returned,
// from the top, so an upload holds a file to each list.
func TestReadRootLists(t *testing.T) {
	cfg, _ := layers(t, `files: read_roots: ["/srv"]`, "", `files: read_roots: ["/srv/share", "/srv/tmp"]`)
	got := mustLoad(t, cfg).ReadRootLists()
	if len(got) != 2 || got[0].Layer != "organization" || got[0].Roots[0] != "/srv" || got[1].Layer != "workspace" || len(got[1].Roots) != 2 {
		t.Fatalf("read root lists: %+v", got)
	}
	if l := AllOpen("auto").ReadRootLists(); l != nil {
		t.Fatalf("no layer sets roots, yet %+v", l)
	}
}

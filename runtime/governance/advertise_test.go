package governance

import (
	"slices"
	"testing"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
)

// TestAdvertises: a tool leaves the list only when every branch needs a
// denied capability; a tool with one admissible branch stays.
func TestAdvertises(t *testing.T) {
	all := AllOpen("auto").Advertised()
	if len(all) != len(surface.Catalog) {
		t.Fatalf("all-open advertises %d of %d tools", len(all), len(surface.Catalog))
	}
	noExec := New("auto", "", Layer{Name: "organization", Caps: AllCaps &^ surface.CapExecute}).Advertised()
	if slices.Contains(noExec, "browser_execute") || len(noExec) != len(surface.Catalog)-1 {
		t.Errorf("execute denied: %v", noExec)
	}
	readOnly := New("auto", "", Layer{Name: "user", Caps: surface.CapRead}).Advertised()
	for _, name := range []string{"browser_click", "browser_upload", "browser_execute", "browser_drag", "browser_type_text", "browser_fill_form"} {
		if slices.Contains(readOnly, name) {
			t.Errorf("read only advertises %s", name)
		}
	}
	// browser_tabs lists and focuses with read; browser_dialog reports its status with read.
	for _, name := range []string{"browser_tabs", "browser_dialog", "browser_read", "policy_explain", "browser_sequence", "browser_record"} {
		if !slices.Contains(readOnly, name) {
			t.Errorf("read only hides %s", name)
		}
	}
	none := New("auto", "", Layer{Name: "user", Caps: 0}).Advertised()
	for _, name := range none {
		tool := surface.Lookup(name)
		if !slices.Contains(tool.MinCaps, 0) {
			t.Errorf("nothing allowed, yet %s is advertised", name)
		}
	}
}

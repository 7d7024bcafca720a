package server

import "testing"

// TestSurfaceSelection: --surface chooses the catalogs served; an unknown
// name refuses to start, naming the choices.
func TestSurfaceSelection(t *testing.T) {
	for name, want := range map[string][2]bool{"": {true, false}, SurfaceGhostlight: {true, false}, SurfaceOperator: {false, true}, SurfaceAll: {true, true}} {
		g, o, err := serves(name)
		if err != nil || g != want[0] || o != want[1] {
			t.Errorf("%q: ghostlight %v, operator %v, %v", name, g, o, err)
		}
	}
	if _, _, err := serves("desktop"); err == nil {
		t.Error("an unknown surface was accepted")
	}
	if _, err := New(Config{Surface: "desktop"}); err == nil {
		t.Error("New accepted an unknown surface")
	}
}

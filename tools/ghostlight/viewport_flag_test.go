package main

import (
	"testing"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
)

func TestViewportFlag(t *testing.T) {
	v := viewport{surface.ViewportWidthDefault, surface.ViewportHeightDefault}
	if v.String() != "1280x800" {
		t.Fatalf("default %s", v.String())
	}
	if err := v.Set("1440X900"); err != nil || v.w != 1440 || v.h != 900 {
		t.Fatalf("1440X900: %v %+v", err, v)
	}
	for _, bad := range []string{"", "1280", "x800", "1280x", "wide", "100x800", "1280x100", "99999x800", "1280x-800"} {
		if err := v.Set(bad); err == nil {
			t.Fatalf("%q accepted", bad)
		}
	}
	if v.w != 1440 || v.h != 900 {
		t.Fatalf("a refused value changed the flag: %+v", v)
	}
}

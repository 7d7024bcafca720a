package conformance

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
)

// FuzzDecode feeds arbitrary bytes to every tool's decoder, seeded with the
// fixtures: no panic, and whatever is accepted re-encodes and decodes to the
// same value.
func FuzzDecode(f *testing.F) {
	for _, ff := range loadFixtures(f) {
		for i, tool := range surface.Catalog {
			if tool.Name != ff.Tool {
				continue
			}
			for _, c := range ff.Cases {
				f.Add(uint8(i), c.raw())
			}
		}
	}
	f.Fuzz(func(t *testing.T, which uint8, data []byte) {
		tool := surface.Catalog[int(which)%len(surface.Catalog)]
		a, err := tool.Decode(data)
		if err != nil {
			if err.Rule == "" || err.Message == "" {
				t.Fatalf("%s: error without rule or message: %+v", tool.Name, err)
			}
			return
		}
		again, merr := json.Marshal(a)
		if merr != nil {
			t.Fatalf("%s: accepted %q but cannot re-encode: %v", tool.Name, data, merr)
		}
		b, err := tool.Decode(again)
		if err != nil {
			t.Fatalf("%s: re-encoded %s refused: %v", tool.Name, again, err)
		}
		if !reflect.DeepEqual(a, b) {
			t.Fatalf("%s: round trip changed the value:\n%#v\n%#v", tool.Name, a, b)
		}
	})
}

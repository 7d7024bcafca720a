package conformance

import (
	"testing"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
)

// BenchmarkDecode decodes each tool's shortest example and its largest valid
// fixture (the worst case the fixtures hold).
func BenchmarkDecode(b *testing.B) {
	for _, ff := range loadFixtures(b) {
		tool := surface.Lookup(ff.Tool)
		var shortest, worst []byte
		for _, c := range ff.Cases {
			if !c.Decode.OK {
				continue
			}
			if c.Name == "shortest example" {
				shortest = c.raw()
			}
			if len(c.raw()) > len(worst) {
				worst = c.raw()
			}
		}
		for _, in := range []struct {
			name string
			data []byte
		}{{"shortest", shortest}, {"worst", worst}} {
			b.Run(ff.Tool+"/"+in.name, func(b *testing.B) {
				b.ReportAllocs()
				b.SetBytes(int64(len(in.data)))
				for b.Loop() {
					if _, err := tool.Decode(in.data); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

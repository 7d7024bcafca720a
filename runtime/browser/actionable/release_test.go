package actionable

import "testing"

// Recorded sequences of looks after a press, each decided look by look as
// the loop in pagejs does; the verdict at the end and the frame it came in.
func TestDecideReleaseRecorded(t *testing.T) {
	cover := ReleaseSample{}
	hit := ReleaseSample{Hit: true}
	fresh := ReleaseSample{Fresh: true}
	beneath := ReleaseSample{Beneath: true}
	cases := []struct {
		name  string
		looks []ReleaseSample
		past  int // index of the look at which the deadline has passed (-1: never)
		want  ReleaseVerdict
		at    int // index of the deciding look
	}{
		{"target still under the point", []ReleaseSample{hit}, -1, Release, 0},
		// Shoelace sl-select: its listbox flashes back over the checkbox for
		// one frame after its hide animation ends, then is hidden.
		{"cover flashes back for a frame", []ReleaseSample{cover, cover, hit}, -1, Release, 2},
		// MUI Select opens its menu on mousedown, over the trigger.
		{"the press opened a menu over the point", []ReleaseSample{fresh}, -1, Release, 0},
		// Radix's modal menu sets pointer-events: none on the body.
		{"the target stopped taking pointer events", []ReleaseSample{beneath}, -1, Release, 0},
		{"a cover that stays", []ReleaseSample{cover, cover, cover, cover, cover, hit}, -1, Withhold, 4},
		{"deadline while held", []ReleaseSample{cover, cover, hit}, 1, Withhold, 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			for i, l := range c.looks {
				l.Frame = i
				v := DecideRelease(l, 4, c.past >= 0 && i >= c.past)
				if v == Hold {
					if i == len(c.looks)-1 {
						t.Fatalf("still holding after the last look")
					}
					continue
				}
				if v != c.want || i != c.at {
					t.Fatalf("verdict %d at look %d, want %d at look %d", v, i, c.want, c.at)
				}
				return
			}
		})
	}
}

package pagejs

import (
	"slices"
	"strings"
	"testing"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
)

// TestEveryKindRefuses: every Kind this package names has a refusal in
// kindRefusals (a closed reason of the surface, or left to its cause on
// purpose), and the table holds no Kind the package does not name. A new
// Kind without a row fails here, not in a model's result as "internal".
func TestEveryKindRefuses(t *testing.T) {
	named := 0
	for k := Kind(0); int(k) < len(kindNames); k++ {
		named++
		rf, ok := kindRefusals[k]
		if !ok {
			t.Errorf("Kind %s has no refusal in kindRefusals", k)
			continue
		}
		if !refusalDecided(rf) && !slices.Contains(surface.ReasonValues, rf.reason) {
			t.Errorf("Kind %s refuses with %q, which is not a surface reason", k, rf.reason)
		}
	}
	if named == 0 || len(kindRefusals) != named {
		t.Errorf("%d named Kinds, %d refusals: the table names a Kind the package does not", named, len(kindRefusals))
	}
	for k := range kindRefusals {
		if strings.HasPrefix(k.String(), "kind(") {
			t.Errorf("kindRefusals holds unnamed %s", k)
		}
	}
}

// refusalDecided: every Kind of this package has its reason (none is left to
// its cause).
func refusalDecided(kindRefusal) bool { return false }

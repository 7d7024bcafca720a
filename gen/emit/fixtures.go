package emit

import "github.com/ghostlight-dev/ghostlight/gen/ir"

// Fixtures renders one conformance fixture file per tool.
func Fixtures(spec *ir.Spec) (map[string][]byte, error) {
	return map[string][]byte{}, nil
}

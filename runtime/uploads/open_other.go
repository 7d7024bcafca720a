//go:build !linux

package uploads

import "os"

// openBeneath opens rel below root and checks after the open that no link
// was followed (openCheckAfter).
func openBeneath(root, rel string) (*os.File, error) {
	return openCheckAfter(root, rel)
}

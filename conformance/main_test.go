package conformance

import (
	"os"
	"path/filepath"
	"testing"
)

// TestMain gives every server these tests start a private state and config
// home (so no audit line or policy file of the person running the tests is
// read or written), and removes the binary built for the live tests.
func TestMain(m *testing.M) {
	os.Exit(run(m))
}

func run(m *testing.M) int {
	home, err := os.MkdirTemp("", "ghostlight-conformance-home-")
	if err != nil {
		return 1
	}
	defer os.RemoveAll(home)
	for _, v := range []string{"XDG_STATE_HOME", "XDG_CONFIG_HOME"} {
		if err := os.Setenv(v, filepath.Join(home, v)); err != nil {
			return 1
		}
	}
	code := m.Run()
	if binPath != "" {
		_ = os.RemoveAll(filepath.Dir(binPath))
	}
	return code
}

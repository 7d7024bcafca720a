package main

import (
	"os"
	"path/filepath"
	"testing"
)

// TestMain keeps the servers these tests start away from the real state and
// config homes, and removes the binary built for them.
func TestMain(m *testing.M) {
	os.Exit(run(m))
}

func run(m *testing.M) int {
	home, err := os.MkdirTemp("", "ghostlight-cmd-home-")
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

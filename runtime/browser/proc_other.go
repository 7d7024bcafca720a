//go:build !unix

package browser

import "os"

func killGroup(pid int) {
	if p, err := os.FindProcess(pid); err == nil && pid > 1 {
		_ = p.Kill()
	}
}

// pidAlive cannot be answered portably; treating every pid as alive keeps the stale
// profile sweep from touching anything.
func pidAlive(int) bool { return true }

// lockFile cannot mark ownership portably here; directories are still removed by their
// owner, and tryLock never reports an owner gone, so the sweep touches nothing.
func lockFile(*os.File) error { return nil }

func tryLock(*os.File) bool { return false }

//go:build unix

package browser

import (
	"errors"
	"syscall"
)

// killGroup kills the process group the launcher gave the browser (it starts Chromium
// with Setpgid, so the group id is the browser's pid).
func killGroup(pid int) {
	if pid <= 1 {
		return
	}
	_ = syscall.Kill(-pid, syscall.SIGKILL)
	_ = syscall.Kill(pid, syscall.SIGKILL)
}

// pidAlive reports whether a process with pid exists (EPERM still means it exists).
func pidAlive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || !errors.Is(err, syscall.ESRCH)
}

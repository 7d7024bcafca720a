//go:build unix

package browser

import (
	"errors"
	"os"
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

// lockFile takes the exclusive flock that marks f's directory as owned by this process.
func lockFile(f *os.File) error {
	return syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
}

// tryLock reports whether f's flock was free (its owner is gone) and is now held by f.
func tryLock(f *os.File) bool {
	return syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB) == nil
}

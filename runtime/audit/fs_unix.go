//go:build linux || darwin || freebsd

package audit

import (
	"os"
	"syscall"
)

// noFollow refuses a symbolic link in the file's own name: a link planted
// in the audit directory must not redirect the audit elsewhere.
const noFollow = syscall.O_NOFOLLOW

// lockFile takes an exclusive advisory lock on the open audit file, so
// servers sharing one file (several clients each start one) write and
// rotate it one at a time.
func lockFile(f *os.File) error {
	for {
		err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX)
		if err != syscall.EINTR {
			return err
		}
	}
}

func unlockFile(f *os.File) { _ = syscall.Flock(int(f.Fd()), syscall.LOCK_UN) }

// lockShared lets a reader see only whole lines: writers hold the lock
// exclusively for each append.
func lockShared(f *os.File) error {
	for {
		err := syscall.Flock(int(f.Fd()), syscall.LOCK_SH)
		if err != syscall.EINTR {
			return err
		}
	}
}

// freeBytes is the space an unprivileged writer may still use on the file's
// file system (ok false when it cannot be told).
func freeBytes(f *os.File) (uint64, bool) {
	var st syscall.Statfs_t
	if err := syscall.Fstatfs(int(f.Fd()), &st); err != nil {
		return 0, false
	}
	return uint64(st.Bavail) * uint64(st.Bsize), true
}

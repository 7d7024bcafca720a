//go:build !(linux || darwin || freebsd)

package audit

import "os"

// On other systems the audit runs without a cross-process lock or a free
// space check: one server per file, and a full disk is met at write time.
const noFollow = 0

func lockFile(*os.File) error           { return nil }
func lockShared(*os.File) error         { return nil }
func unlockFile(*os.File)               {}
func freeBytes(*os.File) (uint64, bool) { return 0, false }

//go:build unix

package uploads

import (
	"io/fs"
	"syscall"
)

// linkCount is the open file's hard-link count.
func linkCount(fi fs.FileInfo) (uint64, bool) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return 0, false
	}
	return uint64(st.Nlink), true
}

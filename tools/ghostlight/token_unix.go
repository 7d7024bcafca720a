//go:build unix

package main

import (
	"fmt"
	"io/fs"
	"os"
	"syscall"
)

// ownedByMe refuses a token file another user owns: its owner could read
// or replace the token.
func ownedByMe(fi fs.FileInfo, path string) error {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok || int(st.Uid) == os.Getuid() {
		return nil
	}
	return fmt.Errorf("--token-file: %s is owned by uid %d, not by you (uid %d): write a token file of your own and chmod 600 it", path, st.Uid, os.Getuid())
}

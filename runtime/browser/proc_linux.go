//go:build linux

package browser

import (
	"bytes"
	"os"
	"strconv"
	"syscall"
)

// killByArg kills every process whose command line mentions arg. The executor passes only
// its own unique profile dir, so this reaches exactly the helpers of a browser it launched
// (crashpad handlers and zygotes can sit outside the browser's process group).
func killByArg(arg string) {
	if arg == "" {
		return
	}
	needle := []byte(arg)
	self := os.Getpid()
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return
	}
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == self || pid <= 1 {
			continue
		}
		cmd, err := os.ReadFile("/proc/" + e.Name() + "/cmdline")
		if err != nil || !bytes.Contains(cmd, needle) {
			continue
		}
		_ = syscall.Kill(pid, syscall.SIGKILL)
	}
}

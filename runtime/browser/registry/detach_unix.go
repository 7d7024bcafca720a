//go:build unix

package registry

import (
	"os/exec"
	"syscall"
)

// detach starts the browser in a session of its own, so neither the command's exit
// nor a signal to its terminal's process group ends it.
func detach(cmd *exec.Cmd) { cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true} }

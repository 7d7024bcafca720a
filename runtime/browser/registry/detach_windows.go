//go:build windows

package registry

import (
	"os/exec"
	"syscall"
)

// detach starts the browser without a console of its own and in a new process group,
// so the command's exit and its console's Ctrl+C do not end it.
func detach(cmd *exec.Cmd) {
	const detachedProcess, newProcessGroup = 0x00000008, 0x00000200
	cmd.SysProcAttr = &syscall.SysProcAttr{CreationFlags: detachedProcess | newProcessGroup}
}

//go:build unix && !linux

package browser

import "syscall"

// pipeSupported: the launched browser is driven over its DevTools pipe.
const pipeSupported = true

// pipeProcAttr starts the browser in a process group of its own (stop kills the
// group). There is no parent-death signal here: a killed Ghostlight's browser
// exits because its DevTools pipe closed (Chromium ends when it reads EOF there).
func pipeProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true}
}

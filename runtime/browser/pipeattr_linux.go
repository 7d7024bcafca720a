//go:build linux

package browser

import "syscall"

// pipeSupported: the launched browser is driven over its DevTools pipe.
const pipeSupported = true

// pipeProcAttr starts the browser in a process group of its own (stop kills the
// group) with SIGKILL as its parent-death signal: a Ghostlight that is killed
// takes its browser with it, as leakless did for the port path.
func pipeProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}

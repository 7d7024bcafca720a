//go:build !unix

package browser

import "syscall"

// pipeSupported: os/exec cannot hand a child extra file descriptors here, so the
// launched browser is driven over a loopback DevTools port (rod's launcher, with
// leakless), as before the pipe.
const pipeSupported = false

func pipeProcAttr() *syscall.SysProcAttr { return nil }

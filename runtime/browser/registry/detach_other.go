//go:build !unix && !windows

package registry

import "os/exec"

// detach: this platform has no session to leave.
func detach(*exec.Cmd) {}

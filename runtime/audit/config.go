package audit

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
)

// Config places and bounds the audit file (the policy's audit: {path,
// max_bytes, keep}, or the --audit-path flag). Zero values take the defaults.
type Config struct {
	// Path of the live file; "" is DefaultPath(). Rotated files sit beside
	// it as Path.1 (newest) … Path.Keep (oldest).
	Path string
	// MaxBytes is the size at which the file rotates (audit_max_bytes).
	MaxBytes int64
	// Keep is how many rotated files are kept (audit_keep).
	Keep int
}

// FileName is the audit file's name in its default directory.
const FileName = "audit.jsonl"

// DefaultPath is $XDG_STATE_HOME/ghostlight/audit.jsonl, with the XDG
// default ~/.local/state when the variable is unset or not absolute.
func DefaultPath() (string, error) {
	if d := os.Getenv("XDG_STATE_HOME"); d != "" && filepath.IsAbs(d) {
		return filepath.Join(d, "ghostlight", FileName), nil
	}
	home, err := os.UserHomeDir()
	if err != nil || home == "" {
		return "", errors.New("no home directory for the default audit path; set XDG_STATE_HOME or --audit-path")
	}
	return filepath.Join(home, ".local", "state", "ghostlight", FileName), nil
}

// Resolve fills the defaults and holds the bounds. A value outside its bound
// is an error, not a clamp: the policy said something the writer cannot do.
func (c Config) Resolve() (Config, error) {
	if c.Path == "" {
		p, err := DefaultPath()
		if err != nil {
			return c, err
		}
		c.Path = p
	}
	abs, err := filepath.Abs(c.Path)
	if err != nil {
		return c, fmt.Errorf("audit path: %w", err)
	}
	c.Path = abs
	if c.MaxBytes == 0 {
		c.MaxBytes = surface.AuditMaxBytesDefault
	}
	if c.Keep == 0 {
		c.Keep = surface.AuditKeepDefault
	}
	if c.MaxBytes < surface.AuditMaxBytesMin || c.MaxBytes > surface.AuditMaxBytesMax {
		return c, fmt.Errorf("audit max_bytes %d is outside %d…%d", c.MaxBytes, surface.AuditMaxBytesMin, surface.AuditMaxBytesMax)
	}
	if c.Keep < surface.AuditKeepMin || c.Keep > surface.AuditKeepMax {
		return c, fmt.Errorf("audit keep %d is outside %d…%d", c.Keep, surface.AuditKeepMin, surface.AuditKeepMax)
	}
	return c, nil
}

// rotated names the i-th rotated file (1 is the newest).
// lockPath is the file whose lock every writer and reader of path takes.
func lockPath(path string) string { return path + ".lock" }

func rotated(path string, i int) string { return fmt.Sprintf("%s.%d", path, i) }

// rotatedIndex is i for Path.i (0 for Path itself or another name).
func rotatedIndex(path, name string) int {
	n, err := strconv.Atoi(strings.TrimPrefix(name, path+"."))
	if err != nil || n < 1 || !strings.HasPrefix(name, path+".") {
		return 0
	}
	return n
}

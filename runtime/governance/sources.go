package governance

import (
	"path/filepath"
	"strings"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
)

// File is one layer file the loader reads.
type File struct {
	Layer string // organization, user or workspace
	Path  string
	// Explicit: an environment variable named it, so it must exist.
	Explicit bool
}

// Key is the organization's pinned public key, set by the installation.
type Key struct {
	Path     string
	Explicit bool
}

// CommandLine is the command-line layer: the serve flags that duplicate
// policy. Empty values say nothing.
type CommandLine struct {
	WithholdTargetNames bool   // --withhold-target-names: privacy.preserve_target_names: false
	Startup             string // --startup: browser.startup
	AllowDownloads      bool   // --allow-downloads: downloads: allow
}

// Config is what the loader reads.
type Config struct {
	Files       []File
	Key         Key
	CommandLine CommandLine
	// DefaultStartup is the startup posture when no layer sets one (auto, or
	// connect when an endpoint is configured).
	DefaultStartup string
	// Endpoint: a DevTools endpoint is configured (--browser-endpoint). It
	// decides browser.isolation when no layer sets it: a browser the person
	// opened prepared (connect or manual startup without an endpoint) is
	// shared, every other one (launched, a pool, a container) is per session.
	Endpoint bool
}

// Discover finds the layer files and the pinned key from the environment
// (lookup is os.LookupEnv in the server), the working directory and the
// home directory. An override set to "" means that layer has no file.
func Discover(lookup func(string) (string, bool), cwd, home string) ([]File, Key) {
	var files []File
	for _, l := range surface.PolicyLayers {
		if l.Path == "" {
			continue
		}
		if v, ok := lookup(l.Env); ok {
			if v != "" {
				files = append(files, File{Layer: l.Name, Path: abs(v, cwd), Explicit: true})
			}
			continue
		}
		p := l.Path
		if rest, ok := strings.CutPrefix(p, "$XDG_CONFIG_HOME/"); ok {
			base, _ := lookup("XDG_CONFIG_HOME")
			if base == "" || !filepath.IsAbs(base) {
				if home == "" {
					continue
				}
				base = filepath.Join(home, ".config")
			}
			p = filepath.Join(base, rest)
		}
		files = append(files, File{Layer: l.Name, Path: abs(p, cwd)})
	}
	key := Key{Path: surface.PolicyOrgKeyPath}
	if v, ok := lookup(surface.PolicyOrgKeyEnv); ok {
		key = Key{Path: abs(v, cwd), Explicit: v != ""}
		if v == "" {
			key.Path = ""
		}
	}
	return files, key
}

func abs(p, cwd string) string {
	if filepath.IsAbs(p) || cwd == "" {
		return filepath.Clean(p)
	}
	return filepath.Join(cwd, p)
}

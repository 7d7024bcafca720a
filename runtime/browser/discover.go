package browser

import (
	"os"
	"os/exec"
	"path/filepath"
)

// Installed is a browser binary found on this machine.
type Installed struct {
	Name string // human name, e.g. "Chromium"
	Path string // the path it was found at
}

func (i Installed) String() string { return i.Name + " (" + i.Path + ")" }

// candidates are the PATH names tried in order, with the name shown to people.
var candidates = []struct{ bin, name string }{
	{"chromium", "Chromium"},
	{"chromium-browser", "Chromium"},
	{"google-chrome", "Google Chrome"},
	{"google-chrome-stable", "Google Chrome"},
	{"chrome", "Google Chrome"},
}

// FindBrowsers lists the browsers that could serve: explicit first (when it is an
// executable file), then PATH candidates, without duplicates of the same binary.
func FindBrowsers(explicit string) []Installed {
	var out []Installed
	seen := map[string]bool{}
	add := func(path, name string) {
		real, err := filepath.EvalSymlinks(path)
		if err != nil {
			real = path
		}
		if seen[real] {
			return
		}
		seen[real] = true
		out = append(out, Installed{Name: name, Path: path})
	}
	if explicit != "" {
		if st, err := os.Stat(explicit); err == nil && !st.IsDir() && st.Mode()&0o111 != 0 {
			add(explicit, filepath.Base(explicit))
		}
	}
	for _, c := range candidates {
		if p, err := exec.LookPath(c.bin); err == nil {
			add(p, c.name)
		}
	}
	return out
}

// wrapperTargets are the real binaries behind distribution wrapper scripts.
// Debian's /usr/bin/chromium is a shell script that sources /etc/chromium.d
// (which breaks when /dev/shm is mounted twice, and adds flags of its own);
// launching the binary directly keeps startup deterministic.
var wrapperTargets = []string{"/usr/lib/chromium/chromium", "/usr/lib/chromium-browser/chromium-browser"}

// launchable returns the executable to start for a found browser path.
func launchable(path string) string {
	f, err := os.Open(path)
	if err != nil {
		return path
	}
	head := make([]byte, 2)
	_, err = f.Read(head)
	f.Close()
	if err != nil || string(head) != "#!" {
		return path
	}
	for _, t := range wrapperTargets {
		if st, err := os.Stat(t); err == nil && !st.IsDir() && st.Mode()&0o111 != 0 {
			return t
		}
	}
	return path
}

package browser

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
)

// Installed is a browser binary found on this machine.
type Installed struct {
	Name string // product name, shown to people and models: "Chromium", "Google Chrome", …
	Slug string // the product's registration name: "chromium", "chrome", …
	Path string // the path it was found at (for people and logs, never for models)
}

func (i Installed) String() string { return i.Name + " (" + i.Path + ")" }

// product is one Chromium-family browser Ghostlight can drive, and where each platform
// installs it. Order matters: it is the order browsers are listed in.
type product struct {
	name, slug string
	bins       []string // names looked up on PATH (Linux and macOS)
	linux      []string // absolute locations
	mac        []string // executables inside app bundles, under /Applications and ~/Applications
	win        []string // under %ProgramFiles%, %ProgramFiles(x86)% and %LocalAppData%
	home       []string // globs under the home directory (test builds that tools download)
}

var products = []product{
	{name: "Chromium", slug: "chromium",
		bins:  []string{"chromium", "chromium-browser"},
		linux: []string{"/usr/bin/chromium", "/usr/bin/chromium-browser", "/snap/bin/chromium"},
		mac:   []string{"Chromium.app/Contents/MacOS/Chromium"},
		win:   []string{`Chromium\Application\chrome.exe`}},
	{name: "Google Chrome", slug: "chrome",
		bins:  []string{"google-chrome", "google-chrome-stable", "chrome"},
		linux: []string{"/opt/google/chrome/chrome"},
		mac:   []string{"Google Chrome.app/Contents/MacOS/Google Chrome"},
		win:   []string{`Google\Chrome\Application\chrome.exe`}},
	{name: "Chrome for Testing", slug: "chrome-for-testing",
		bins: []string{"chrome-for-testing"},
		mac:  []string{"Google Chrome for Testing.app/Contents/MacOS/Google Chrome for Testing"},
		home: []string{
			".cache/puppeteer/chrome/linux*/chrome-linux64/chrome",
			".cache/puppeteer/chrome/mac*/chrome-mac*/Google Chrome for Testing.app/Contents/MacOS/Google Chrome for Testing",
			".cache/puppeteer/chrome/win64*/chrome-win64/chrome.exe",
		}},
	{name: "Microsoft Edge", slug: "edge",
		bins:  []string{"microsoft-edge", "microsoft-edge-stable"},
		linux: []string{"/opt/microsoft/msedge/msedge"},
		mac:   []string{"Microsoft Edge.app/Contents/MacOS/Microsoft Edge"},
		win:   []string{`Microsoft\Edge\Application\msedge.exe`}},
	{name: "Brave", slug: "brave",
		bins:  []string{"brave-browser", "brave"},
		linux: []string{"/opt/brave.com/brave/brave"},
		mac:   []string{"Brave Browser.app/Contents/MacOS/Brave Browser"},
		win:   []string{`BraveSoftware\Brave-Browser\Application\brave.exe`}},
}

// ProductNames are the browsers Ghostlight knows, in listing order.
func ProductNames() []string {
	out := make([]string, len(products))
	for i, p := range products {
		out[i] = p.name
	}
	return out
}

// ProductSlug is the registration name of a product given by its name or its slug
// (case-insensitive), and false for a browser Ghostlight does not know.
func ProductSlug(nameOrSlug string) (string, bool) {
	s := strings.TrimSpace(nameOrSlug)
	for _, p := range products {
		if strings.EqualFold(s, p.name) || strings.EqualFold(s, p.slug) {
			return p.slug, true
		}
	}
	return "", false
}

// Places says where FindBrowsers looks. The zero value of each field selects this
// machine's; tests point Root and Home at a fake tree and set GOOS to read another
// platform's layout.
type Places struct {
	GOOS     string                       // "" = runtime.GOOS
	Root     string                       // prefix of absolute locations ("" = none)
	Home     string                       // "" = os.UserHomeDir()
	Env      func(string) string          // nil = os.Getenv
	LookPath func(string) (string, error) // nil = exec.LookPath; set to refuse to skip PATH
}

// FindBrowsers lists the browsers that could serve on this machine: explicit first
// (when it is an executable file), then each product once, found on PATH or at its
// platform's standard locations.
func FindBrowsers(explicit string) []Installed { return searchPlaces.Find(explicit) }

// searchPlaces is where FindBrowsers looks: this machine's places (tests point it at a
// fake tree).
var searchPlaces Places

// Find is FindBrowsers over these places. A product is listed once (its first location
// wins), and one binary never under two names.
func (pl Places) Find(explicit string) []Installed {
	pl = pl.withDefaults()
	var out []Installed
	seenBin := map[string]bool{}
	seenName := map[string]bool{}
	add := func(path string, p product) bool {
		if !executableFile(path) {
			return false
		}
		real, err := filepath.EvalSymlinks(path)
		if err != nil {
			real = path
		}
		if seenBin[real] || seenName[p.name] {
			return seenName[p.name]
		}
		seenBin[real], seenName[p.name] = true, true
		out = append(out, Installed{Name: p.name, Slug: p.slug, Path: path})
		return true
	}
	if explicit != "" {
		add(explicit, productOf(explicit))
	}
	for _, p := range products {
		for _, path := range pl.locations(p) {
			if add(path, p) {
				break
			}
		}
	}
	return out
}

func (pl Places) withDefaults() Places {
	if pl.GOOS == "" {
		pl.GOOS = runtime.GOOS
	}
	if pl.Home == "" {
		pl.Home, _ = os.UserHomeDir()
	}
	if pl.Env == nil {
		pl.Env = os.Getenv
	}
	if pl.LookPath == nil {
		pl.LookPath = exec.LookPath
	}
	return pl
}

// locations lists where p may be installed, PATH first.
func (pl Places) locations(p product) []string {
	var out []string
	if pl.GOOS != "windows" {
		for _, b := range p.bins {
			if path, err := pl.LookPath(b); err == nil {
				out = append(out, path)
			}
		}
	}
	switch pl.GOOS {
	case "darwin":
		for _, apps := range []string{filepath.Join(pl.Root, "/Applications"), filepath.Join(pl.Home, "Applications")} {
			for _, m := range p.mac {
				out = append(out, filepath.Join(apps, m))
			}
		}
	case "windows":
		for _, env := range []string{"ProgramFiles", "ProgramFiles(x86)", "LocalAppData"} {
			base := pl.Env(env)
			if base == "" {
				continue
			}
			for _, w := range p.win {
				out = append(out, filepath.Join(base, filepath.FromSlash(strings.ReplaceAll(w, `\`, "/"))))
			}
		}
	default:
		for _, l := range p.linux {
			out = append(out, filepath.Join(pl.Root, l))
		}
	}
	if pl.Home != "" {
		for _, g := range p.home {
			matches, _ := filepath.Glob(filepath.Join(pl.Home, filepath.FromSlash(g)))
			// Newest build last in lexical order (versions sort); prefer it.
			for i := len(matches) - 1; i >= 0; i-- {
				out = append(out, matches[i])
			}
		}
	}
	return out
}

// productOf names a configured binary by its file name; a name Ghostlight does not know
// keeps the file name (never its directory).
func productOf(path string) product {
	base := strings.ToLower(strings.TrimSuffix(filepath.Base(path), ".exe"))
	lower := strings.ToLower(path)
	pick := func(slug string) product {
		for _, p := range products {
			if p.slug == slug {
				return p
			}
		}
		return product{}
	}
	switch {
	case strings.Contains(lower, "chrome for testing") || strings.Contains(lower, "chrome-for-testing") || strings.Contains(lower, "chrome-linux64"):
		return pick("chrome-for-testing")
	case strings.HasPrefix(base, "chromium"):
		return pick("chromium")
	case strings.HasPrefix(base, "google-chrome") || base == "chrome" || base == "google chrome":
		return pick("chrome")
	case strings.HasPrefix(base, "msedge") || strings.HasPrefix(base, "microsoft-edge") || base == "microsoft edge":
		return pick("edge")
	case strings.HasPrefix(base, "brave"):
		return pick("brave")
	}
	return product{name: filepath.Base(path), slug: base}
}

func executableFile(path string) bool {
	st, err := os.Stat(path)
	if err != nil || st.IsDir() {
		return false
	}
	return runtime.GOOS == "windows" || st.Mode()&0o111 != 0
}

// Launchable is the executable to start for a found browser path (see launchable).
func Launchable(path string) string { return launchable(path) }

// ShortTempDir is a temp directory under which Chromium's singleton socket path fits
// the kernel's limit: TMPDIR when it is short enough, else /tmp.
func ShortTempDir() string { return browserTmpBase(tempBase("")) }

// wrapperTargets are the real binaries behind distribution wrapper scripts.
// Debian's /usr/bin/chromium is a shell script that sources /etc/chromium.d
// (which breaks when /dev/shm is mounted twice, and adds flags of its own);
// launching the binary directly keeps startup deterministic.
var wrapperTargets = []string{"/usr/lib/chromium/chromium", "/usr/lib/chromium-browser/chromium-browser"}

// launchable returns the executable to start for a found browser path: the real binary
// when path is a wrapper script of the same name, path itself otherwise (a script of
// another name is someone's own launcher, and runs as given).
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
		if filepath.Base(t) != filepath.Base(path) {
			continue
		}
		if st, err := os.Stat(t); err == nil && !st.IsDir() && st.Mode()&0o111 != 0 {
			return t
		}
	}
	return path
}

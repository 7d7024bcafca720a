package registry

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/ghostlight-dev/ghostlight/generated/limits"
	"github.com/ghostlight-dev/ghostlight/runtime/browser"
)

// ErrOwnedElsewhere is Open's answer for a registration another installation wrote.
var ErrOwnedElsewhere = errors.New("another Ghostlight installation owns the browser registration")

// OpenOptions shape how a registered browser starts.
type OpenOptions struct {
	Headless bool          // no window (machines without a display, tests)
	Timeout  time.Duration // how long the browser may take to listen (0 = 30 s)
	// Installed is what is installed now (nil = browser.FindBrowsers("")): a stale
	// registration is repaired against it first.
	Installed []browser.Installed
}

// Opened reports an Open.
type Opened struct {
	Browser  browser.Installed
	Endpoint string // the DevTools websocket URL it listens on
	Already  bool   // it was running already; nothing was started
	PID      int    // the started process (0 when Already)
}

// Open starts the browser registered as name (a product name or its registration
// name, any case) the registered way: its binary, its dedicated profile, DevTools on
// 127.0.0.1 at a port it picks and writes to DevToolsActivePort. The process is
// detached (its own session, output to profiles/<name>.log), so it outlives the
// command; Open returns once it listens.
func (s *Store) Open(ctx context.Context, name string, o OpenOptions) (Opened, error) {
	slug, ok := browser.ProductSlug(name)
	if !ok {
		return Opened{}, fmt.Errorf("%q is not a browser Ghostlight knows (%s)", name, strings.Join(browser.ProductNames(), ", "))
	}
	installed := o.Installed
	if installed == nil {
		installed = browser.FindBrowsers("")
	}
	var in *browser.Installed
	for i := range installed {
		if installed[i].Slug == slug {
			in = &installed[i]
		}
	}
	if in == nil {
		return Opened{}, fmt.Errorf("%s is not installed where Ghostlight looks (PATH and the standard locations)", productName(slug))
	}
	st := s.Inspect(ctx, []browser.Installed{*in})[0]
	switch {
	case st.Ownership == Foreign && st.Registration != nil:
		return Opened{}, fmt.Errorf("%w (written by %s): run `ghostlight install` from the installation that should own the browsers", ErrOwnedElsewhere, st.Registration.Owner.Binary)
	case st.Registration == nil:
		return Opened{}, fmt.Errorf("%s is not prepared for Ghostlight (%s): run `ghostlight install` first", in.Name, st.Problem)
	case !st.Usable:
		return Opened{}, fmt.Errorf("%s's registration cannot be used (%s): run `ghostlight install` to rewrite it", in.Name, st.Problem)
	case st.Live != "":
		return Opened{Browser: *in, Endpoint: st.Live, Already: true}, nil
	}
	r := st.Registration
	timeout := o.Timeout
	if timeout <= 0 {
		timeout = time.Duration(limits.RegistryStartMsMax) * time.Millisecond
	}
	// A file left by a browser that is gone would be read as this start's.
	_ = os.Remove(filepath.Join(r.Profile, activePortFile))
	logf, err := os.OpenFile(s.logPath(slug), os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600)
	if err != nil {
		return Opened{}, err
	}
	defer logf.Close()
	cmd := exec.Command(browser.Launchable(r.Binary), openArgs(r, o.Headless)...)
	cmd.Env = browserEnv()
	cmd.Stdin, cmd.Stdout, cmd.Stderr = nil, logf, logf
	detach(cmd)
	if err := cmd.Start(); err != nil {
		return Opened{}, fmt.Errorf("starting %s: %w", in.Name, err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	wait, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	tick := time.NewTicker(time.Duration(limits.RegistryPollMsMax) * time.Millisecond)
	defer tick.Stop()
	for {
		if u, err := s.live(wait, r); err == nil {
			return Opened{Browser: *in, Endpoint: u, PID: cmd.Process.Pid}, nil
		}
		select {
		case err := <-exited:
			return Opened{}, fmt.Errorf("%s exited before it listened (%v)%s", in.Name, err, printed(s.logPath(slug)))
		case <-wait.Done():
			_ = cmd.Process.Kill()
			return Opened{}, fmt.Errorf("%s did not listen within %s%s", in.Name, timeout, printed(s.logPath(slug)))
		case <-tick.C:
		}
	}
}

// openArgs are the switches of a registered start: the dedicated profile, DevTools on
// loopback at a port the browser picks, no first-run interruptions. Headless adds the
// switches that keep a windowless browser quiet offline.
func openArgs(r *Registration, headless bool) []string {
	args := []string{
		"--user-data-dir=" + r.Profile,
		"--remote-debugging-port=0",
		"--remote-debugging-address=" + loopback,
		"--no-first-run",
		"--no-default-browser-check",
	}
	if headless {
		args = append(args, "--headless", "--disable-gpu", "--disable-background-networking",
			"--disable-component-update", "--disable-sync")
	}
	if os.Geteuid() == 0 {
		args = append(args, "--no-sandbox") // Chromium refuses to run as root with its sandbox
	}
	return args
}

// browserEnv is this environment, with a TMPDIR short enough for Chromium's singleton
// socket (a long TMPDIR makes it abort).
func browserEnv() []string {
	env := os.Environ()
	short := browser.ShortTempDir()
	if short == os.TempDir() {
		return env
	}
	out := env[:0:0]
	for _, kv := range env {
		if !strings.HasPrefix(kv, "TMPDIR=") {
			out = append(out, kv)
		}
	}
	return append(out, "TMPDIR="+short)
}

// printed is the browser's first lines that say FATAL or ERROR, for the error message.
func printed(path string) string {
	f, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	var lines []string
	sc := bufio.NewScanner(f)
	for sc.Scan() && len(lines) < 3 {
		if l := sc.Text(); strings.Contains(l, "FATAL") || strings.Contains(l, "ERROR") {
			lines = append(lines, strings.TrimSpace(l))
		}
	}
	if len(lines) == 0 {
		return "; its output is in " + path
	}
	return ": " + strings.Join(lines, " | ") + " (all of it in " + path + ")"
}

func productName(slug string) string {
	for _, n := range browser.ProductNames() {
		if s, _ := browser.ProductSlug(n); s == slug {
			return n
		}
	}
	return slug
}

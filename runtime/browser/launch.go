package browser

import (
	"context"
	"errors"
	"github.com/go-rod/rod"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/go-rod/rod/lib/launcher"
	"github.com/go-rod/rod/lib/launcher/flags"
)

// process is a Chromium this executor launched, with everything it must remove.
type process struct {
	pid    int
	root   string        // temp dir holding profile, XDG config and TMPDIR
	exited chan struct{} // closed when the browser process has exited
}

const rootPrefix = "ghostlight-chromium-"

// sweepStale removes profile dirs a previous executor could not (its process was
// killed): only our own prefix, only when the profile's lock names this host and a
// process that no longer exists.
func sweepStale(tempDir string) {
	if tempDir == "" {
		tempDir = os.TempDir()
	}
	host, err := os.Hostname()
	if err != nil {
		return
	}
	dirs, _ := filepath.Glob(filepath.Join(tempDir, rootPrefix+"*"))
	for _, d := range dirs {
		lock, err := os.Readlink(filepath.Join(d, "profile", "SingletonLock"))
		if err != nil {
			continue
		}
		i := strings.LastIndexByte(lock, '-')
		if i <= 0 || lock[:i] != host {
			continue
		}
		pid, err := strconv.Atoi(lock[i+1:])
		if err != nil || pid <= 0 || pidAlive(pid) {
			continue
		}
		_ = os.RemoveAll(d)
	}
}

// disabledFeatures keeps rod's defaults and drops the omnibox popup WebUI targets that
// every new window of new-headless Chromium would otherwise spawn (two renderers' worth
// of "browser_ui" targets per window, measured).
var disabledFeatures = []string{"site-per-process", "TranslateUI", "WebUIOmniboxPopup", "WebUIOmniboxAimPopup"}

// launch starts bin with a fresh profile and returns the DevTools websocket URL.
// Rod never downloads a browser here: the binary is always explicit.
func launch(ctx context.Context, cfg Config, bin string) (*process, string, error) {
	sweepStale(cfg.TempDir)
	root, err := os.MkdirTemp(cfg.TempDir, rootPrefix)
	if err != nil {
		return nil, "", err
	}
	profile := filepath.Join(root, "profile")
	xdg := filepath.Join(root, "xdg")
	tmp := filepath.Join(root, "tmp")
	for _, d := range []string{profile, xdg, tmp} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			_ = os.RemoveAll(root)
			return nil, "", err
		}
	}

	l := launcher.New().Context(ctx).
		Bin(launchable(bin)).
		UserDataDir(profile).
		Headless(cfg.Headless).
		Leakless(true).
		Devtools(false).
		RemoteDebuggingPort(0).
		Delete(flags.ProxyServer).
		Set("disable-gpu").
		Set("disable-background-networking").
		Set("disable-component-update").
		Set("disable-sync").
		Set("no-first-run").
		Set("disable-quic").
		// Crash reports and temp files land in root instead of $HOME/.config and /tmp, so
		// removing root removes every trace of the run.
		Env(append(os.Environ(), "XDG_CONFIG_HOME="+xdg, "TMPDIR="+tmp)...)
	if os.Geteuid() == 0 {
		l.Set(flags.NoSandbox) // Chromium refuses to run as root with its sandbox
	}
	disabled := append([]string(nil), disabledFeatures...)
	for _, f := range cfg.ExtraFlags {
		name, val, hasVal := strings.Cut(strings.TrimLeft(strings.TrimSpace(f), "-"), "=")
		if name == "" || strings.HasPrefix(name, "rod-") {
			continue
		}
		switch {
		case name == "disable-features" && hasVal:
			disabled = append(disabled, strings.Split(val, ",")...)
		case hasVal:
			l.Set(flags.Flag(name), val)
		default:
			l.Set(flags.Flag(name))
		}
	}
	l.Set("disable-features", disabled...)

	u, err := l.Launch()
	if err != nil {
		if pid := l.PID(); pid > 0 {
			killGroup(pid)
		}
		killByArg(root)
		_ = os.RemoveAll(root)
		return nil, "", err
	}
	p := &process{pid: l.PID(), root: root, exited: make(chan struct{})}
	go func() {
		l.Cleanup() // waits for the process to exit, then removes the profile
		close(p.exited)
	}()
	return p, u, nil
}

// stop kills the browser's process group and anything else still naming its profile,
// waits (bounded) for the exit, and removes the temp dir.
func (p *process) stop(wait time.Duration) error {
	killGroup(p.pid)
	killByArg(p.root)
	t := time.NewTimer(wait)
	defer t.Stop()
	select {
	case <-p.exited:
	case <-t.C:
	}
	// Helpers (zygote, crashpad) may outlive the main process briefly.
	killByArg(p.root)
	var err error
	for range 5 {
		if err = os.RemoveAll(p.root); err == nil {
			return nil
		}
		time.Sleep(20 * time.Millisecond)
	}
	return errors.Join(errors.New("removing browser profile"), err)
}

// Launch starts a browser exactly as the executor does (same flags, private
// profile, process-group cleanup) and returns its DevTools URL and a stop
// function. The executor's sibling packages test against it with rod directly.
func Launch(ctx context.Context, cfg Config) (controlURL string, stop func(), err error) {
	cfg = cfg.withDefaults()
	found := FindBrowsers(cfg.Path)
	if len(found) == 0 {
		return "", nil, &Error{Kind: KindStartupManual, Op: "launch"}
	}
	p, u, err := launch(ctx, cfg, found[0].Path)
	if err != nil {
		return "", nil, err
	}
	return u, func() { _ = p.stop(cfg.CloseTimeout) }, nil
}

// LaunchRod launches like Launch and connects rod to the browser under a
// long-lived context (rod derives its event subscriptions from the context
// Connect runs under). stop closes the connection and the browser.
func LaunchRod(ctx context.Context, cfg Config) (*rod.Browser, func(), error) {
	u, stop, err := Launch(ctx, cfg)
	if err != nil {
		return nil, nil, err
	}
	b := rod.New().ControlURL(u).NoDefaultDevice()
	if err := b.Connect(); err != nil {
		stop()
		return nil, nil, err
	}
	return b, func() { _ = b.Close(); stop() }, nil
}

package browser

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/cdp"
	"github.com/go-rod/rod/lib/launcher"
	"github.com/go-rod/rod/lib/launcher/flags"
	"github.com/go-rod/rod/lib/utils"

	"github.com/ghostlight-dev/ghostlight/generated/limits"
)

// process is a Chromium this executor launched, with everything it must remove.
type process struct {
	pid    int
	root   string        // the owned dir holding profile and XDG config
	dirs   []*OwnedDir   // root's, then the browser's private TMPDIR
	exited chan struct{} // closed when the browser process has exited
	pipe   *pipeConn     // its DevTools pipe (launch_pipe.go); nil when driven over a port

	mu     sync.Mutex
	insets [2]int // outer window size minus viewport size, once measured (viewport.go)
}

// disabledFeatures keeps rod's TranslateUI and drops the omnibox popup WebUI targets
// that every new window of new-headless Chromium would otherwise spawn (two renderers'
// worth of "browser_ui" targets per window, measured). Site isolation stays on (rod
// disables it): cross-site frames run in their own processes, reached through their
// own targets (attach.go, frames.go). The back-forward cache is off: a page restored
// from it sends no request, so the host boundary could not hold a page's own
// history.back() to a host outside the call's authority.
var disabledFeatures = []string{"TranslateUI", "WebUIOmniboxPopup", "WebUIOmniboxAimPopup", "BackForwardCache"}

// LaunchFailedLog is the message of the log line a failed launch writes; refusals point
// people at it.
const LaunchFailedLog = "browser launch failed"

// silentStart is a start that never answered on its DevTools pipe within
// Config.HelloTimeout (browser_hello_ms) while the launch still had time: it was
// killed, and launch starts another. Seen once in CI (a start silent for 30 s on
// a machine where starts take 0.4 s, 2 s at worst under load), never reproduced.
type silentStart struct {
	printed string
	waited  time.Duration
}

func (s *silentStart) Error() string {
	return "the browser did not answer on its DevTools pipe within " + s.waited.String()
}

// launchAttempts bounds the starts of one launch: as many hello windows as fit in
// the launch's own bound.
func launchAttempts(cfg Config) int {
	return max(1, int(cfg.LaunchTimeout/cfg.HelloTimeout))
}

// launch starts bin with a fresh profile and returns the DevTools websocket URL,
// starting a fresh browser in place of one that went silent (silentStart), within
// ctx and launchAttempts.
func launch(ctx context.Context, cfg Config, bin string) (*process, string, error) {
	cfg = cfg.withDefaults()
	for attempt := 1; ; attempt++ {
		p, u, err := launchOnce(ctx, cfg, bin)
		var silent *silentStart
		if !errors.As(err, &silent) {
			return p, u, err
		}
		if attempt >= launchAttempts(cfg) || ctx.Err() != nil {
			return nil, "", launchFailed(cfg, bin, silent.printed, err, "")
		}
		cfg.Logger.Warn("browser start went silent; starting a fresh one", "browser", bin, "attempt", attempt, "waited_ms", cfg.HelloTimeout.Milliseconds())
	}
}

// launchOnce starts bin with a fresh profile and returns the DevTools websocket URL.
// Rod never downloads a browser here: the binary is always explicit.
//
// The profile and XDG config live in one owned dir under TempDir. The browser's TMPDIR is
// a second, short owned dir (under TempDir when Chromium's socket paths fit there, else
// under /tmp), so a long TMPDIR never makes Chromium abort with "Socket path too long".
func launchOnce(ctx context.Context, cfg Config, bin string) (*process, string, error) {
	SweepStale(cfg.TempDir)
	base := tempBase(cfg.TempDir)
	rootDir, err := MakeOwnedDir(base, ProfilePrefix)
	if err != nil {
		return nil, "", launchFailed(cfg, bin, "", err, "its profile directory could not be made in "+base)
	}
	tmpDir, err := MakeOwnedDir(browserTmpBase(base), ChromiumTmpPrefix)
	if err != nil {
		_ = rootDir.Remove()
		return nil, "", launchFailed(cfg, bin, "", err, "its temp directory could not be made")
	}
	dirs := []*OwnedDir{rootDir, tmpDir}
	removeDirs := func() {
		for _, d := range dirs {
			_ = d.Remove()
		}
	}
	root := rootDir.Path()
	profile := filepath.Join(root, "profile")
	xdg := filepath.Join(root, "xdg")
	for _, d := range []string{profile, xdg} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			removeDirs()
			return nil, "", launchFailed(cfg, bin, "", err, "its profile directory could not be made in "+base)
		}
	}

	if err := writeWallPrefs(profile); err != nil { // wallprefs.go
		removeDirs()
		return nil, "", launchFailed(cfg, bin, "", err, "its profile directory could not be made in "+base)
	}

	out := &startOutput{max: limits.LaunchOutputBytesMax}
	l := launcher.New().Context(ctx).
		Bin(launchable(bin)).
		UserDataDir(profile).
		Headless(cfg.Headless).
		Leakless(true).
		Devtools(false).
		RemoteDebuggingPort(0).
		Logger(out).
		Delete(flags.ProxyServer).
		Delete("disable-site-isolation-trials"). // rod's default turns site isolation off
		Set("disable-gpu").
		Set("disable-background-networking").
		Set("disable-component-update").
		Set("disable-sync").
		Set("no-first-run").
		Set("disable-quic").
		// WebRTC sends no UDP outside a proxy (STUN to any host; wall.go).
		Set("force-webrtc-ip-handling-policy", "disable_non_proxied_udp").
		// Windows the browser sizes by itself (a page's popup without a size) get the
		// viewport's size as their outer size; windows Ghostlight opens are fitted exactly
		// (fitViewport), and a tab a page opens from one inherits its window.
		Set("window-size", strconv.Itoa(cfg.ViewportWidth)+","+strconv.Itoa(cfg.ViewportHeight)).
		// Crash reports and temp files land in owned dirs instead of $HOME/.config and
		// /tmp, so removing those removes every trace of the run.
		Env(append(os.Environ(), "XDG_CONFIG_HOME="+xdg, "TMPDIR="+tmpDir.Path())...)
	if cfg.wallURL != "" { // every request of the default context passes the policy proxy (wall.go)
		l.Set(flags.ProxyServer, cfg.wallURL).Set("proxy-bypass-list", proxyBypass)
	}
	if cfg.Headless {
		// Headless pages have nobody to scroll with a scrollbar; without it a scrolling
		// page's capture is the full viewport width (1280, not 1265) and matches innerWidth.
		l.Set("hide-scrollbars")
	}
	if os.Geteuid() == 0 {
		l.Set(flags.NoSandbox) // Chromium refuses to run as root with its sandbox
	}
	disabled := append([]string(nil), disabledFeatures...)
	for _, f := range cfg.ExtraFlags {
		name, val, hasVal := strings.Cut(strings.TrimLeft(strings.TrimSpace(f), "-"), "=")
		if name == "" || strings.HasPrefix(name, "rod-") || wallFlag(name) {
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
	if pipeSupported {
		return launchPiped(ctx, cfg, l, out, root, dirs)
	}

	u, err := l.Launch()
	printed := out.stop()
	if err != nil {
		if pid := l.PID(); pid > 0 {
			killGroup(pid)
		}
		killByArg(root)
		removeDirs()
		if ctx.Err() != nil {
			err = errors.Join(err, context.Cause(ctx))
		}
		return nil, "", launchFailed(cfg, bin, printed, err, "")
	}
	p := &process{pid: l.PID(), root: root, dirs: dirs, exited: make(chan struct{})}
	go func() {
		l.Cleanup() // waits for the process to exit, then removes the profile
		close(p.exited)
	}()
	return p, u, nil
}

// stop kills the browser's process group and anything else still naming its profile,
// waits (bounded) for the exit, and removes its temp dirs.
func (p *process) stop(wait time.Duration) error {
	killGroup(p.pid)
	killByArg(p.root)
	if p.pipe != nil {
		_ = p.pipe.Close()
	}
	t := time.NewTimer(wait)
	defer t.Stop()
	select {
	case <-p.exited:
	case <-t.C:
	}
	// Helpers (zygote, crashpad) may outlive the main process briefly.
	killByArg(p.root)
	var errs []error
	for _, d := range p.dirs {
		if err := d.Remove(); err != nil {
			errs = append(errs, err)
		}
	}
	if len(errs) > 0 {
		return errors.Join(append([]error{errors.New("removing browser temp dirs")}, errs...)...)
	}
	return nil
}

// Launch starts a browser exactly as the executor does (same flags, private
// profile, process-group cleanup) and returns its DevTools URL and a stop
// function. The executor's sibling packages test against it with rod directly,
// or attach a server to it as to a person's browser: unlike the executor's own
// launches, this browser listens on a loopback DevTools port
// (Config.ExposeDevToolsPort), which the URL names.
func Launch(ctx context.Context, cfg Config) (controlURL string, stop func(), err error) {
	cfg.ExposeDevToolsPort = true
	p, u, err := launchFound(ctx, cfg)
	if err != nil {
		return "", nil, err
	}
	return u, func() { _ = p.stop(cfg.CloseTimeout) }, nil
}

func launchFound(ctx context.Context, cfg Config) (*process, string, error) {
	cfg = cfg.withDefaults()
	found := FindBrowsers(cfg.Path)
	if len(found) == 0 {
		return nil, "", &Error{Kind: KindStartupManual, Op: "launch"}
	}
	return launch(ctx, cfg, found[0].Path)
}

// LaunchRod launches as the executor does and connects rod to the browser
// (over its pipe, so it listens on no port unless cfg.ExposeDevToolsPort)
// under a long-lived context (rod derives its event subscriptions from the
// context Connect runs under). stop closes the connection and the browser.
func LaunchRod(ctx context.Context, cfg Config) (*rod.Browser, func(), error) {
	p, u, err := launchFound(ctx, cfg)
	if err != nil {
		return nil, nil, err
	}
	stop := func() { _ = p.stop(cfg.withDefaults().CloseTimeout) }
	b := rod.New().ControlURL(u).NoDefaultDevice()
	if p.pipe != nil {
		b = rod.New().Client(cdp.New().Logger(utils.LoggerQuiet).Start(p.pipe)).ControlURL("").NoDefaultDevice()
	}
	if err := b.Connect(); err != nil {
		stop()
		return nil, nil, err
	}
	return b, func() { _ = b.Close(); stop() }, nil
}

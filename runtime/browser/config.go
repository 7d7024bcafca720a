package browser

import (
	"github.com/ghostlight-dev/ghostlight/generated/limits"
	"github.com/ghostlight-dev/ghostlight/generated/surface"

	"log/slog"
	"time"
)

// Startup modes.
const (
	StartupAuto    = "auto"    // launch the one installed (or the configured) browser with a fresh profile
	StartupConnect = "connect" // attach to Config.Endpoint, else to a browser the person opened prepared
	StartupManual  = "manual"  // never launch: attach as connect does, otherwise refuse
)

// Reuse policies for opening a tab without a handle.
const (
	ReuseDomain = surface.BrowserNavigateReuseDomain // adopt an unbound tab on the same host when one exists
	ReuseNever  = surface.BrowserNavigateReuseNever  // always open a fresh tab
)

// History actions.
const (
	HistoryBack    = surface.BrowserHistoryActionBack
	HistoryForward = surface.BrowserHistoryActionForward
	HistoryReload  = surface.BrowserHistoryActionReload
)

// Readiness values, as document.readyState reports them.
const (
	ReadyLoading     = string(surface.ReadinessLoading)
	ReadyInteractive = string(surface.ReadinessInteractive)
	ReadyComplete    = string(surface.ReadinessComplete)
)

// Config says how the executor finds or starts its browser. The zero value of every
// operational timeout selects a default.
type Config struct {
	Startup string // StartupAuto, StartupConnect or StartupManual
	// Replica is the server's replica name (replica_chars letters and
	// digits, or ""), written right after the underscore of every tab
	// handle, so a router reads which server holds the tab.
	Replica string
	// StartupNow, when set, is read at each browser start and overrides
	// Startup (a policy reload applies from the next start); OnStart is told
	// the posture each successful start used.
	StartupNow func() string
	OnStart    func(startup string)
	Path       string // explicit browser binary, tried before PATH
	Endpoint   string // ws://… DevTools URL, or http://host:port resolved through /json/version
	// wallURL is the default context's policy proxy a launch routes through
	// (wall.go); "" launches without one (Launch, for sibling packages' tests).
	wallURL string
	// noWall creates contexts without a policy proxy: only the cost
	// measurement sets it (wall_bench_test.go), to compare.
	noWall bool
	// Isolation is IsolationSession (default: each workspace its own browser
	// context) or IsolationShared (every workspace in the default context).
	// IsolationNow, when set, is read as each workspace is made and overrides
	// it (a policy reload applies to sessions that start after it).
	Isolation    string
	IsolationNow func() string
	Headless     bool     // launch without a visible window
	ExtraFlags   []string // extra Chromium switches ("--name" or "--name=value")
	Logger       *slog.Logger
	Limits       Limits

	// TempDir is where launched profiles and staging live ("" = os.TempDir()). The
	// browser's own TMPDIR goes there too when Chromium's socket paths fit, else under /tmp.
	TempDir string
	// ViewportWidth x ViewportHeight is the viewport (innerWidth x innerHeight, CSS px)
	// of every window Ghostlight opens in a browser it launched (0 = the spec's default).
	ViewportWidth, ViewportHeight int
	// LaunchTimeout bounds starting and connecting to a browser, independent of the
	// calling context so that a short call cannot leave a half-started browser behind.
	LaunchTimeout time.Duration
	// HelloTimeout bounds how long one start may stay silent on its DevTools pipe
	// before a fresh browser replaces it, within LaunchTimeout (launch).
	HelloTimeout time.Duration
	// CloseTimeout bounds Close.
	CloseTimeout time.Duration
	// ObserveTimeout bounds the best-effort observation that still fills a Landing after a
	// call's own deadline has passed.
	ObserveTimeout time.Duration

	// ExposeDevToolsPort has a browser Ghostlight launches also listen on a
	// loopback DevTools port (DevToolsURL names it), besides the pipe Ghostlight
	// drives it over. Tests and benchmarks only, to drive the same browser
	// beside Ghostlight: the server never sets it, so a launched browser has no
	// endpoint a page or another process could reach (launch_pipe.go).
	ExposeDevToolsPort bool
	// OnAttach, when set, is told the DevTools URL of each browser the
	// executor attached to rather than launched (an endpoint, a prepared
	// browser): the server keeps pages off it (governance/selfhosts.go).
	OnAttach func(wsURL string)

	// Prepared finds browsers the person opened the way this installation prepared
	// them (ghostlight install / open). Consulted when startup is manual or connect
	// without an endpoint, or auto with several installed browsers and none configured.
	// nil: no browser is prepared.
	Prepared Prepared
}

// Limits carries the contract bounds the executor enforces defensively. The wiring fills
// it from generated constants; a zero field disables that check.
type Limits struct {
	ZoomMinPercent int
	ZoomMaxPercent int
	WindowMinWidth int
	WindowMaxWidth int
	// WindowMinHeight and WindowMaxHeight bound Resize heights.
	WindowMinHeight int
	WindowMaxHeight int
}

const (
	defaultLaunchTimeout  = time.Duration(limits.BrowserLaunchMsMax) * time.Millisecond
	defaultCloseTimeout   = time.Duration(limits.BrowserCloseMsMax) * time.Millisecond
	defaultHelloTimeout   = time.Duration(limits.BrowserHelloMsMax) * time.Millisecond
	defaultObserveTimeout = time.Duration(limits.LandingReadMsMax) * time.Millisecond
)

func (c Config) withDefaults() Config {
	if c.Startup == "" {
		c.Startup = StartupAuto
	}
	if c.Isolation != IsolationShared {
		c.Isolation = IsolationSession
	}
	if c.Logger == nil {
		c.Logger = slog.New(slog.DiscardHandler)
	}
	if c.LaunchTimeout <= 0 {
		c.LaunchTimeout = defaultLaunchTimeout
	}
	if c.HelloTimeout <= 0 {
		c.HelloTimeout = defaultHelloTimeout
	}
	if c.CloseTimeout <= 0 {
		c.CloseTimeout = defaultCloseTimeout
	}
	if c.ObserveTimeout <= 0 {
		c.ObserveTimeout = defaultObserveTimeout
	}
	if c.ViewportWidth <= 0 {
		c.ViewportWidth = limits.ViewportWidthDefault
	}
	if c.ViewportHeight <= 0 {
		c.ViewportHeight = limits.ViewportHeightDefault
	}
	return c
}

func checkRange(v, lo, hi int) bool {
	return (lo == 0 || v >= lo) && (hi == 0 || v <= hi)
}

// Command ghostlight is the Ghostlight MCP server: it lets a language model
// drive a real Chromium through 24 typed, governed tools.
//
//	ghostlight serve                                 # MCP over stdio (the default)
//	GHOSTLIGHT_TOKEN=T ghostlight serve --http 127.0.0.1:8765 # MCP over streamable HTTP at /mcp
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
	"github.com/ghostlight-dev/ghostlight/runtime/audit"
	"github.com/ghostlight-dev/ghostlight/runtime/browser"
	"github.com/ghostlight-dev/ghostlight/runtime/browser/registry"
	"github.com/ghostlight-dev/ghostlight/runtime/governance"
	"github.com/ghostlight-dev/ghostlight/runtime/handle"
	"github.com/ghostlight-dev/ghostlight/runtime/mcpedge"
	"github.com/ghostlight-dev/ghostlight/runtime/server"
)

// allowDownloads is serve's --allow-downloads, part of the command-line policy layer.
var allowDownloads bool

func main() {
	args := os.Args[1:]
	cmd := "serve"
	if len(args) > 0 && (!strings.HasPrefix(args[0], "-") || isHelp(args[0])) {
		cmd, args = args[0], args[1:]
	}
	var err error
	switch cmd {
	case "serve":
		err = serve(args)
	case "explain":
		err = explain(args, os.Stdout)
	case "audit":
		err = auditCmd(args, os.Stdout)
	case "install":
		err = installCmd(args, os.Stdout)
	case "open":
		err = openCmd(args, os.Stdout)
	case "workbench":
		err = workbenchCmd(args, os.Stdout) // relink.go
	case "demo":
		err = demoCmd(args, os.Stdout)
	case "version", "--version":
		printVersion(os.Stdout)
	case "help", "-h", "-help", "--help":
		usage(os.Stdout)
	default:
		usage(os.Stderr)
		err = fmt.Errorf("unknown command %q", cmd)
	}
	if errors.Is(err, flag.ErrHelp) {
		return // a command's -h printed its usage: asked for, not an error
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "ghostlight:", err)
		os.Exit(1)
	}
}

func isHelp(arg string) bool { return arg == "-h" || arg == "-help" || arg == "--help" }

type serveFlags struct {
	http, token, tokenFile, browserPath, endpoint, startup, logLevel, demoAddr string
	headful, withholdNames, allowRemote                                        bool
	allowHosts, allowOrigins                                                   list
	workbench                                                                  string // --workbench ADDR (workbench_cmd.go)
	metrics                                                                    string // --metrics ADDR: /metrics on a loopback listener of its own
	replica                                                                    string // --replica NAME (handles carry it)
}

type list []string

func (l *list) String() string     { return strings.Join(*l, ",") }
func (l *list) Set(v string) error { *l = append(*l, v); return nil }

// serve runs the server until stdin closes (stdio) or a signal arrives.
func serve(args []string) error {
	// A FlagSet of our own: rod registers a global "-rod" flag at init.
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	var f serveFlags
	fs.StringVar(&f.http, "http", "", "serve MCP over streamable HTTP at ADDR (loopback only unless --allow-remote); default stdio")
	fs.StringVar(&f.token, "token", "", "bearer token HTTP clients must send; every local user can read it on the command line: prefer env GHOSTLIGHT_TOKEN or --token-file")
	fs.StringVar(&f.tokenFile, "token-file", "", "read the bearer token from this file (yours alone: chmod 600)")
	fs.Var(&f.allowHosts, "allow-host", "extra Host header value HTTP accepts (repeatable)")
	fs.Var(&f.allowOrigins, "allow-origin", "extra Origin HTTP accepts (repeatable)")
	fs.BoolVar(&f.allowRemote, "allow-remote", false, "let --http listen on a non-loopback address")
	insecureNoToken := fs.Bool("insecure-no-token", false, "let --http serve without a bearer token (loopback only): any local process could then drive the browser")
	fs.StringVar(&f.browserPath, "browser", os.Getenv("GHOSTLIGHT_BROWSER"), "Chromium-family browser binary auto startup launches (env GHOSTLIGHT_BROWSER); default: the one installed (with several, none: see ghostlight install)")
	fs.StringVar(&f.endpoint, "browser-endpoint", os.Getenv("GHOSTLIGHT_BROWSER_ENDPOINT"), "attach to a running browser's DevTools endpoint (ws://… or http://host:port)")
	fs.StringVar(&f.startup, "startup", "", "browser startup: auto (launch), connect (endpoint) or manual; default auto, or connect with --browser-endpoint (the command-line policy layer: it may only narrow browser.startup)")
	fs.BoolVar(&f.headful, "headful", false, "show the launched browser window")
	fs.BoolVar(&allowDownloads, "allow-downloads", false, "let pages download files into a per-session directory removed with the session (the command-line policy layer's downloads: allow)")
	fs.BoolVar(&f.withholdNames, "withhold-target-names", false, "leave target names out of receipts (the command-line policy layer's privacy.preserve_target_names: false)")
	fs.StringVar(&f.logLevel, "log-level", "warn", "log level on stderr: debug, info, warn, error")
	surfaceSel := fs.String("surface", server.SurfaceGhostlight, "tools to serve: ghostlight (its own), operator (the Operator class profile's verbs) or all")
	fs.StringVar(&f.demoAddr, "demo-addr", "", "also serve the built-in demo page on this loopback address")
	fs.StringVar(&f.workbench, "workbench", "", "serve the person's workbench (policy, activity, live tabs, credential handoffs) on this loopback address; with --http it is also at /workbench")
	fs.StringVar(&f.replica, "replica", os.Getenv("GHOSTLIGHT_REPLICA"), fmt.Sprintf("this server's replica name, %d letters or digits, carried by every handle it mints so a router can send a handle's calls here (env GHOSTLIGHT_REPLICA); default a random one, printed at start", handle.ReplicaChars))
	fs.StringVar(&f.metrics, "metrics", "", "serve /metrics on this loopback address instead of behind --http's bearer token")
	auditPath := fs.String("audit-path", os.Getenv("GHOSTLIGHT_AUDIT_PATH"), "append the audit to this JSON-lines file (env GHOSTLIGHT_AUDIT_PATH); default $XDG_STATE_HOME/ghostlight/audit.jsonl")
	vp := viewport{surface.ViewportWidthDefault, surface.ViewportHeightDefault}
	fs.Var(&vp, "viewport", fmt.Sprintf("viewport of the launched browser's windows, WIDTHxHEIGHT CSS px (%d-%d x %d-%d)",
		surface.ViewportWidthMin, surface.ViewportWidthMax, surface.ViewportHeightMin, surface.ViewportHeightMax))
	// Help asked for goes to stdout, by group; a wrong flag is one line
	// (main prints it) with a pointer to the help.
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			serveUsage(os.Stdout, fs)
			return err
		}
		return fmt.Errorf(`%w (run "ghostlight serve --help" for the flags)`, err)
	}
	tok, err := resolveToken(f.token, f.tokenFile, os.Stderr) // token.go
	if err != nil {
		return err
	}
	f.token = tok
	if err := checkHTTPToken(f, *insecureNoToken); err != nil {
		return err // before anything starts
	}
	log := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: level(f.logLevel)}))
	// The policy layers, the command-line layer among them; a layer that
	// does not load refuses to start.
	policy, err := loadPolicy(f.startup, f.endpoint, f.withholdNames, log)
	if err != nil {
		return err
	}
	initial := policy.Current()
	// hosts.requests "all" where no proxy can route the browser is refused
	// unless the organization accepted interception only (browser/wall.go).
	if err := initial.InterceptionOnlyRefusal(browser.EndpointRemote(f.endpoint)); err != nil {
		return err
	}
	auditCfg, err := policyAudit(initial, *auditPath)
	if err != nil {
		return err
	}
	// The durable audit; closed after the server (defers run last-first).
	journal := audit.Open(auditCfg, log)
	defer journal.Close()
	journal.FollowPolicy(*auditPath) // a reload that changes audit.* reopens it between calls
	// What a killed server left (browser profiles and temp dirs, staging) goes before
	// anything new is made; a live server's directories are never touched.
	if n := browser.SweepStale(""); n > 0 {
		log.Info("removed temp directories of servers that are gone", "count", n)
	}
	startup := initial.Startup()
	// Browsers the person opened prepared for this installation (ghostlight open):
	// found on each call that needs a browser when startup does not launch one.
	var prepared browser.Prepared
	if reg, err := registry.ForThisProcess(log); err == nil {
		prepared = reg
	} else {
		log.Warn("no browser registrations", "err", err)
	}
	srv, err := server.New(server.Config{
		Browser: browser.Config{Startup: startup, StartupNow: func() string { return policy.Current().Startup() }, OnStart: policy.BrowserStarted, Path: f.browserPath, Endpoint: f.endpoint, Isolation: initial.Isolation(), IsolationNow: func() string { return policy.Current().Isolation() }, Prepared: prepared, Headless: !f.headful, Logger: log,
			ViewportWidth: vp.w, ViewportHeight: vp.h},
		WithheldNames: !initial.PreserveTargetNames(),
		Policy:        policy.Current,
		Journal:       journal,
		Logger:        log,
		Version:       currentBuild().Version,
		Surface:       *surfaceSel,
		Replica:       f.replica,
	})
	if err != nil {
		return err
	}
	// A client that closes our stderr or stdout first must not kill us with
	// SIGPIPE mid-shutdown (the browser profile would stay behind): with
	// SIGPIPE notified, such a write fails with EPIPE instead.
	signal.Notify(make(chan os.Signal, 1), syscall.SIGPIPE)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	defer func() {
		cctx, cancel := context.WithTimeout(context.Background(), time.Duration(surface.ServerCloseMsMax)*time.Millisecond)
		defer cancel()
		if err := srv.Close(cctx); err != nil {
			log.Warn("shutdown", "err", err)
		}
	}()
	if f.demoAddr != "" {
		if err := serveDemo(ctx, f.demoAddr, log); err != nil {
			return err
		}
	}
	wb, err := startWorkbench(ctx, srv, f, log) // workbench_cmd.go
	if err != nil {
		return err
	}
	defer wb.close()
	if f.http == "" {
		log.Info("ghostlight serving MCP on stdio", "version", currentBuild().Version)
		return srv.Edge().ServeStdio(ctx, os.Stdin, os.Stdout)
	}
	// Printed whatever the log level: a router's configuration names it.
	fmt.Fprintf(os.Stderr, "ghostlight: replica %s\n", srv.Replica())
	if f.token == "" {
		log.Warn("serving MCP over HTTP without a bearer token (--insecure-no-token): any local process can drive the browser")
	}
	hopts := mcpedge.HTTPOptions{BearerToken: f.token, AllowedHosts: f.allowHosts, AllowedOrigins: f.allowOrigins, Workbench: wb.handler(),
		Ready: srv.Ready, ReadyWait: time.Duration(surface.ReadyzMsMax) * time.Millisecond}
	if f.metrics == "" {
		hopts.Metrics = srv.Metrics().Handler() // behind the token
	}
	h := srv.Edge().HTTPHandler(hopts)
	// SIGTERM drains (drain.go): the listener outlives the signal until the
	// calls at work finish, then the deferred Close takes the browser.
	listenCtx := drainOnSignal(ctx, srv, log)
	if f.metrics != "" {
		if err := serveMetrics(listenCtx, f.metrics, srv.Metrics().Handler(), log); err != nil {
			return err
		}
	}
	var opts []mcpedge.ListenOption
	if f.allowRemote {
		opts = append(opts, mcpedge.AllowNonLoopback())
	}
	opts = append(opts, mcpedge.OnListen(func(a net.Addr) {
		srv.Listening(governance.SelfMCP, a.String()) // no page reaches it (governance/selfhosts.go)
		log.Info("ghostlight serving MCP over HTTP", "url", "http://"+a.String()+mcpedge.MCPPath, "version", currentBuild().Version)
		wb.mounted(a)
	}))
	err = mcpedge.ListenAndServe(listenCtx, f.http, h, opts...)
	if errors.Is(err, http.ErrServerClosed) || errors.Is(err, context.Canceled) {
		return nil
	}
	return err
}

// viewport is the --viewport flag: WIDTHxHEIGHT within the spec's viewport bounds.
type viewport struct{ w, h int }

func (v *viewport) String() string { return fmt.Sprintf("%dx%d", v.w, v.h) }

func (v *viewport) Set(s string) error {
	ws, hs, ok := strings.Cut(strings.ToLower(strings.TrimSpace(s)), "x")
	w, errW := strconv.Atoi(ws)
	h, errH := strconv.Atoi(hs)
	if !ok || errW != nil || errH != nil {
		return fmt.Errorf("want WIDTHxHEIGHT, e.g. %dx%d", surface.ViewportWidthDefault, surface.ViewportHeightDefault)
	}
	if w < surface.ViewportWidthMin || w > surface.ViewportWidthMax || h < surface.ViewportHeightMin || h > surface.ViewportHeightMax {
		return fmt.Errorf("%dx%d is outside %d-%d x %d-%d", w, h,
			surface.ViewportWidthMin, surface.ViewportWidthMax, surface.ViewportHeightMin, surface.ViewportHeightMax)
	}
	v.w, v.h = w, h
	return nil
}

// checkHTTPToken: --http serves only with a bearer token, unless
// --insecure-no-token says otherwise, and then only on loopback.
func checkHTTPToken(f serveFlags, insecureNoToken bool) error {
	if f.http == "" || f.token != "" {
		return nil
	}
	if !insecureNoToken {
		return errors.New("--http needs a bearer token: set GHOSTLIGHT_TOKEN or pass --token-file PATH (or pass --insecure-no-token to serve without one, on loopback only)")
	}
	if f.allowRemote {
		return errors.New("--insecure-no-token serves on loopback only: it cannot be combined with --allow-remote; set GHOSTLIGHT_TOKEN or pass --token-file instead")
	}
	return nil
}

func level(s string) slog.Level {
	var l slog.Level
	if err := l.UnmarshalText([]byte(s)); err != nil {
		return slog.LevelInfo
	}
	return l
}

// Command ghostlight is the Ghostlight MCP server: it lets a language model
// drive a real Chromium through 24 typed, governed tools.
//
//	ghostlight serve                       # MCP over stdio (the default)
//	ghostlight serve --http 127.0.0.1:8765 # MCP over streamable HTTP at /mcp
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
	"strings"
	"syscall"
	"time"

	"github.com/ghostlight-dev/ghostlight/runtime/browser"
	"github.com/ghostlight-dev/ghostlight/runtime/mcpedge"
	"github.com/ghostlight-dev/ghostlight/runtime/server"
)

// version is set at build time with -ldflags "-X main.version=…".
var version = "dev"

func main() {
	args := os.Args[1:]
	cmd := "serve"
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		cmd, args = args[0], args[1:]
	}
	var err error
	switch cmd {
	case "serve":
		err = serve(args)
	case "version":
		fmt.Println("ghostlight", version)
	case "help", "-h", "--help":
		usage(os.Stdout)
	default:
		usage(os.Stderr)
		err = fmt.Errorf("unknown command %q", cmd)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "ghostlight:", err)
		os.Exit(1)
	}
}

func usage(w io.Writer) {
	fmt.Fprint(w, `usage: ghostlight serve [flags]   run the MCP server (stdio unless --http)
       ghostlight version

Run "ghostlight serve -h" for the flags.
`)
}

type serveFlags struct {
	http, token, browserPath, endpoint, startup, logLevel, demoAddr string
	headful, withholdNames, allowRemote                             bool
	allowHosts, allowOrigins                                        list
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
	fs.StringVar(&f.token, "token", os.Getenv("GHOSTLIGHT_TOKEN"), "bearer token HTTP clients must send (env GHOSTLIGHT_TOKEN)")
	fs.Var(&f.allowHosts, "allow-host", "extra Host header value HTTP accepts (repeatable)")
	fs.Var(&f.allowOrigins, "allow-origin", "extra Origin HTTP accepts (repeatable)")
	fs.BoolVar(&f.allowRemote, "allow-remote", false, "let --http listen on a non-loopback address")
	fs.StringVar(&f.browserPath, "browser", os.Getenv("GHOSTLIGHT_BROWSER"), "Chromium or Chrome binary (env GHOSTLIGHT_BROWSER); default: found on PATH")
	fs.StringVar(&f.endpoint, "browser-endpoint", os.Getenv("GHOSTLIGHT_BROWSER_ENDPOINT"), "attach to a running browser's DevTools endpoint (ws://… or http://host:port)")
	fs.StringVar(&f.startup, "startup", "", "browser startup: auto (launch), connect (endpoint) or manual; default auto, or connect with --browser-endpoint")
	fs.BoolVar(&f.headful, "headful", false, "show the launched browser window")
	fs.BoolVar(&f.withholdNames, "withhold-target-names", false, "leave target names out of receipts (privacy.preserve_target_names: false)")
	fs.StringVar(&f.logLevel, "log-level", "warn", "log level on stderr: debug, info, warn, error")
	fs.StringVar(&f.demoAddr, "demo-addr", "", "also serve the built-in demo page on this loopback address")
	if err := fs.Parse(args); err != nil {
		return err
	}
	log := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: level(f.logLevel)}))
	startup := f.startup
	if startup == "" {
		startup = browser.StartupAuto
		if f.endpoint != "" {
			startup = browser.StartupConnect
		}
	}
	srv, err := server.New(server.Config{
		Browser:       browser.Config{Startup: startup, Path: f.browserPath, Endpoint: f.endpoint, Headless: !f.headful, Logger: log},
		WithheldNames: f.withholdNames,
		Logger:        log,
		Version:       version,
	})
	if err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	defer func() {
		cctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
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
	if f.http == "" {
		log.Info("ghostlight serving MCP on stdio", "version", version)
		return srv.Edge().ServeStdio(ctx, os.Stdin, os.Stdout)
	}
	h := srv.Edge().HTTPHandler(mcpedge.HTTPOptions{BearerToken: f.token, AllowedHosts: f.allowHosts, AllowedOrigins: f.allowOrigins})
	var opts []mcpedge.ListenOption
	if f.allowRemote {
		opts = append(opts, mcpedge.AllowNonLoopback())
	}
	opts = append(opts, mcpedge.OnListen(func(a net.Addr) {
		log.Info("ghostlight serving MCP over HTTP", "url", "http://"+a.String()+mcpedge.MCPPath, "version", version)
	}))
	err = mcpedge.ListenAndServe(ctx, f.http, h, opts...)
	if errors.Is(err, http.ErrServerClosed) || errors.Is(err, context.Canceled) {
		return nil
	}
	return err
}

func level(s string) slog.Level {
	var l slog.Level
	if err := l.UnmarshalText([]byte(s)); err != nil {
		return slog.LevelInfo
	}
	return l
}

package main

import (
	"context"
	"embed"
	"fmt"
	"io/fs"
	"log/slog"
	"net"
	"net/http"
	"time"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
)

//go:embed demo
var demoFiles embed.FS

// serveDemo serves the embedded demo page on a loopback address, for
// `make demo` and a newcomer's first session.
func serveDemo(ctx context.Context, addr string, log *slog.Logger) error {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return err
	}
	if ip := net.ParseIP(host); host != "localhost" && (ip == nil || !ip.IsLoopback()) {
		return fmt.Errorf("--demo-addr %s: the demo page is served on loopback only", addr)
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	sub, _ := fs.Sub(demoFiles, "demo")
	srv := &http.Server{Handler: http.FileServerFS(sub), ReadHeaderTimeout: time.Duration(surface.HttpHeaderMsMax) * time.Millisecond}
	go func() {
		<-ctx.Done()
		srv.Close()
	}()
	go func() {
		if err := srv.Serve(ln); err != nil && err != http.ErrServerClosed {
			log.Warn("demo page", "err", err)
		}
	}()
	log.Info("demo page", "url", "http://"+ln.Addr().String()+"/")
	return nil
}

package main

import (
	"context"
	"log/slog"
	"net"
	"net/http"
	"time"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
	"github.com/ghostlight-dev/ghostlight/runtime/mcpedge"
	"github.com/ghostlight-dev/ghostlight/runtime/server"
)

// drainOnSignal returns the context the HTTP listener serves under: it ends
// once sig has ended (SIGTERM, SIGINT) and the server has drained, refusing
// new workspaces while the calls at work finish, for at most drain_ms.
func drainOnSignal(sig context.Context, srv *server.Server, log *slog.Logger) context.Context {
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		<-sig.Done()
		t0 := time.Now()
		quiet := srv.StartDrain()
		log.Info("draining: new workspaces are refused", "bound_ms", surface.DrainMsMax)
		finished := true
		select {
		case <-quiet:
		case <-time.After(time.Duration(surface.DrainMsMax) * time.Millisecond):
			finished = false // the calls still at work end with the listener
		}
		log.Info("drained", "finished", finished, "ms", time.Since(t0).Milliseconds())
		cancel()
	}()
	return ctx
}

// serveMetrics serves /metrics alone on a loopback address of its own.
func serveMetrics(ctx context.Context, addr string, h http.Handler, log *slog.Logger) error {
	mux := http.NewServeMux()
	mux.Handle(mcpedge.MetricsPath, h)
	ready := make(chan error, 1)
	go func() {
		err := mcpedge.ListenAndServe(ctx, addr, mux, mcpedge.OnListen(func(a net.Addr) {
			log.Info("ghostlight serving metrics", "url", "http://"+a.String()+mcpedge.MetricsPath)
			ready <- nil
		}))
		if err != nil {
			select {
			case ready <- err:
			default:
				log.Warn("metrics listener", "err", err)
			}
		}
	}()
	return <-ready
}

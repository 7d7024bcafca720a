package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"sync"

	"github.com/ghostlight-dev/ghostlight/runtime/governance"
	"github.com/ghostlight-dev/ghostlight/runtime/mcpedge"
	"github.com/ghostlight-dev/ghostlight/runtime/server"
	"github.com/ghostlight-dev/ghostlight/runtime/workbench"
)

// served is the workbench as serve runs it: on its own loopback address
// (--workbench), under --http at /workbench, or both (its links then name
// its own address).
type served struct {
	wb      *workbench.Workbench
	own     bool // listening on --workbench
	out     io.Writer
	log     *slog.Logger
	mu      sync.Mutex
	cleanup func() // removes the link file (relink.go)
}

// startWorkbench builds the workbench when --workbench or --http asks for
// it and, for --workbench, listens before serve goes on (a taken port fails
// the start). The link with its token goes to stderr only.
func startWorkbench(ctx context.Context, srv *server.Server, f serveFlags, log *slog.Logger) (*served, error) {
	if f.workbench == "" && (f.http == "" || f.allowRemote) {
		return nil, nil // a workbench is a loopback page: never beside --allow-remote alone
	}
	wb, err := srv.Workbench(server.WorkbenchOptions{AllowedHosts: f.allowHosts, AllowedOrigins: f.allowOrigins})
	if err != nil {
		return nil, err
	}
	s := &served{wb: wb, out: os.Stderr, log: log}
	if f.workbench == "" {
		return s, nil
	}
	s.own = true
	listening := make(chan struct{})
	failed := make(chan error, 1)
	go func() {
		err := mcpedge.ListenAndServe(ctx, f.workbench, wb, mcpedge.OnListen(func(a net.Addr) {
			srv.Listening(governance.SelfWorkbench, a.String()) // no page reaches it (governance/selfhosts.go)
			s.announce(a)
			close(listening)
		}))
		if err == nil || errors.Is(err, http.ErrServerClosed) || errors.Is(err, context.Canceled) {
			return
		}
		select {
		case <-listening: // it served, then stopped
			log.Error("workbench stopped", "err", err)
		default: // it never listened: serve fails to start
			failed <- err
		}
	}()
	select {
	case <-listening:
		return s, nil
	case err := <-failed:
		return nil, fmt.Errorf("--workbench: %w", err)
	}
}

func (s *served) announce(a net.Addr) {
	base := "http://" + a.String()
	s.wb.SetBase(base)
	if done, err := publish(s.wb, base); err != nil {
		s.log.Warn("no link file for `ghostlight workbench`", "err", err)
	} else {
		s.mu.Lock()
		s.cleanup = done
		s.mu.Unlock()
	}
	fmt.Fprintf(s.out, "ghostlight: workbench at %s (a single-use link: keep it to yourself; `ghostlight workbench` prints a fresh one)\n", s.wb.Link())
}

// close removes what announce left on disk.
func (s *served) close() {
	if s == nil {
		return
	}
	s.mu.Lock()
	done := s.cleanup
	s.mu.Unlock()
	if done != nil {
		done()
	}
}

// handler is what --http mounts at /workbench (nil: none).
func (s *served) handler() http.Handler {
	if s == nil {
		return nil
	}
	return s.wb
}

// mounted announces the workbench under --http, unless it has its own address.
func (s *served) mounted(a net.Addr) {
	if s != nil && !s.own {
		s.announce(a)
	}
}

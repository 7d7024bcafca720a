package server

import (
	"sync"

	"github.com/ghostlight-dev/ghostlight/runtime/browser"
	"github.com/ghostlight-dev/ghostlight/runtime/governance"
)

// selfHosts keeps the server's own listeners and the DevTools endpoint of the
// browser it attached to under the self-host ceiling (governance/selfhosts.go)
// for the server's life.
type selfHosts struct {
	mu       sync.Mutex
	devtools func() // the attached endpoint's registration, replaced on reattach
	others   []func()
}

// watchEndpoint registers the configured endpoint at once and every endpoint
// the executor attaches to as it does.
func (h *selfHosts) watchEndpoint(cfg *browser.Config) {
	if cfg.Endpoint != "" {
		h.add(governance.SelfDevTools, cfg.Endpoint)
	}
	prev := cfg.OnAttach
	cfg.OnAttach = func(wsURL string) {
		if prev != nil {
			prev(wsURL)
		}
		if wsURL == "" {
			return
		}
		un := governance.RegisterSelfHost(governance.SelfDevTools, wsURL)
		h.mu.Lock()
		old := h.devtools
		h.devtools = un
		h.mu.Unlock()
		if old != nil {
			old()
		}
	}
}

func (h *selfHosts) add(kind, address string) {
	un := governance.RegisterSelfHost(kind, address)
	h.mu.Lock()
	h.others = append(h.others, un)
	h.mu.Unlock()
}

func (h *selfHosts) close() {
	h.mu.Lock()
	fns := append(h.others, h.devtools)
	h.others, h.devtools = nil, nil
	h.mu.Unlock()
	for _, f := range fns {
		if f != nil {
			f()
		}
	}
}

// Listening puts one of the server's own listeners (governance.SelfMCP,
// governance.SelfWorkbench; its host:port) under the self-host ceiling until
// the server closes: no page and no call reaches it.
func (s *Server) Listening(kind, address string) { s.self.add(kind, address) }

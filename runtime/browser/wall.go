package browser

// The policy proxy (netwall) every browser context Ghostlight can route is
// sent through, so that what the Fetch interception never sees (speculation
// rules prefetch and prerender, FedCM, payment manifests, shared and service
// workers, keepalive requests after a tab or session ended) still meets the
// boundary: nothing leaves the context but through its proxy.
//
//   - a workspace's own context (session isolation) gets its own listener,
//     given to Target.createBrowserContext, so a refusal is the workspace's;
//   - the default context of a browser Ghostlight launches gets one listener
//     for every workspace sharing it, given at launch (--proxy-server);
//   - a context Ghostlight cannot route (the default context of a browser it
//     attached to, or a browser on another machine, which cannot reach
//     Ghostlight's loopback) keeps the interception only (Routed says so).
//
// What the proxy decides: the boundaries in force on the workspace's tabs
// (a held tab's call boundary, the others' between-calls boundary) and the
// workspace's latest configured boundary, the narrowest of them all. Under
// documents-only it refuses by address only (hosts.addresses guards every
// connection in every mode); with All it refuses every host a boundary
// denies. A released workspace's context admits nothing more (a pagehide
// beacon as it closes goes nowhere).

import (
	"net"
	"net/netip"
	"net/url"
	"strings"
	"sync"

	"github.com/ghostlight-dev/ghostlight/runtime/browser/netwall"
)

// proxyBypass makes loopback go through the proxy too (Chromium bypasses
// loopback for any proxy unless told).
const proxyBypass = "<-loopback>"

// wsWall is a workspace's part of its proxy's decision.
type wsWall struct {
	mu       sync.Mutex
	between  Boundary // the latest call's configured boundary
	governed bool     // some call has governed the workspace
	// unreached is the latest host the proxy could not reach and the
	// network error the browser would have met (a navigation there fails
	// with a 502 from the proxy; navigate.go says the real error).
	unreached, unreachedErr string
}

func (w *wsWall) noteUnreachable(host, netError string) {
	w.mu.Lock()
	w.unreached, w.unreachedErr = host, netError
	w.mu.Unlock()
}

// realNetError is the network error behind a navigation the proxy failed
// to connect (Chromium reports the proxy's 502 as a response code failure).
func (ws *Workspace) realNetError(rawURL, text string) string {
	if text != "net::ERR_HTTP_RESPONSE_CODE_FAILURE" && text != "net::ERR_TUNNEL_CONNECTION_FAILED" {
		return text
	}
	host, ok := requestHost(rawURL)
	if !ok {
		return text
	}
	if h, p, err := net.SplitHostPort(host); err == nil && (p == "80" || p == "443") {
		host = h
	}
	ws.wall.mu.Lock()
	defer ws.wall.mu.Unlock()
	if ws.wall.unreached == host {
		return ws.wall.unreachedErr
	}
	return text
}

// noteWallBetween records the configured boundary a call brought.
func (ws *Workspace) noteWallBetween(b Boundary) {
	ws.wall.mu.Lock()
	ws.wall.between, ws.wall.governed = b, true
	ws.wall.mu.Unlock()
}

// wallBoundaries are the boundaries in force for the workspace's proxy;
// released says nothing more may leave.
func (ws *Workspace) wallBoundaries(bs []Boundary) (_ []Boundary, released bool) {
	ws.mu.Lock()
	tabs := append([]*Tab(nil), ws.tabs...)
	released = ws.released
	ws.mu.Unlock()
	ws.wall.mu.Lock()
	if ws.wall.governed {
		bs = append(bs, ws.wall.between)
	}
	ws.wall.mu.Unlock()
	for _, t := range tabs {
		bs = append(bs, t.bound.now())
	}
	return bs, released
}

// wallRules is the narrowest of bs as the proxy asks it.
func wallRules(bs []Boundary, closed bool) netwall.Rules {
	if closed {
		none := func() (bool, string) { return false, "" }
		return netwall.Rules{
			Host: func(string) (bool, string) { return none() },
			Addr: func(netip.Addr) (bool, string) { return none() },
		}
	}
	return netwall.Rules{
		Host: func(host string) (bool, string) {
			for _, b := range bs {
				if b.Ceiling != nil { // the self-host ceiling: every mode
					if ok, layer := b.Ceiling(host, RequestSubresource); !ok {
						return false, layer
					}
				}
				if b.All {
					if ok, layer := b.admit(host, RequestSubresource); !ok {
						return false, layer
					}
				}
			}
			return true, ""
		},
		Addr: func(ip netip.Addr) (bool, string) {
			for _, b := range bs {
				if b.AdmitAddr != nil {
					if ok, layer := b.AdmitAddr(ip); !ok {
						return false, layer
					}
				}
			}
			return true, ""
		},
	}
}

// recordRefusal puts a proxy refusal in the workspace's blocked log, so its
// next result counts it.
func (ws *Workspace) recordRefusal(r netwall.Refusal) {
	ws.blocked.add(Blocked{Host: r.Host, Layer: r.Layer, Kind: RequestSubresource})
}

// startWall starts the proxy of the workspace's own context.
func (ws *Workspace) startWall() (*netwall.Proxy, error) {
	return netwall.Start(netwall.Config{
		Rules: func() netwall.Rules {
			bs, released := ws.wallBoundaries(nil)
			return wallRules(bs, released)
		},
		Refused:     ws.recordRefusal,
		Unreachable: ws.wall.noteUnreachable,
	})
}

// startSharedWall starts the proxy of a launched browser's default context:
// every workspace under shared isolation decides, with the latest configured
// boundary a shared workspace's call brought (so a released one's pages stay
// bounded). A call in a workspace of its own context never decides here: its
// policy is not the person's tabs' (a test's deny list once kept the
// person's localhost tab from loading).
func (b *Browser) startSharedWall(holder *connHolder) (*netwall.Proxy, error) {
	return netwall.Start(netwall.Config{
		Rules: func() netwall.Rules {
			var bs []Boundary
			if c := holder.get(); c != nil {
				if w := c.sharedWallBoundary(); w.Admit != nil || w.AdmitAddr != nil {
					bs = append(bs, w)
				}
			}
			for _, ws := range b.sharedWorkspaces() {
				bs, _ = ws.wallBoundaries(bs)
			}
			return wallRules(bs, false)
		},
		Refused: func(r netwall.Refusal) {
			wss := b.sharedWorkspaces()
			for _, ws := range wss {
				if len(ws.liveTabs()) > 0 || len(wss) == 1 {
					ws.recordRefusal(r)
				}
			}
		},
		Unreachable: func(host, netError string) {
			for _, ws := range b.sharedWorkspaces() {
				ws.wall.noteUnreachable(host, netError)
			}
		},
	})
}

// connHolder hands the shared proxy the connection made after it started.
type connHolder struct {
	mu sync.Mutex
	c  *conn
}

func (h *connHolder) set(c *conn) { h.mu.Lock(); h.c = c; h.mu.Unlock() }
func (h *connHolder) get() *conn {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.c
}

// sharedWorkspaces are the workspaces in the default context.
func (b *Browser) sharedWorkspaces() []*Workspace {
	b.mu.Lock()
	defer b.mu.Unlock()
	var out []*Workspace
	for _, ws := range b.workspaces {
		if !ws.isolated() {
			out = append(out, ws)
		}
	}
	return out
}

// routable reports whether the browser at the other end of c can reach a
// proxy on Ghostlight's loopback: one Ghostlight launched, or one whose
// DevTools endpoint is itself on loopback.
func (c *conn) routable() bool {
	if c.launched() != nil {
		return true
	}
	u, err := url.Parse(c.wsURL)
	if err != nil {
		return false
	}
	return loopbackHost(u.Hostname())
}

func loopbackHost(h string) bool {
	h = strings.TrimSuffix(strings.ToLower(h), ".")
	if h == "localhost" || strings.HasSuffix(h, ".localhost") {
		return true
	}
	a, err := netip.ParseAddr(strings.Trim(h, "[]"))
	return err == nil && a.Unmap().IsLoopback()
}

// Routed reports whether the workspace's requests pass a policy proxy on
// the live connection (false before the browser started): under session
// isolation when the browser can reach Ghostlight's loopback, under shared
// isolation only in a browser Ghostlight launched with its proxy.
func (ws *Workspace) Routed() bool {
	ws.b.mu.Lock()
	c := ws.b.conn
	ws.b.mu.Unlock()
	if c == nil || !c.alive() {
		return false
	}
	if ws.isolated() {
		return c.routable()
	}
	return c.wallProxy() != nil
}

// wallProxy is the default context's proxy (nil when none routes it).
func (c *conn) wallProxy() *netwall.Proxy {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.wall
}

// keepWall ties a proxy's life to the connection: it closes when the
// connection ends (the browser and its contexts went with it).
func (c *conn) keepWall(p *netwall.Proxy) {
	go func() {
		<-c.ctx.Done()
		_ = p.Close()
	}()
}

// EndpointRemote reports that a configured DevTools endpoint is not on this
// machine's loopback: such a browser cannot reach a policy proxy here.
func EndpointRemote(endpoint string) bool {
	if endpoint == "" {
		return false
	}
	h := EndpointHost(endpoint)
	if host, _, err := net.SplitHostPort(h); err == nil {
		h = host
	}
	return !loopbackHost(h)
}

// EndpointRemote is EndpointRemote of the configured endpoint.
func (b *Browser) EndpointRemote() bool { return EndpointRemote(b.cfg.Endpoint) }

// wallFlags are the browser flags that would route around the policy proxy
// or let WebRTC send outside it: extra flags naming them are dropped.
var wallFlags = []string{"proxy-server", "proxy-bypass-list", "proxy-pac-url", "no-proxy-server",
	"proxy-auto-detect", "winhttp-proxy-resolver", "force-webrtc-ip-handling-policy", "host-resolver-rules", "host-rules"}

func wallFlag(name string) bool {
	for _, f := range wallFlags {
		if strings.EqualFold(name, f) {
			return true
		}
	}
	return false
}

// noteSharedBetween records the configured boundary a shared workspace's
// call brought, for the default context's proxy.
func (c *conn) noteSharedBetween(b Boundary) {
	c.mu.Lock()
	c.sharedBetween = b
	c.mu.Unlock()
}

func (c *conn) sharedWallBoundary() Boundary {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.sharedBetween
}

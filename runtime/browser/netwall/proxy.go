package netwall

import (
	"bufio"
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/netip"
	"os"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/ghostlight-dev/ghostlight/generated/limits"
)

// The bounds every listener holds (spec/bounds_proxy.cue).
const (
	maxConns    = limits.ProxyConnectionsMax
	headerBytes = limits.ProxyHeaderBytesMax
	dialWait    = time.Duration(limits.ProxyDialMsMax) * time.Millisecond
	resolveWait = time.Duration(limits.ProxyResolveMsMax) * time.Millisecond
	idleWait    = time.Duration(limits.ProxyIdleMsMax) * time.Millisecond
)

// Rules decide one request: Host is asked with the host the request names
// (host, or host:port when the port is not the scheme's default), Addr with
// every address that host resolves to. A nil function admits everything.
// layer names who decided a refusal.
type Rules struct {
	Host func(host string) (allowed bool, layer string)
	Addr func(ip netip.Addr) (allowed bool, layer string)
}

// Refusal is one request or tunnel the proxy refused.
type Refusal struct {
	Host  string // as the request named it (host or host:port)
	Layer string
	// Addr is the refused address when the address decision refused it
	// (invalid when the host decision did).
	Addr netip.Addr
}

// Config is what a listener asks.
type Config struct {
	// Rules is asked for the decision in force when each request arrives.
	Rules func() Rules
	// Refused is told of each refusal, on the connection's goroutine.
	Refused func(Refusal)
	// Unreachable is told of each admitted host the proxy could not reach,
	// with the network error the browser would have met connecting itself
	// ("net::ERR_CONNECTION_REFUSED"): through a proxy the browser only sees
	// a 502, so its owner can say what happened.
	Unreachable func(host, netError string)
	// Resolve resolves a host name (nil: the system resolver).
	Resolve func(ctx context.Context, host string) ([]netip.Addr, error)
}

// Proxy is one listener.
type Proxy struct {
	cfg  Config
	ln   net.Listener
	slot chan struct{}

	mu     sync.Mutex
	conns  map[net.Conn]struct{}
	closed bool
	wg     sync.WaitGroup
}

// Start listens on 127.0.0.1 on a port the kernel picks and serves until
// Close.
func Start(cfg Config) (*Proxy, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	p := &Proxy{cfg: cfg, ln: ln, slot: make(chan struct{}, maxConns), conns: map[net.Conn]struct{}{}}
	listening.Store(p.Addr().Port(), struct{}{})
	p.wg.Add(1)
	go p.serve()
	return p, nil
}

// URL is the proxy's address as a browser takes it ("http://127.0.0.1:P").
func (p *Proxy) URL() string { return "http://" + p.ln.Addr().String() }

// Addr is the listener's address.
func (p *Proxy) Addr() netip.AddrPort { return p.ln.Addr().(*net.TCPAddr).AddrPort() }

// Close stops listening and ends every connection, tunnels included.
func (p *Proxy) Close() error {
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		return nil
	}
	p.closed = true
	listening.Delete(p.Addr().Port())
	for c := range p.conns {
		_ = c.Close()
	}
	p.mu.Unlock()
	err := p.ln.Close()
	p.wg.Wait()
	return err
}

func (p *Proxy) track(c net.Conn) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		_ = c.Close()
		return false
	}
	p.conns[c] = struct{}{}
	return true
}

func (p *Proxy) untrack(c net.Conn) {
	p.mu.Lock()
	delete(p.conns, c)
	p.mu.Unlock()
	_ = c.Close()
}

func (p *Proxy) serve() {
	defer p.wg.Done()
	for {
		p.slot <- struct{}{} // at most maxConns at once: the next accept waits
		c, err := p.ln.Accept()
		if err != nil {
			<-p.slot
			return
		}
		if !p.track(c) {
			<-p.slot
			continue
		}
		p.wg.Add(1)
		go func() {
			defer p.wg.Done()
			defer func() { <-p.slot }()
			defer p.untrack(c)
			p.client(c)
		}()
	}
}

// client serves one browser connection: requests in order, until either
// side closes, a tunnel takes the connection over, or it idles past the bound.
func (p *Proxy) client(c net.Conn) {
	lim := &io.LimitedReader{R: c, N: headerBytes}
	br := bufio.NewReader(lim)
	var up *upstream
	defer func() {
		if up != nil {
			up.close()
		}
	}()
	for {
		_ = c.SetDeadline(time.Now().Add(idleWait))
		lim.N = headerBytes
		req, err := http.ReadRequest(br)
		if err != nil {
			if lim.N <= 0 {
				refuseStatus(c, http.StatusRequestHeaderFieldsTooLarge, WallRefused)
			}
			return
		}
		lim.N = 1<<62 - 1 // a body is bounded by its own length, not the header bound
		if req.Method == http.MethodConnect {
			p.tunnel(c, br, req)
			return
		}
		keep, next := p.forward(c, br, req, up)
		up = next
		if !keep {
			return
		}
	}
}

// target is the host:port a request is for, and the host as the decision is
// asked (the port left out when it is the scheme's default).
func target(req *http.Request) (hostport, asked string, ok bool) {
	var host, port, def string
	if req.Method == http.MethodConnect {
		h, pt, err := net.SplitHostPort(req.Host)
		if err != nil {
			return "", "", false
		}
		host, port, def = h, pt, "443"
	} else {
		if req.URL == nil || !strings.EqualFold(req.URL.Scheme, "http") || req.URL.Host == "" {
			return "", "", false // only absolute http:// URIs: https goes by CONNECT
		}
		host, port, def = req.URL.Hostname(), req.URL.Port(), "80"
		if port == "" {
			port = def
		}
	}
	if host == "" {
		return "", "", false
	}
	if n, err := strconv.Atoi(port); err != nil || n < 1 || n > 65535 {
		return "", "", false
	}
	hp := net.JoinHostPort(host, port)
	asked = strings.ToLower(host)
	if strings.Contains(asked, ":") {
		asked = "[" + asked + "]"
	}
	if port != def {
		asked += ":" + port
	}
	return hp, asked, true
}

// errRefused is a decision's refusal (already reported).
var errRefused = errors.New("refused by policy")

// admit asks the decision in force and resolves, returning the checked
// addresses to dial, in order.
func (p *Proxy) admit(ctx context.Context, hostport, asked string) ([]netip.AddrPort, error) {
	var rules Rules
	if p.cfg.Rules != nil {
		rules = p.cfg.Rules()
	}
	if rules.Host != nil {
		if ok, layer := rules.Host(asked); !ok {
			p.refused(Refusal{Host: asked, Layer: layer})
			return nil, errRefused
		}
	}
	host, portText, _ := net.SplitHostPort(hostport)
	port, _ := strconv.Atoi(portText)
	addrs, err := p.resolve(ctx, host)
	if err != nil {
		return nil, err
	}
	out := make([]netip.AddrPort, 0, len(addrs))
	for _, a := range addrs {
		a = a.Unmap() // ::ffff:a.b.c.d is the IPv4 address it maps, for every check
		if p.own(a, port) {
			p.refused(Refusal{Host: asked, Layer: "", Addr: a})
			return nil, errRefused
		}
		if rules.Addr != nil {
			if ok, layer := rules.Addr(a); !ok {
				p.refused(Refusal{Host: asked, Layer: layer, Addr: a})
				return nil, errRefused // one refused address refuses the name
			}
		}
		out = append(out, netip.AddrPortFrom(a, uint16(port)))
	}
	return out, nil
}

// listening holds the ports of every proxy this process serves: a request
// for any of them (its own, a loop; another context's, a way round that
// context's decision) is refused.
var listening sync.Map // uint16 port -> struct{}

// own reports a request for a port some proxy of this process listens on,
// at a loopback or unspecified address.
func (p *Proxy) own(a netip.Addr, port int) bool {
	if port < 1 || port > 65535 || !(a.IsLoopback() || a.IsUnspecified()) {
		return false
	}
	_, ok := listening.Load(uint16(port))
	return ok
}

func (p *Proxy) refused(r Refusal) {
	if p.cfg.Refused != nil {
		p.cfg.Refused(r)
	}
}

// resolve resolves host once, bounded; an address literal is itself.
func (p *Proxy) resolve(ctx context.Context, host string) ([]netip.Addr, error) {
	if a, err := netip.ParseAddr(strings.Trim(host, "[]")); err == nil {
		return []netip.Addr{a.WithZone("")}, nil
	}
	if h := strings.ToLower(strings.TrimSuffix(host, ".")); h == "localhost" || strings.HasSuffix(h, ".localhost") {
		// Chromium answers localhost and *.localhost with loopback itself,
		// never asking DNS; so does the proxy (a resolver that asks DNS for
		// localhost's IPv6 address waited a second on a machine without one).
		return []netip.Addr{netip.AddrFrom4([4]byte{127, 0, 0, 1}), netip.IPv6Loopback()}, nil
	}
	ctx, cancel := context.WithTimeout(ctx, resolveWait)
	defer cancel()
	var addrs []netip.Addr
	var err error
	if p.cfg.Resolve != nil {
		addrs, err = p.cfg.Resolve(ctx, host)
	} else {
		addrs, err = net.DefaultResolver.LookupNetIP(ctx, "ip", host)
	}
	if err == nil && len(addrs) == 0 {
		err = errors.New("no address for " + host)
	}
	return addrs, err
}

// dial connects to the first checked address that answers.
func dial(ctx context.Context, addrs []netip.AddrPort) (net.Conn, error) {
	d := net.Dialer{Timeout: dialWait}
	var last error
	for _, a := range addrs {
		c, err := d.DialContext(ctx, "tcp", a.String())
		if err == nil {
			return c, nil
		}
		last = err
	}
	return nil, last
}

// WallHeader marks the proxy's own answers: the request reached no host.
// Its value is why (refused, or the network error the browser would have
// met connecting itself), so evidence can say "failed" rather than take
// the proxy's status for the host's (Chromium shows a plain-HTTP request's
// 502 as the host's response, and sometimes, when the close overtakes the
// response, as a failure: the header makes it one answer).
const WallHeader = "Ghostlight-Wall"

// WallRefused is WallHeader's value for a request the rules refused.
const WallRefused = "refused"

// refuseStatus answers a request the proxy will not carry, and closes.
func refuseStatus(c net.Conn, code int, why string) {
	_, _ = io.WriteString(c, "HTTP/1.1 "+strconv.Itoa(code)+" "+http.StatusText(code)+
		"\r\n"+WallHeader+": "+why+
		"\r\nContent-Length: 0\r\nConnection: close\r\nProxy-Connection: close\r\n\r\n")
}

// wallWhy is WallHeader's value for a failed admission or dial.
func wallWhy(err error) string {
	if errors.Is(err, errRefused) {
		return WallRefused
	}
	return netError(err)
}

// netError names a failed resolution or dial as Chromium would.
func netError(err error) string {
	var dns *net.DNSError
	switch {
	case errors.As(err, &dns):
		return "net::ERR_NAME_NOT_RESOLVED"
	case errors.Is(err, syscall.ECONNREFUSED):
		return "net::ERR_CONNECTION_REFUSED"
	case errors.Is(err, context.DeadlineExceeded), errors.Is(err, os.ErrDeadlineExceeded):
		return "net::ERR_CONNECTION_TIMED_OUT"
	case errors.Is(err, syscall.ENETUNREACH), errors.Is(err, syscall.EHOSTUNREACH):
		return "net::ERR_ADDRESS_UNREACHABLE"
	}
	return "net::ERR_CONNECTION_FAILED"
}

// unreachable reports an admitted host the proxy could not reach.
func (p *Proxy) unreachable(asked string, err error) {
	if p.cfg.Unreachable != nil && !errors.Is(err, errRefused) {
		p.cfg.Unreachable(asked, netError(err))
	}
}

func statusFor(err error) int {
	if errors.Is(err, errRefused) {
		return http.StatusForbidden
	}
	return http.StatusBadGateway
}

package mcpedge

import (
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/json"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
)

// MCPPath is where HTTPHandler serves streamable HTTP.
const MCPPath = "/mcp"

// HTTPOptions configure HTTPHandler.
type HTTPOptions struct {
	// BearerToken, when set, is required as "Authorization: Bearer <token>".
	BearerToken string
	// AllowedHosts are Host header values accepted besides loopback ones: a
	// bare name matches any port, "name:port" only that port.
	AllowedHosts []string
	// AllowedOrigins are Origin values accepted besides loopback origins,
	// e.g. "https://app.example.com".
	AllowedOrigins []string
	// SessionIdleTTL ends a session idle for that long, releasing its tabs
	// (0: Limits.SessionIdle; negative: sessions end on DELETE or Edge.Close
	// only).
	SessionIdleTTL time.Duration
	// Workbench, when set, serves WorkbenchPath and below, after the Host and
	// Origin checks and instead of the bearer token: the workbench has its
	// own token (a person's browser sends no Authorization header).
	Workbench http.Handler
	// Ready answers /readyz (ops.go): nil errors mean ready. It runs under
	// a context bounded by ReadyWait. Nil: ready whenever not draining.
	Ready     func(ctx context.Context) error
	ReadyWait time.Duration
	// Metrics, when set, serves MetricsPath behind the bearer token.
	Metrics http.Handler
}

// WorkbenchPath is where HTTPOptions.Workbench is served.
const WorkbenchPath = "/workbench"

// Guard returns the MCP endpoint's DNS-rebinding check for other pages a
// loopback server serves (the workbench): false when the Host is neither
// loopback nor allowed, or a present Origin is neither a loopback origin nor
// allowed, with the reason to answer 403 with.
func Guard(allowedHosts, allowedOrigins []string) func(*http.Request) (ok bool, why string) {
	g := guardOf(allowedHosts, allowedOrigins)
	return func(r *http.Request) (bool, string) {
		if !g.hostAllowed(r.Host) {
			return false, "Forbidden: Host not allowed"
		}
		if !g.originAllowed(r.Header) {
			return false, "Forbidden: Origin not allowed"
		}
		return true, ""
	}
}

// guardOf parses the allowed hosts and origins into an httpEdge's checks.
func guardOf(allowedHosts, allowedOrigins []string) *httpEdge {
	g := &httpEdge{origins: make(map[string]bool)}
	for _, h := range allowedHosts {
		if h == "" {
			continue
		}
		name, port := splitHostPort(h)
		g.hosts = append(g.hosts, allowedHost{name: name, port: port})
	}
	for _, origin := range allowedOrigins {
		if origin != "" {
			g.origins[normalizeOrigin(origin)] = true
		}
	}
	return g
}

// HTTPHandler serves streamable HTTP at MCPPath, with DNS-rebinding
// protection: a Host that is neither loopback nor allowed, or a present
// Origin that is neither a loopback origin nor allowed, gets 403; a missing or
// wrong bearer token gets 401. A body past Limits.RequestBytes gets 413 and is
// never read further. Sessions are stateful (unknown session ids get 404)
// and end after SessionIdleTTL without a request; each is a Ghostlight
// workspace. Requests of MCP 2026-07-28, which has no sessions, are served
// too, each in the workspace its handles route to (stateless.go).
func (e *Edge) HTTPHandler(o HTTPOptions) http.Handler {
	opts := []server.StreamableHTTPOption{
		server.WithEndpointPath(MCPPath),
		server.WithStateful(true),
		// mcp-go's own check would refuse AllowedHosts; ours replaces it.
		server.WithDisableLocalhostProtection(true),
		server.WithStreamableHTTPLogger(e.log),
		// Every revision mcp-go speaks: 2026-07-28 requests carry no
		// session and run in workspaces their handles route to (stateless.go).
		server.WithStreamableHTTPProtocolVersions(ProtocolVersions()...),
	}
	ttl := o.SessionIdleTTL
	if ttl == 0 {
		ttl = e.limits.SessionIdle
	}
	var idle *idleSessions
	if ttl > 0 { // idle.go: Ghostlight's clock; mcp-go's sweeper only tidies after it
		idle = newIdleSessions(ttl)
		mgr := idleManager{&server.InsecureStatefulSessionIdManager{}, idle}
		opts = append(opts, server.WithSessionIdManager(mgr), server.WithSessionIdleTTL(mcpIdleTTL(ttl)))
		ctx, cancel := context.WithCancel(context.Background())
		go e.sweepIdle(ctx, idle, mgr)
		e.mu.Lock()
		e.stops = append(e.stops, cancel)
		e.mu.Unlock()
	}
	s := server.NewStreamableHTTPServer(e.srv, opts...)
	e.mu.Lock()
	e.https = append(e.https, s)
	e.mu.Unlock()

	g := guardOf(o.AllowedHosts, o.AllowedOrigins)
	g.mcp, g.rw, g.maxBody, g.echo, g.workbench, g.idle = s, e.rewriter, e.limits.RequestBytes, e.limits.EchoChars, o.Workbench, idle
	g.ready, g.readyWait, g.metrics, g.drain, g.stateless = o.Ready, o.ReadyWait, o.Metrics, e.drain, e.stateless
	if o.BearerToken != "" {
		g.hasToken = true
		g.token = sha256.Sum256([]byte(o.BearerToken))
	}
	return g
}

type allowedHost struct{ name, port string }

type httpEdge struct {
	mcp      *server.StreamableHTTPServer
	rw       *rewriter
	hasToken bool
	token    [sha256.Size]byte
	hosts    []allowedHost
	origins  map[string]bool
	maxBody  int
	echo     int
	// workbench serves WorkbenchPath (HTTPOptions.Workbench).
	workbench http.Handler
	idle      *idleSessions // nil: sessions never idle out
	// ops.go
	ready     func(context.Context) error
	readyWait time.Duration
	metrics   http.Handler
	drain     *drainer
	stateless *stateless
}

func (g *httpEdge) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if g.serveProbe(w, r) { // before every check: probes answer nothing else (ops.go)
		return
	}
	if !g.hostAllowed(r.Host) {
		http.Error(w, "Forbidden: Host not allowed", http.StatusForbidden)
		return
	}
	if !g.originAllowed(r.Header) {
		http.Error(w, "Forbidden: Origin not allowed", http.StatusForbidden)
		return
	}
	if g.workbench != nil && (r.URL.Path == WorkbenchPath || strings.HasPrefix(r.URL.Path, WorkbenchPath+"/")) {
		g.workbench.ServeHTTP(w, r)
		return
	}
	if !g.authorized(r.Header.Get("Authorization")) {
		w.Header().Set("WWW-Authenticate", "Bearer")
		http.Error(w, "Unauthorized", http.StatusUnauthorized)
		return
	}
	if g.metrics != nil && r.URL.Path == MetricsPath {
		g.metrics.ServeHTTP(w, r)
		return
	}
	if r.URL.Path != MCPPath {
		http.NotFound(w, r)
		return
	}
	method := ""
	var id json.RawMessage
	if r.Method == http.MethodPost {
		var ok bool
		if method, id, ok = g.readBody(w, r); !ok {
			return
		}
	}
	who := httpPrincipal(r, g.bearer(r))
	leave, ok := g.drain.admit(r.Method == http.MethodPost && g.opensWorkspace(r, method, who))
	if !ok {
		refuseDraining(w, id, g.drain.retry)
		return
	}
	defer leave()
	if statelessCancel(r, method) {
		// 2026-07-28 cancels by ending the request's stream, which
		// cancels the call; a client that also posts the notification
		// (the Go SDK does) is told it was accepted, not refused.
		w.WriteHeader(http.StatusAccepted)
		return
	}
	hw := &httpWriter{ResponseWriter: w, rw: g.rw, echo: g.echo}
	ctx := context.WithValue(r.Context(), withholdKey{}, withholder(hw))
	if method == string(mcp.MethodToolsCall) { // whose workspace a stateless call runs in (stateless.go)
		ctx = context.WithValue(ctx, principalKey{}, httpPrincipalValue{digest: who, token: g.hasToken})
	}
	if method == string(mcp.MethodToolsCall) {
		ctx = context.WithValue(ctx, callingKey{}, true) // the tool filter passes it (advertise.go)
	}
	r = r.WithContext(ctx)
	done := idleRequest(g.idle, r)
	g.mcp.ServeHTTP(hw, r)
	done()
	hw.finish()
}

func (g *httpEdge) hostAllowed(host string) bool {
	if host == "" {
		return false
	}
	name, port := splitHostPort(host)
	if isLoopbackName(name) {
		return true
	}
	for _, a := range g.hosts {
		if strings.EqualFold(a.name, name) && (a.port == "" || a.port == port) {
			return true
		}
	}
	return false
}

func (g *httpEdge) originAllowed(h http.Header) bool {
	vals, present := h["Origin"]
	if !present {
		return true
	}
	if len(vals) != 1 || vals[0] == "" {
		return false
	}
	if g.origins[normalizeOrigin(vals[0])] {
		return true
	}
	u, err := url.Parse(vals[0])
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" ||
		u.User != nil || u.Opaque != "" || (u.Path != "" && u.Path != "/") || u.RawQuery != "" || u.Fragment != "" {
		return false
	}
	return isLoopbackName(u.Hostname())
}

func (g *httpEdge) authorized(auth string) bool {
	if !g.hasToken {
		return true
	}
	const scheme = "Bearer "
	if len(auth) <= len(scheme) || !strings.EqualFold(auth[:len(scheme)], scheme) {
		return false
	}
	// Comparing digests keeps the comparison constant-time in the length too.
	got := sha256.Sum256([]byte(auth[len(scheme):]))
	return subtle.ConstantTimeCompare(got[:], g.token[:]) == 1
}

// bearer is the token an authorized request presented ("" without one).
func (g *httpEdge) bearer(r *http.Request) string {
	if !g.hasToken {
		return ""
	}
	return r.Header.Get("Authorization")[len("Bearer "):]
}

func normalizeOrigin(o string) string {
	return strings.ToLower(strings.TrimSuffix(o, "/"))
}

func splitHostPort(hp string) (host, port string) {
	if h, p, err := net.SplitHostPort(hp); err == nil {
		return h, p
	}
	return strings.TrimSuffix(strings.TrimPrefix(hp, "["), "]"), ""
}

// isLoopbackName: "localhost" or a loopback IP literal.
func isLoopbackName(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip, err := netip.ParseAddr(host)
	return err == nil && ip.IsLoopback()
}

// ListenOption configures ListenAndServe.
type ListenOption func(*listenConfig)

type listenConfig struct {
	allowNonLoopback bool
	onListen         func(net.Addr)
}

// AllowNonLoopback lets ListenAndServe bind beyond loopback.
func AllowNonLoopback() ListenOption {
	return func(c *listenConfig) { c.allowNonLoopback = true }
}

// OnListen is called with the bound address once the listener is open
// (useful with port 0).
func OnListen(fn func(net.Addr)) ListenOption {
	return func(c *listenConfig) { c.onListen = fn }
}

// ListenAndServe serves h on addr until ctx is done (then it closes every
// connection and returns nil). It refuses an address that is not loopback
// unless AllowNonLoopback is given: an empty host (":8080") listens on every
// interface, and a name other than localhost may resolve anywhere.
func ListenAndServe(ctx context.Context, addr string, h http.Handler, opts ...ListenOption) error {
	var cfg listenConfig
	for _, o := range opts {
		o(&cfg)
	}
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return &Error{Kind: KindListen, Addr: addr, Err: err}
	}
	if !cfg.allowNonLoopback && !isLoopbackName(host) {
		return &Error{Kind: KindNonLoopbackAddress, Addr: addr, Detail: "refusing to listen beyond loopback"}
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return &Error{Kind: KindListen, Addr: addr, Err: err}
	}
	// "localhost" is resolved by the system: check what was actually bound.
	if tcp, ok := ln.Addr().(*net.TCPAddr); !cfg.allowNonLoopback && (!ok || !tcp.IP.IsLoopback()) {
		_ = ln.Close()
		return &Error{Kind: KindNonLoopbackAddress, Addr: ln.Addr().String(), Detail: "resolved beyond loopback"}
	}
	if cfg.onListen != nil {
		cfg.onListen(ln.Addr())
	}
	// Requests other than event streams (GET) are answers being made: a
	// stopping listener lets them finish writing (a drain ends the moment
	// the last call returns, before its answer is on the wire).
	var answering sync.WaitGroup
	counted := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet {
			answering.Add(1)
			defer answering.Done()
		}
		h.ServeHTTP(w, r)
	})
	// Requests outlive ctx by that wait: their context ends once the
	// listener has closed every connection.
	base, endRequests := context.WithCancel(context.WithoutCancel(ctx))
	defer endRequests()
	// No write timeout: an SSE stream lasts as long as its session.
	srv := &http.Server{
		Handler:           counted,
		BaseContext:       func(net.Listener) context.Context { return base },
		ReadHeaderTimeout: time.Duration(surface.HttpHeaderMsMax) * time.Millisecond,
		MaxHeaderBytes:    surface.HttpHeaderBytesMax,
		IdleTimeout:       time.Duration(surface.HttpIdleConnMsMax) * time.Millisecond,
	}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	select {
	case err := <-served:
		return &Error{Kind: KindListen, Addr: addr, Err: err}
	case <-ctx.Done():
		// Accept nothing more, let the answers being written finish
		// (bounded), then close every connection: not Shutdown, since SSE
		// streams never go idle on their own.
		_ = ln.Close()
		<-served
		finished := make(chan struct{})
		go func() { answering.Wait(); close(finished) }()
		select {
		case <-finished:
		case <-time.After(time.Duration(surface.HttpFinishMsMax) * time.Millisecond):
		}
		_ = srv.Close()
		return nil
	}
}

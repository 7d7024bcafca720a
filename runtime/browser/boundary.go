package browser

// The host boundary: every request a governed tab's pages make is held in the
// browser (Fetch interception, set up before the target runs: attach.go) and
// decided by the tab's Boundary before it leaves. A denied request is failed
// inside the browser, so the site receives nothing.
//
// The executor knows nothing of governance: runtime/tools hands it a plain
// Admit function per call (WithBoundary). Who decides, and when:
//   - while a call holds a tab (Tab.Do, Navigate, History, ...), the call's
//     own authority decides, restrictions included;
//   - between calls, the tab keeps the configured layers of its last call
//     (that call's authority without its restrictions);
//   - a tab a page opened starts with its opener's, and its first request is
//     decided by the opener's current boundary;
//   - a tab no call ever governed admits everything (executor tests, and
//     pages of a connected browser that no workspace owns).

import (
	"context"
	"net/netip"
	"net/url"
	"strings"
	"sync"

	"github.com/ghostlight-dev/ghostlight/generated/limits"
)

// RequestKind says what a held request is for.
type RequestKind int

const (
	// RequestNavigation is a tab's own document: a navigation, each redirect
	// hop, a form submission, a location change by script, a history move.
	RequestNavigation RequestKind = iota
	// RequestFrame is a frame's document (and its redirect hops).
	RequestFrame
	// RequestPopup is the first document of a tab a page opened (popup,
	// target=_blank, window.open), before it is adopted.
	RequestPopup
	// RequestSubresource is any other request (fetch, XHR, beacon,
	// EventSource, scripts, images, worker requests), governed only when the
	// boundary covers all requests.
	RequestSubresource
	// RequestSocket is a WebSocket handshake (all requests only). Chromium's
	// interception never sees one: sockets are held by SocketRules the browser
	// applies itself, and only counted here.
	RequestSocket
)

var requestKindNames = [...]string{"navigation", "frame", "popup", "subresource", "socket"}

func (k RequestKind) String() string {
	if k >= 0 && int(k) < len(requestKindNames) {
		return requestKindNames[k]
	}
	return "request"
}

// Admit decides one request: host is the URL's host or host:port. layer names
// who decided a denial.
type Admit func(host string, kind RequestKind) (allowed bool, layer string)

// SocketRule is one WebSocket URL rule, in URLPattern syntax
// ("ws://example.com:*/*"); the first rule a URL matches decides.
type SocketRule struct {
	Pattern string
	Allow   bool
}

// Boundary is what decides a tab's requests.
type Boundary struct {
	Admit Admit // nil admits every request
	// All holds every request, not only documents (hosts.requests: "all").
	All bool
	// Sockets decide WebSockets when All is set (first match wins; a socket
	// no rule matches is allowed).
	Sockets []SocketRule
	// Ceiling decides, in every mode, the requests to CeilingPorts: listeners
	// no page may reach (Ghostlight's own, an attached browser's DevTools
	// endpoint). Every request to those ports is held, subresources in
	// documents-only mode included (selfceiling.go).
	Ceiling      Admit
	CeilingPorts []string
	// CeilingSockets refuse WebSockets to those listeners in every mode,
	// ahead of Sockets.
	CeilingSockets []SocketRule
	// AdmitAddr decides every address a host resolves to, before the
	// policy proxy connects (hosts.addresses: every connection, every mode);
	// nil admits every address.
	AdmitAddr func(ip netip.Addr) (allowed bool, layer string)
}

func (b Boundary) admit(host string, kind RequestKind) (bool, string) {
	if b.Admit == nil {
		return true, ""
	}
	return b.Admit(host, kind)
}

// socketKey identifies a socket rule list and the ceiling's held ports (to
// apply them only when they changed).
func (b Boundary) socketKey() string {
	if !b.All {
		return b.ceilingKey()
	}
	var s strings.Builder
	s.WriteString("all")
	s.WriteString(b.ceilingKey())
	for _, r := range b.Sockets {
		if r.Allow {
			s.WriteString("|+")
		} else {
			s.WriteString("|-")
		}
		s.WriteString(r.Pattern)
	}
	return s.String()
}

type boundaryKey struct{}

type callBoundary struct{ call, between Boundary }

// WithBoundary returns ctx carrying a call's boundary: every tab the call
// holds is decided by call while it is held, and by between once the call
// lets it go.
func WithBoundary(ctx context.Context, call, between Boundary) context.Context {
	return context.WithValue(ctx, boundaryKey{}, &callBoundary{call: call, between: between})
}

func boundaryFrom(ctx context.Context) *callBoundary {
	cb, _ := ctx.Value(boundaryKey{}).(*callBoundary)
	return cb
}

// tabBoundary is a slot's boundary state. A tab a page opened follows its
// opener's until a call governs it.
type tabBoundary struct {
	mu      sync.Mutex
	current Boundary
	between Boundary
	opener  *tabBoundary
}

func (tb *tabBoundary) now() Boundary {
	tb.mu.Lock()
	o, cur := tb.opener, tb.current
	tb.mu.Unlock()
	if o != nil {
		return o.now()
	}
	return cur
}

func (tb *tabBoundary) set(current, between Boundary) {
	tb.mu.Lock()
	tb.current, tb.between, tb.opener = current, between, nil
	tb.mu.Unlock()
}

// following reports that the tab still follows its opener (no call has
// governed it yet).
func (tb *tabBoundary) following() bool {
	tb.mu.Lock()
	defer tb.mu.Unlock()
	return tb.opener != nil
}

func (tb *tabBoundary) follow(o *tabBoundary) {
	tb.mu.Lock()
	tb.opener = o
	tb.mu.Unlock()
}

// release puts the between-calls boundary back in force.
func (tb *tabBoundary) release() Boundary {
	tb.mu.Lock()
	defer tb.mu.Unlock()
	tb.current = tb.between
	return tb.current
}

// Boundary is the boundary deciding the tab's requests now.
func (t *Tab) Boundary() Boundary { return t.bound.now() }

// govern puts the call's boundary in force on the tab while it is held (see
// hold) and returns the function that restores the between-calls boundary.
// A change of what is held (documents only or every request) is applied to
// every session of the tab before the call goes on.
func (t *Tab) govern(ctx context.Context, bd *binding, cb *callBoundary) func() {
	prev := t.bound.now()
	t.bound.set(cb.call, cb.between)
	t.ws.noteWallBetween(cb.between)
	bd.conn.noteBetween(ctx, cb.between)
	if !t.ws.isolated() {
		bd.conn.noteSharedBetween(cb.between)
	}
	if prev.socketKey() != cb.call.socketKey() {
		bd.conn.applyTab(ctx, bd)
	}
	return func() {
		after := t.bound.release()
		if after.socketKey() != cb.call.socketKey() {
			c, cancel := bd.observeContext(ctx)
			defer cancel()
			bd.conn.applyTab(c, bd)
		}
	}
}

// Blocked is one request the boundary failed inside the browser.
type Blocked struct {
	Seq   uint64
	Tab   string // the tab whose page made it (the opener, for a popup)
	Host  string // host or host:port
	Layer string
	Kind  RequestKind
	// Popup is the handle of the popup, adopted while blank, that this
	// record closed ("" when none was adopted): a result that says so does
	// not also list it as opened.
	Popup string
	// loader is the navigation's loader (the Network request id of a
	// document), matched against a navigation command's own.
	loader string
	said   bool // a popup record some result has worded (SayPopups)
}

// maxBlockedKept bounds the blocked requests a workspace remembers.
const maxBlockedKept = limits.BlockedRequestsKeptMax

// blockedLog is a workspace's record of blocked requests.
type blockedLog struct {
	mu      sync.Mutex
	seq     uint64
	recent  []Blocked // the last maxBlockedKept
	untaken int       // blocked since TakeBlocked last ran
	hosts   []string  // their hosts, at most limits.BlockedHostsMax
}

func (l *blockedLog) add(b Blocked) Blocked {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.seq++
	b.Seq = l.seq
	if len(l.recent) >= maxBlockedKept {
		l.recent = l.recent[1:]
	}
	l.recent = append(l.recent, b)
	l.untaken++
	known := false
	for _, h := range l.hosts {
		known = known || h == b.Host
	}
	if !known && len(l.hosts) < limits.BlockedHostsMax {
		l.hosts = append(l.hosts, b.Host)
	}
	return b
}

// BlockedMark is the workspace's current blocked-request sequence: records
// after it are newer.
func (ws *Workspace) BlockedMark() uint64 {
	ws.blocked.mu.Lock()
	defer ws.blocked.mu.Unlock()
	return ws.blocked.seq
}

// BlockedSince returns the requests blocked after mark for pages of the tab
// handle ("" for every tab), oldest first (at most the last 64 are kept).
func (ws *Workspace) BlockedSince(mark uint64, handle string) []Blocked {
	ws.blocked.mu.Lock()
	defer ws.blocked.mu.Unlock()
	var out []Blocked
	for _, b := range ws.blocked.recent {
		if b.Seq > mark && (handle == "" || b.Tab == handle) {
			out = append(out, b)
		}
	}
	return out
}

// SayPopups returns, once each, the records of popups closed after mark for
// pages of the tab handle ("" for every tab) that no result has worded yet,
// and marks them worded: every closed popup is said by exactly one result,
// whichever call sees it first.
func (ws *Workspace) SayPopups(mark uint64, handle string) []Blocked {
	ws.blocked.mu.Lock()
	defer ws.blocked.mu.Unlock()
	var out []Blocked
	for i := range ws.blocked.recent {
		b := &ws.blocked.recent[i]
		if b.Kind == RequestPopup && !b.said && b.Seq > mark && (handle == "" || b.Tab == handle) {
			b.said = true
			out = append(out, *b)
		}
	}
	return out
}

// TakeBlocked returns, once, how many requests the boundary failed since the
// previous call and the hosts they were for (at most limits.BlockedHostsMax).
func (ws *Workspace) TakeBlocked() (int, []string) {
	ws.blocked.mu.Lock()
	defer ws.blocked.mu.Unlock()
	n, hosts := ws.blocked.untaken, ws.blocked.hosts
	ws.blocked.untaken, ws.blocked.hosts = 0, nil
	return n, hosts
}

// requestHost is the host (host:port when the URL names a port) a request
// goes to, and whether the boundary governs its scheme at all (data:, blob:
// and the like never leave the browser).
func requestHost(raw string) (string, bool) {
	u, err := url.Parse(raw)
	if err != nil {
		// Go refuses some URLs Chromium sends (a %-escape left in a host):
		// a web scheme's authority still goes to the boundary, which
		// refuses what it cannot read, rather than the request passing
		// unchecked.
		scheme, rest, ok := strings.Cut(raw, "://")
		switch strings.ToLower(scheme) {
		case "http", "https", "ws", "wss":
			if i := strings.IndexAny(rest, "/?#"); i >= 0 {
				rest = rest[:i]
			}
			return rest, ok && rest != ""
		}
		return "", false
	}
	switch strings.ToLower(u.Scheme) {
	case "http", "https", "ws", "wss":
		return strings.ToLower(u.Host), u.Host != ""
	}
	return "", false
}

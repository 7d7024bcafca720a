// Package evidence collects bounded console and network evidence for one
// page: console calls, uncaught exceptions and completed or failed requests,
// kept in a ring buffer of a fixed capacity. It knows nothing of MCP or
// governance: callers pass their bounds and a host predicate.
//
// Evidence is untrusted page content. The collector keeps only what a
// reader may see: console text and exception messages cut to a bound, and
// for requests the method, the URL path, the host and the status (and
// whether the policy proxy, not a host, answered). Other headers,
// bodies, cookies, post data, query strings and fragments are never read
// into it.
package evidence

import (
	"context"
	"encoding/json"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"github.com/go-rod/rod/lib/proto"

	"github.com/ghostlight-dev/ghostlight/runtime/browser"
	"github.com/ghostlight-dev/ghostlight/runtime/browser/netwall"
)

// Kinds of entries.
const (
	KindConsole   = "console"
	KindException = "exception"
	KindRequest   = "request"
)

// Request levels.
const (
	LevelFailed = "failed" // the request never completed
	LevelError  = "error"  // an HTTP error response (status >= 400); also an exception's level
	LevelOK     = "ok"     // any other completed response
)

// Limits bound a collector.
type Limits struct {
	Capacity int // entries kept; older ones are evicted
	TextMax  int // characters of an entry's text
}

// Entry is one piece of evidence.
type Entry struct {
	Seq    uint64 // grows across every collector of the process
	Kind   string
	Level  string
	Text   string
	Status int    // HTTP status of a request (0 when none was received)
	Host   string // host[:port] of a request
}

// Problem reports whether the entry is a problem: a console warning, error or
// failed assertion, an exception, a failed request or an HTTP error response.
func (e Entry) Problem() bool {
	switch e.Kind {
	case KindConsole:
		return e.Level == "warning" || e.Level == "error" || e.Level == "assert"
	case KindException:
		return true
	case KindRequest:
		return e.Level == LevelFailed || e.Status >= 400
	}
	return false
}

// seq numbers entries across collectors, so a cursor minted by a collector
// that has since been replaced never hides a newer collector's entries.
var seq atomic.Uint64

// Collector keeps the evidence of one page.
type Collector struct {
	lim   Limits
	start float64 // ms since the epoch: console events stamped earlier are replays
	base  uint64  // the sequence when tracking started
	obs   *browser.Observation

	mu      sync.Mutex
	ring    []Entry
	head    int // index of the oldest entry
	n       int
	evicted int
	pending map[proto.NetworkRequestID]*request
}

type request struct {
	method, path, host string
	status             int
	seq                uint64 // its entry, once the response arrived (0: none yet)
}

// New returns a collector that observes nothing yet; Start wires one to a tab.
func New(lim Limits) *Collector {
	if lim.Capacity < 1 {
		lim.Capacity = 1
	}
	c := &Collector{lim: lim, ring: make([]Entry, lim.Capacity), base: seq.Load(),
		pending: map[proto.NetworkRequestID]*request{}}
	c.start = float64(time.Now().UnixMilli())
	return c
}

// Start begins observing the tab's current page. Events are recorded in the
// browser's order as they are read (browser.Tab.Observe), so after a
// Tab.Sync every event the page emitted before it is here. The observation
// ends when the page goes away or Stop is called; ctx bounds only the setup
// calls. It enables the Runtime and Network domains (Network with no payload
// buffering) and never disables them: other observers rely on them.
func Start(ctx context.Context, t *browser.Tab, lim Limits) (*Collector, error) {
	c := New(lim)
	obs, err := t.Observe(c.record)
	if err != nil {
		return nil, err
	}
	c.obs = obs
	if err := t.EnableNetwork(ctx); err != nil {
		c.Stop()
		return nil, err
	}
	if err := t.EnableRuntime(ctx); err != nil {
		c.Stop()
		return nil, err
	}
	return c, nil
}

// Stop ends observation; the evidence stays readable.
func (c *Collector) Stop() {
	if c.obs != nil {
		c.obs.Stop()
	}
}

// Ended reports whether observation has ended (the page went away or Stop
// was called). A collector made by New never observed anything: it counts
// as ended.
func (c *Collector) Ended() bool {
	return c.obs == nil || c.obs.Ended()
}

// record turns one protocol event into evidence. It runs in the
// connection's read loop: it only records.
func (c *Collector) record(method string, params json.RawMessage) {
	switch method {
	case "Runtime.consoleAPICalled":
		var e proto.RuntimeConsoleAPICalled
		if json.Unmarshal(params, &e) != nil || float64(e.Timestamp) < c.start {
			return
		}
		c.Add(Entry{Kind: KindConsole, Level: string(e.Type), Text: consoleText(e.Args)})
	case "Runtime.exceptionThrown":
		var e proto.RuntimeExceptionThrown
		if json.Unmarshal(params, &e) != nil || float64(e.Timestamp) < c.start || e.ExceptionDetails == nil {
			return
		}
		c.Add(Entry{Kind: KindException, Level: LevelError, Text: exceptionText(e.ExceptionDetails)})
	case "Network.requestWillBeSent":
		var e proto.NetworkRequestWillBeSent
		if json.Unmarshal(params, &e) != nil || e.Request == nil {
			return
		}
		c.mu.Lock()
		if prev := c.pending[e.RequestID]; prev != nil && e.RedirectResponse != nil && prev.seq == 0 {
			prev.status = e.RedirectResponse.Status
			c.addLocked(prev.entry(false))
		}
		delete(c.pending, e.RequestID)
		if r := newRequest(e.Request.Method, e.Request.URL); r != nil && len(c.pending) < c.lim.Capacity {
			c.pending[e.RequestID] = r
		}
		c.mu.Unlock()
	case "Network.responseReceived":
		// The response is the evidence: a page that read a status has it
		// here, even while the body is still arriving (or never read).
		var e proto.NetworkResponseReceived
		if json.Unmarshal(params, &e) != nil || e.Response == nil {
			return
		}
		c.mu.Lock()
		if r := c.pending[e.RequestID]; r != nil && r.seq == 0 {
			if fromWall(e.Response.Headers) {
				// The policy proxy answered: no host did, so no status.
				delete(c.pending, e.RequestID)
				c.addLocked(r.entry(true))
			} else {
				r.status = e.Response.Status
				r.seq = c.addLocked(r.entry(false))
			}
		}
		c.mu.Unlock()
	case "Network.loadingFinished":
		var e proto.NetworkLoadingFinished
		if json.Unmarshal(params, &e) == nil {
			c.finish(e.RequestID, false)
		}
	case "Network.loadingFailed":
		var e proto.NetworkLoadingFailed
		if json.Unmarshal(params, &e) == nil {
			c.finish(e.RequestID, true)
		}
	}
}

// finish ends a request: its entry is added now when no response made one,
// and one made at the response turns failed when the body then failed.
func (c *Collector) finish(id proto.NetworkRequestID, failed bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	r := c.pending[id]
	if r == nil {
		return
	}
	delete(c.pending, id)
	if r.seq == 0 {
		c.addLocked(r.entry(failed))
		return
	}
	if failed {
		for i := c.n - 1; i >= 0; i-- {
			e := &c.ring[(c.head+i)%len(c.ring)]
			if e.Seq == r.seq {
				e.Level = LevelFailed
				break
			}
			if e.Seq < r.seq {
				break
			}
		}
	}
}

// fromWall says the response is the policy proxy's own (netwall.WallHeader),
// the one header the collector looks at, and only for its presence.
func fromWall(h proto.NetworkHeaders) bool {
	for k := range h {
		if strings.EqualFold(k, netwall.WallHeader) {
			return true
		}
	}
	return false
}

// newRequest keeps what a request entry may say: the method, the path and
// the host. Other schemes (data:, blob:, extensions) are not requests to a
// host and are not kept.
func newRequest(method, raw string) *request {
	u, err := url.Parse(raw)
	if err != nil {
		return nil
	}
	switch u.Scheme {
	case "http", "https", "ws", "wss":
	default:
		return nil
	}
	path := u.EscapedPath()
	if path == "" {
		path = "/"
	}
	return &request{method: method, path: path, host: u.Host}
}

func (r *request) entry(failed bool) Entry {
	e := Entry{Kind: KindRequest, Level: LevelOK, Text: r.method + " " + r.path, Status: r.status, Host: r.host}
	switch {
	case failed:
		e.Level = LevelFailed
	case r.status >= 400:
		e.Level = LevelError
	}
	return e
}

// consoleText renders a console call's arguments as the console would,
// roughly: strings as they are, other values by their description.
func consoleText(args []*proto.RuntimeRemoteObject) string {
	parts := make([]string, 0, len(args))
	for _, a := range args {
		if a == nil {
			continue
		}
		switch {
		case a.Type == proto.RuntimeRemoteObjectTypeString:
			parts = append(parts, a.Value.Str())
		case a.UnserializableValue != "":
			parts = append(parts, string(a.UnserializableValue))
		case a.Description != "":
			parts = append(parts, a.Description)
		case !a.Value.Nil():
			parts = append(parts, a.Value.String())
		default:
			parts = append(parts, string(a.Type))
		}
	}
	return strings.Join(parts, " ")
}

// exceptionText is the exception's message line: its description without
// the stack (whose script URLs may carry query strings).
func exceptionText(d *proto.RuntimeExceptionDetails) string {
	s := d.Text
	if d.Exception != nil && d.Exception.Description != "" {
		s = d.Exception.Description
	} else if d.Exception != nil && !d.Exception.Value.Nil() {
		s = d.Text + " " + d.Exception.Value.String()
	}
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	return strings.TrimSpace(s)
}

// Add appends an entry, evicting the oldest when the buffer is full. It sets
// the entry's sequence number and bounds its text.
func (c *Collector) Add(e Entry) {
	c.mu.Lock()
	c.addLocked(e)
	c.mu.Unlock()
}

// addLocked appends e and returns its sequence number.
func (c *Collector) addLocked(e Entry) uint64 {
	e.Text = bounded(e.Text, c.lim.TextMax)
	e.Seq = seq.Add(1)
	if c.n == len(c.ring) {
		c.ring[c.head] = e
		c.head = (c.head + 1) % len(c.ring)
		c.evicted++
		return e.Seq
	}
	c.ring[(c.head+c.n)%len(c.ring)] = e
	c.n++
	return e.Seq
}

func bounded(s string, n int) string {
	if n <= 0 || utf8.RuneCountInString(s) <= n {
		return s
	}
	return string([]rune(s)[:n])
}

// Query selects entries.
type Query struct {
	After    uint64 // only entries with a greater sequence
	Console  bool   // console entries and exceptions
	Network  bool   // request entries
	Problems bool   // only problems
	Match    string // case-insensitive literal substring of the text ("" = any)
	Limit    int
	// Admit reports whether a request's host may be shown; nil admits all.
	// Withheld entries are counted, not returned.
	Admit func(host string) bool
}

// Result is one read. Reads never remove entries.
type Result struct {
	Entries      []Entry
	Next         uint64 // the cursor to continue from
	Truncated    bool   // more matching entries wait after Next
	Evicted      int    // entries lost to the capacity since tracking started
	HostFiltered int    // matching request entries withheld by Admit
}

// Read returns up to q.Limit matching entries after q.After, oldest first.
func (c *Collector) Read(q Query) Result {
	c.mu.Lock()
	defer c.mu.Unlock()
	res := Result{Evicted: c.evicted, Next: max(q.After, c.base)}
	limit := max(q.Limit, 1)
	filtered := 0 // withheld entries up to the last one returned
	match := strings.ToLower(q.Match)
	for i := 0; i < c.n; i++ {
		e := c.ring[(c.head+i)%len(c.ring)]
		if e.Seq <= q.After {
			continue
		}
		if !c.selects(q, e, match) {
			res.Next = e.Seq
			continue
		}
		if e.Kind == KindRequest && q.Admit != nil && !q.Admit(e.Host) {
			res.HostFiltered++
			res.Next = e.Seq
			continue
		}
		if len(res.Entries) == limit {
			// Continue right after the last entry returned; what was
			// withheld beyond it is counted by the read that gets there.
			res.Truncated = true
			res.Next = res.Entries[len(res.Entries)-1].Seq
			res.HostFiltered = filtered
			break
		}
		res.Entries = append(res.Entries, e)
		res.Next = e.Seq
		filtered = res.HostFiltered
	}
	return res
}

func (c *Collector) selects(q Query, e Entry, match string) bool {
	if e.Kind == KindRequest && !q.Network || e.Kind != KindRequest && !q.Console {
		return false
	}
	if q.Problems && !e.Problem() {
		return false
	}
	return match == "" || strings.Contains(strings.ToLower(e.Text), match)
}

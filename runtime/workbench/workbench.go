// Package workbench is the person's page beside the model's tools: one
// loopback web app (HTML, CSS and JS embedded, no external asset) with four
// destinations. Policy shows the compiled projection policy_explain returns,
// with the layer files that decided it; Activity the durable audit, live;
// Tabs every controlled tab with a live view from its screencast, where the
// person takes over a credential handoff by clicking and typing into the page
// themselves; Recordings the recordings held in memory.
//
// It is protected like the MCP endpoint (Host and Origin, mcpedge.Guard) and
// by single-use tickets in the links it prints (auth.go): the first visit
// trades one for a session cookie of its own random value (HttpOnly,
// SameSite=Strict) and a redirect that drops it from the address; a tab's
// ticket opens that tab alone. Every answer carries a strict
// Content-Security-Policy.
//
// The package reaches the browser only through the Browser interface the
// server wires (it imports no rod), reads the policy through governance and
// the audit through runtime/audit. Nothing the person types is logged,
// audited or kept: input goes from the request straight to Browser.
package workbench

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/ghostlight-dev/ghostlight/runtime/governance"
)

// Path is where the workbench is served.
const Path = "/workbench"

// Browser is the executor as the workbench sees it.
type Browser interface {
	// Tabs lists every controlled tab of every session.
	Tabs() []Tab
	// Live starts a live view of a tab (by handle).
	Live(ctx context.Context, tab string) (Live, error)
	// HandBack closes the tab's credential handoff; false when none was open.
	HandBack(tab string) bool
	// Release lets the model's script run again on a tab's document the
	// person typed a credential into; false when none was held.
	Release(tab string) bool
	// Recordings lists the recordings in memory.
	Recordings() []Recording
	// RecordingGIF encodes a stopped recording (ErrNotFound when gone).
	RecordingGIF(session, handle string) ([]byte, error)
}

// Answerer is a Browser that takes the person's answer to a confirmation
// (policy confirm): "once", "page" or "refuse". HandBack is "once".
type Answerer interface {
	Answer(tab, answer string) bool
}

// answers are the answers handback?answer= takes (runtime/tools' Answer*).
var answers = map[string]bool{"once": true, "page": true, "refuse": true}

// ErrNotFound: no such tab or recording.
var ErrNotFound = errors.New("workbench: not found")

// ErrScriptedSite: the person's keys were not sent, because they were for a
// credential field of a site the model's own script ran on, where that
// script could still read them. Clearing the site (SiteClearer) lets them.
var ErrScriptedSite = errors.New("workbench: the model's script ran on this site")

// SiteClearer is a Browser that clears a tab's site for the person: its
// storage, service workers, caches and cookies go and the tab reloads, so
// nothing the model's script left there is running when the person types.
type SiteClearer interface {
	ClearSite(ctx context.Context, tab string) error
}

// Tab is one controlled tab.
type Tab struct {
	Session string   `json:"session"`
	Tab     string   `json:"tab"`
	URL     string   `json:"url"` // governed: no credentials, no fragment
	Title   string   `json:"title"`
	Handoff *Handoff `json:"handoff,omitempty"`
	// Held: the person typed a credential into the tab's document, so the
	// model's browser_execute is refused there until it navigates or the
	// person releases it.
	Held bool `json:"held,omitempty"`
	// Scripted: the model's own script ran on the tab's site, so the
	// person's keys reach none of its credential fields until the person
	// clears the site.
	Scripted bool `json:"scripted,omitempty"`
}

// Handoff is a credential handoff waiting on the person.
type Handoff struct {
	// Kind is "credential" (the person types a credential), "flow" (the
	// person allows one cross-site write by handing the tab back) or
	// "confirm" (the person approves a consequential action once or for
	// the page, or refuses it).
	Kind  string    `json:"kind"`
	Field string    `json:"field"`
	Host  string    `json:"host"`
	Since time.Time `json:"since"`
}

// Recording is one recording in memory.
type Recording struct {
	Session     string `json:"session"`
	Handle      string `json:"handle"`
	Tab         string `json:"tab"`
	State       string `json:"state"`
	Frames      int    `json:"frames"`
	DurationMs  int64  `json:"duration_ms"`
	RetentionMs int64  `json:"retention_ms"`
}

// Live is one tab's live view.
type Live interface {
	Frames() <-chan Frame // closed when the view ends
	Input(ctx context.Context, e Input) error
	Close()
}

// Frame is one JPEG frame of a live view.
type Frame struct {
	Seq           uint64
	JPEG          []byte
	Width, Height int
}

// Input is one input event the person sends into a tab (validated by the
// workbench before Browser sees it).
type Input struct {
	Type      string   `json:"type"` // click, wheel, key, text
	X         float64  `json:"x"`    // click, wheel: fraction of the frame across
	Y         float64  `json:"y"`    // fraction down
	Button    string   `json:"button,omitempty"`
	Count     int      `json:"count,omitempty"`
	DX        float64  `json:"dx,omitempty"`
	DY        float64  `json:"dy,omitempty"`
	Key       string   `json:"key,omitempty"`
	Modifiers []string `json:"modifiers,omitempty"`
	Text      string   `json:"text,omitempty"`
}

// Limits bound the workbench (the server fills them from spec/bounds.cue).
type Limits struct {
	ActivityLines  int
	LiveViews      int
	InputChars     int
	RequestBytes   int64
	PollMs         int
	Tickets        int           // tab tickets outstanding
	FullTickets    int           // full tickets outstanding
	Sessions       int           // sessions held
	TicketLifetime time.Duration // how long a ticket may wait to be used
	ClickCount     int
	KeyChars       int
	WheelDelta     float64
	InputTimeout   time.Duration
}

// Options configure a Workbench.
type Options struct {
	Browser Browser
	// Policy is the configured authority in force (the layer loader's Current).
	Policy func() *governance.Authority
	// AuditPath is the durable audit's file ("" when none is written).
	AuditPath func() string
	// AuditStatus says, for the person, why the audit cannot be written and
	// what is refused meanwhile ("" while it can be): the page's banner.
	AuditStatus func() string
	// Guard is the Host and Origin check (mcpedge.Guard).
	Guard  func(*http.Request) (bool, string)
	Limits Limits
	Logger *slog.Logger
	// Now is the clock tickets expire by (nil: time.Now).
	Now func() time.Time
}

// Workbench serves the person's page.
type Workbench struct {
	o   Options
	log *slog.Logger

	mu       sync.Mutex
	base     string // http://host:port, once listening
	tickets  []ticket
	sessions []session
	linkKey  string           // relink.go
	views    map[string]*view // live views by tab
}

// New makes a workbench.
func New(o Options) (*Workbench, error) {
	if o.Browser == nil || o.Policy == nil || o.Guard == nil {
		return nil, errors.New("workbench: Browser, Policy and Guard are required")
	}
	if o.AuditPath == nil {
		o.AuditPath = func() string { return "" }
	}
	if o.AuditStatus == nil {
		o.AuditStatus = func() string { return "" }
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	return &Workbench{o: o, log: o.Logger, views: map[string]*view{}}, nil
}

func randomToken() (string, error) {
	var b [32]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", err
	}
	return base64.RawURLEncoding.EncodeToString(b[:]), nil
}

// SetBase records where the workbench is reachable ("http://127.0.0.1:PORT");
// links are empty until then.
func (w *Workbench) SetBase(base string) {
	w.mu.Lock()
	w.base = strings.TrimSuffix(base, "/")
	w.mu.Unlock()
}

func (w *Workbench) baseURL() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.base
}

// TabLink is the live view of a tab, without any secret: the person's
// browser needs the workbench cookie (from the entry link) to open it.
func (w *Workbench) TabLink(tab string) string {
	b := w.baseURL()
	if b == "" || !handleLike(tab) {
		return ""
	}
	return b + Path + "/#" + tab
}

// handleLike: a tab handle as the executor mints them ("tab_" + base32).
func handleLike(s string) bool {
	if !strings.HasPrefix(s, "tab_") || len(s) > 64 || len(s) == 4 {
		return false
	}
	for _, c := range s[4:] {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

// ServeHTTP serves Path and below.
func (w *Workbench) ServeHTTP(rw http.ResponseWriter, r *http.Request) {
	secure(rw)
	if ok, why := w.o.Guard(r); !ok {
		http.Error(rw, why, http.StatusForbidden)
		return
	}
	p := r.URL.Path
	if p != Path && !strings.HasPrefix(p, Path+"/") {
		http.NotFound(rw, r)
		return
	}
	if p == Path {
		http.Redirect(rw, r, Path+"/", http.StatusSeeOther)
		return
	}
	rel := strings.TrimPrefix(p, Path+"/")
	if rel == "link" {
		w.relink(rw, r)
		return
	}
	if rel == "" && r.Method == http.MethodGet && w.enter(rw, r) {
		return // a ticket was traded for a session cookie
	}
	s, ok := w.sessionOf(r)
	if !ok {
		unauthorized(rw)
		return
	}
	if strings.HasPrefix(rel, "api/") {
		if !fromOwnPage(r) {
			http.Error(rw, "Forbidden: not from the workbench's own page", http.StatusForbidden)
			return
		}
		name := strings.TrimPrefix(rel, "api/")
		if !s.allows(name, r) {
			http.Error(rw, "Forbidden: this link opened one tab's view and hand-back only; open the full workbench link for the rest", http.StatusForbidden)
			return
		}
		w.api(rw, r, name, s.tab)
		return
	}
	w.asset(rw, r, rel)
}

// csp: everything from the workbench itself; no inline script or style;
// frames (data: JPEG) and replays (the GIF endpoint) as images.
const csp = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; connect-src 'self'; " +
	"frame-ancestors 'none'; base-uri 'none'; form-action 'none'; object-src 'none'"

func secure(rw http.ResponseWriter) {
	h := rw.Header()
	h.Set("Content-Security-Policy", csp)
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("X-Frame-Options", "DENY")
	h.Set("Cache-Control", "no-store")
	h.Set("Cross-Origin-Opener-Policy", "same-origin")
	h.Set("Cross-Origin-Resource-Policy", "same-origin")
}

func unauthorized(rw http.ResponseWriter) {
	rw.Header().Set("Content-Type", "text/plain; charset=utf-8")
	rw.WriteHeader(http.StatusUnauthorized)
	_, _ = rw.Write([]byte("The Ghostlight workbench needs its link: open the address Ghostlight printed on its standard error, or run `ghostlight workbench` for a fresh one (each link opens it once).\n"))
}

// Close ends every live view.
func (w *Workbench) Close() {
	w.mu.Lock()
	views := w.views
	w.views = map[string]*view{}
	w.mu.Unlock()
	for _, v := range views {
		v.live.Close()
	}
}

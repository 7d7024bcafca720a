package workbench

// Who may open the workbench. A link carries a ticket: random, single-use,
// valid for Limits.TicketLifetime. Opening it trades the ticket for a
// session cookie of its own random value (HttpOnly, SameSite=Strict, Path
// /workbench), so the link is worth nothing once used, and the cookie is
// no token anyone was shown. A full ticket (Link: the one printed at start,
// and `ghostlight workbench`) opens everything; a tab ticket (Ticket: the
// link a credential handoff sends the person) opens a session scoped to
// that tab: its live view, its input and its hand-back, and nothing else.

import (
	"crypto/sha256"
	"crypto/subtle"
	"net"
	"net/http"
	"time"
)

// ticket is one unused link.
type ticket struct {
	code    string
	tab     string // "" for a full ticket
	expires time.Time
}

// session is one browser that opened a link.
type session struct {
	id  string
	tab string // "" for the whole workbench
}

// mint adds a ticket for tab ("" for a full one) and returns its code, or
// "" when none could be made. Each kind keeps at most its limit
// outstanding; the oldest lapses first.
func (w *Workbench) mint(tab string) string {
	code, err := randomToken()
	if err != nil {
		return ""
	}
	limit := w.o.Limits.Tickets
	if tab == "" {
		limit = w.o.Limits.FullTickets
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	w.dropExpired()
	if limit > 0 {
		n := 0
		for _, t := range w.tickets {
			if (t.tab == "") == (tab == "") {
				n++
			}
		}
		for i := 0; n >= limit && i < len(w.tickets); {
			if (w.tickets[i].tab == "") == (tab == "") {
				w.tickets = append(w.tickets[:i], w.tickets[i+1:]...)
				n--
				continue
			}
			i++
		}
	}
	w.tickets = append(w.tickets, ticket{code: code, tab: tab, expires: w.now().Add(w.o.Limits.TicketLifetime)})
	return code
}

// dropExpired forgets tickets past their lifetime (w.mu held).
func (w *Workbench) dropExpired() {
	now := w.now()
	kept := w.tickets[:0]
	for _, t := range w.tickets {
		if w.o.Limits.TicketLifetime <= 0 || now.Before(t.expires) {
			kept = append(kept, t)
		}
	}
	w.tickets = kept
}

func (w *Workbench) now() time.Time {
	if w.o.Now != nil {
		return w.o.Now()
	}
	return time.Now()
}

// Link mints a fresh full link to the workbench ("" until it listens): a
// single-use ticket. Print it to the person (stderr), never to the model.
func (w *Workbench) Link() string {
	b := w.baseURL()
	if b == "" {
		return ""
	}
	code := w.mint("")
	if code == "" {
		return ""
	}
	return b + Path + "/?ticket=" + code
}

// Ticket mints a single-use link to a tab's live view and hand-back ("" until
// the workbench listens); the session it opens reaches that tab only.
func (w *Workbench) Ticket(tab string) string {
	b := w.baseURL()
	if b == "" || !handleLike(tab) {
		return ""
	}
	code := w.mint(tab)
	if code == "" {
		return ""
	}
	return b + Path + "/?ticket=" + code
}

// takeTicket spends a ticket: the tab it was for ("" for a full one), or
// false when it is unknown, used or expired.
func (w *Workbench) takeTicket(code string) (string, bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.dropExpired()
	for i, t := range w.tickets {
		if equal(t.code, code) {
			w.tickets = append(w.tickets[:i], w.tickets[i+1:]...)
			return t.tab, true
		}
	}
	return "", false
}

// open starts a session for tab ("" for the whole workbench) and returns
// its cookie value. At most Limits.Sessions are held; the oldest ends.
func (w *Workbench) open(tab string) (string, bool) {
	id, err := randomToken()
	if err != nil {
		return "", false
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if n := w.o.Limits.Sessions; n > 0 && len(w.sessions) >= n {
		w.sessions = append(w.sessions[:0], w.sessions[len(w.sessions)-n+1:]...)
	}
	w.sessions = append(w.sessions, session{id: id, tab: tab})
	return id, true
}

func equal(a, b string) bool {
	x, y := sha256.Sum256([]byte(a)), sha256.Sum256([]byte(b))
	return subtle.ConstantTimeCompare(x[:], y[:]) == 1
}

// cookieName is per port: cookies ignore ports, and two servers on one
// loopback address must not overwrite each other's.
func cookieName(r *http.Request) string {
	_, port, err := net.SplitHostPort(r.Host)
	if err != nil {
		port = "80"
	}
	return "ghostlight_workbench_" + port
}

// enter trades ?ticket= for a session cookie and redirects to the address
// without it. False when the request carries no ticket. A ticket used
// before, expired or unknown gets a page saying how to get a new link.
func (w *Workbench) enter(rw http.ResponseWriter, r *http.Request) bool {
	q := r.URL.Query()
	code := q.Get("ticket")
	if code == "" {
		code = q.Get("token") // links printed before tickets had this name
	}
	if code == "" {
		return false
	}
	tab, ok := w.takeTicket(code)
	if !ok {
		spent(rw)
		return true
	}
	to := Path + "/"
	if tab != "" {
		to += "#" + tab
	}
	if cur, ok := w.sessionOf(r); ok && cur.tab == "" {
		// The person's browser already has the whole workbench: a tab's
		// link must not narrow it (the ticket is spent all the same).
		http.Redirect(rw, r, to, http.StatusSeeOther)
		return true
	}
	id, ok := w.open(tab)
	if !ok {
		http.Error(rw, "the workbench could not start a session", http.StatusInternalServerError)
		return true
	}
	http.SetCookie(rw, &http.Cookie{Name: cookieName(r), Value: id, Path: Path, HttpOnly: true, SameSite: http.SameSiteStrictMode})
	http.Redirect(rw, r, to, http.StatusSeeOther)
	return true
}

// sessionOf is the request's session, or false without a valid cookie.
func (w *Workbench) sessionOf(r *http.Request) (session, bool) {
	c, err := r.Cookie(cookieName(r))
	if err != nil || c.Value == "" {
		return session{}, false
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	for _, s := range w.sessions {
		if equal(s.id, c.Value) {
			return s, true
		}
	}
	return session{}, false
}

// tabScoped are the API routes a tab's session may call, for its own tab
// (named by ?tab=; release lets the person who typed a credential there give
// the page back to scripts); "config" and "tabs" (listing that tab alone)
// take none.
var tabScoped = map[string]bool{"live": true, "input": true, "handback": true, "release": true}

// allows reports whether session s may call API route name of r.
func (s session) allows(name string, r *http.Request) bool {
	if s.tab == "" {
		return true
	}
	switch {
	case name == "config", name == "tabs":
		return true
	case tabScoped[name]:
		return r.URL.Query().Get("tab") == s.tab
	}
	return false
}

// spent answers a link that was used before, has expired or never was.
func spent(rw http.ResponseWriter) {
	rw.Header().Set("Content-Type", "text/plain; charset=utf-8")
	rw.WriteHeader(http.StatusGone)
	_, _ = rw.Write([]byte("This Ghostlight workbench link has already been used or has expired: each link opens the workbench once.\n" +
		"Ask for a new one: run `ghostlight workbench` on the machine Ghostlight runs on (it prints a fresh link), or ask the model to hand the tab to you again.\n"))
}

// fromOwnPage: an API request came from the workbench's own pages.
// Cookies do not tell ports apart (every loopback port is one "site"), so
// a request another origin's page made is refused by its Sec-Fetch-Site,
// and a state change must also name the workbench's own origin and carry a
// header no cross-origin page can send without a preflight (never
// answered). Page loads themselves may come from anywhere (a link in a
// chat): the page holds no data.
func fromOwnPage(r *http.Request) bool {
	if s := r.Header.Get("Sec-Fetch-Site"); s != "" && s != "same-origin" {
		return false
	}
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		return r.Header.Get("Origin") == "http://"+r.Host && r.Header.Get("X-Ghostlight-Workbench") == "1"
	}
	return true
}

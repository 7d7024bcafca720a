package workbench

import (
	"crypto/sha256"
	"crypto/subtle"
	"net"
	"net/http"
)

// A ticket admits the person's browser once: the link an elicitation shows
// them, for one tab. It is traded for the cookie like the token.
type ticket struct {
	code string
	tab  string
}

// Ticket mints a single-use link to a tab's live view ("" until the
// workbench listens). At most Limits.Tickets are outstanding; the oldest
// lapses first.
func (w *Workbench) Ticket(tab string) string {
	b := w.baseURL()
	if b == "" || !handleLike(tab) {
		return ""
	}
	code, err := randomToken()
	if err != nil {
		return ""
	}
	w.mu.Lock()
	if n := w.o.Limits.Tickets; n > 0 && len(w.tickets) >= n {
		w.tickets = append(w.tickets[:0], w.tickets[len(w.tickets)-n+1:]...)
	}
	w.tickets = append(w.tickets, ticket{code: code, tab: tab})
	w.mu.Unlock()
	return b + Path + "/?ticket=" + code
}

// takeTicket spends a ticket: the tab it was for, or false.
func (w *Workbench) takeTicket(code string) (string, bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	for i, t := range w.tickets {
		if equal(t.code, code) {
			w.tickets = append(w.tickets[:i], w.tickets[i+1:]...)
			return t.tab, true
		}
	}
	return "", false
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

// enter trades ?token= or ?ticket= for the cookie and redirects to the
// address without it. False when the request carries neither.
func (w *Workbench) enter(rw http.ResponseWriter, r *http.Request) bool {
	q := r.URL.Query()
	tok, code := q.Get("token"), q.Get("ticket")
	if tok == "" && code == "" {
		return false
	}
	to := Path + "/"
	switch {
	case tok != "" && equal(tok, w.token):
	case code != "":
		tab, ok := w.takeTicket(code)
		if !ok {
			unauthorized(rw)
			return true
		}
		to += "#" + tab
	default:
		unauthorized(rw)
		return true
	}
	http.SetCookie(rw, &http.Cookie{Name: cookieName(r), Value: w.token, Path: Path, HttpOnly: true, SameSite: http.SameSiteStrictMode})
	http.Redirect(rw, r, to, http.StatusSeeOther)
	return true
}

// authorized: the request carries the workbench cookie.
func (w *Workbench) authorized(r *http.Request) bool {
	c, err := r.Cookie(cookieName(r))
	return err == nil && equal(c.Value, w.token)
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

package workbench_test

import (
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ghostlight-dev/ghostlight/runtime/governance"
	"github.com/ghostlight-dev/ghostlight/runtime/workbench"
)

// open follows a link as the person's browser does (a fresh cookie jar):
// the status, the cookie set and the body.
func open(t *testing.T, link string) (*http.Client, *http.Response, string) {
	t.Helper()
	jar, _ := cookiejar.New(nil)
	c := &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, body := do(t, c, "GET", strings.TrimPrefix(link, env.ts.URL), "", nil)
	return c, resp, body
}

// ticketOf is the ticket a link carries.
func ticketOf(t *testing.T, link string) string {
	t.Helper()
	u, err := url.Parse(link)
	if err != nil || u.Query().Get("ticket") == "" {
		t.Fatalf("link %q carries no ticket", link)
	}
	return u.Query().Get("ticket")
}

// TestWorkbenchLinkIsOneTime: a link opens the workbench once, for a
// session cookie whose value is not the ticket; a second opening is
// refused with a page that says how to get a new link.
func TestWorkbenchLinkIsOneTime(t *testing.T) {
	link := env.wb.Link()
	code := ticketOf(t, link)
	c, resp, _ := open(t, link)
	if resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != "/workbench/" {
		t.Fatalf("first use: %d %q", resp.StatusCode, resp.Header.Get("Location"))
	}
	var cookie *http.Cookie
	for _, ck := range resp.Cookies() {
		if strings.HasPrefix(ck.Name, "ghostlight_workbench_") {
			cookie = ck
		}
	}
	if cookie == nil || !cookie.HttpOnly || cookie.SameSite != http.SameSiteStrictMode || cookie.Path != "/workbench" {
		t.Fatalf("session cookie %+v", cookie)
	}
	if cookie.Value == code || strings.Contains(cookie.Value, code) || len(cookie.Value) < 40 {
		t.Fatalf("the cookie (%d chars) is the ticket, or too short to be random", len(cookie.Value))
	}
	if r, _ := do(t, c, "GET", "/workbench/api/policy", "", nil); r.StatusCode != http.StatusOK {
		t.Fatalf("the full link's session reads the policy: %d", r.StatusCode)
	}
	if r, _ := do(t, c, "GET", "/workbench/api/activity", "", nil); r.StatusCode != http.StatusOK {
		t.Fatalf("the full link's session reads the activity: %d", r.StatusCode)
	}

	// The same link again, from anywhere: refused, and told what to do.
	_, again, body := open(t, link)
	if again.StatusCode != http.StatusGone || !strings.Contains(body, "already been used or has expired") || !strings.Contains(body, "ghostlight workbench") {
		t.Fatalf("second use: %d %q", again.StatusCode, body)
	}
	if len(again.Cookies()) != 0 {
		t.Fatal("a spent link set a cookie")
	}
	// The ticket used as a cookie opens nothing either.
	req, _ := http.NewRequest("GET", env.ts.URL+"/workbench/api/policy", nil)
	req.AddCookie(&http.Cookie{Name: cookie.Name, Value: code})
	if r, err := http.DefaultClient.Do(req); err != nil || r.StatusCode != http.StatusUnauthorized {
		t.Fatalf("the ticket as a cookie: %v %v", r.StatusCode, err)
	}
}

// TestWorkbenchTabTicketOpensOneTab: a tab's ticket (the credential
// handoff link) opens that tab's view, input and hand-back, and every
// other route refuses it.
func TestWorkbenchTabTicketOpensOneTab(t *testing.T) {
	const mine, other = "tab_mine1", "tab_other2"
	c, resp, _ := open(t, env.wb.Ticket(mine))
	if resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != "/workbench/#"+mine {
		t.Fatalf("tab ticket: %d %q", resp.StatusCode, resp.Header.Get("Location"))
	}
	own := map[string]string{"Origin": env.ts.URL, "X-Ghostlight-Workbench": "1", "Content-Type": "application/json"}
	for _, tc := range []struct {
		method, path string
		want         int
	}{
		{"GET", "/workbench/", 200},
		{"GET", "/workbench/app.js", 200},
		{"GET", "/workbench/api/config", 200},
		{"GET", "/workbench/api/tabs", 200},
		{"POST", "/workbench/api/handback?tab=" + mine, 404}, // allowed: no handoff is open
		{"GET", "/workbench/api/policy", 403},
		{"GET", "/workbench/api/activity", 403},
		{"GET", "/workbench/api/recordings", 403},
		{"GET", "/workbench/api/recording.gif?session=s&handle=h", 403},
		{"GET", "/workbench/api/live?tab=" + other, 403},
		{"POST", "/workbench/api/input?tab=" + other, 403},
		{"POST", "/workbench/api/handback?tab=" + other, 403},
		{"GET", "/workbench/api/live", 403},
	} {
		hdr := map[string]string(nil)
		if tc.method == "POST" {
			hdr = own
		}
		r, body := do(t, c, tc.method, tc.path, `{"type":"text","text":"x"}`, hdr)
		if r.StatusCode != tc.want {
			t.Errorf("%s %s: %d, want %d (%.120s)", tc.method, tc.path, r.StatusCode, tc.want, body)
		}
		if tc.want == 403 && !strings.Contains(body, "one tab's view and hand-back only") {
			t.Errorf("%s %s: %q", tc.method, tc.path, body)
		}
	}
	// The full link still opens everything, and a tab's link opened in
	// that browser afterwards does not narrow it (nor can it be used again).
	full := entered(t)
	if r, _ := do(t, full, "GET", "/workbench/api/policy", "", nil); r.StatusCode != http.StatusOK {
		t.Fatalf("full session after a tab's: %d", r.StatusCode)
	}
	link := env.wb.Ticket(mine)
	if r, _ := do(t, full, "GET", strings.TrimPrefix(link, env.ts.URL), "", nil); r.StatusCode != http.StatusSeeOther || len(r.Cookies()) != 0 {
		t.Fatalf("a tab link in a full session: %d, cookies %v", r.StatusCode, r.Cookies())
	}
	if r, _ := do(t, full, "GET", "/workbench/api/policy", "", nil); r.StatusCode != http.StatusOK {
		t.Fatalf("the full session after a tab link: %d", r.StatusCode)
	}
	if _, r, _ := open(t, link); r.StatusCode != http.StatusGone {
		t.Fatalf("the tab link again: %d", r.StatusCode)
	}
}

// TestWorkbenchTicketBounds: a ticket expires after its lifetime, and
// only so many are outstanding (the oldest lapses first). A clock the test
// moves stands in for time; the routes are the real ones.
func TestWorkbenchTicketBounds(t *testing.T) {
	var mu sync.Mutex
	now := time.Unix(1_800_000_000, 0)
	clock := func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	wb, err := workbench.New(workbench.Options{
		Browser: nilBrowser{}, Policy: func() *governance.Authority { return governance.AllOpen("auto") },
		Guard:  func(*http.Request) (bool, string) { return true, "" },
		Limits: workbench.Limits{Tickets: 2, FullTickets: 2, Sessions: 2, TicketLifetime: time.Minute},
		Now:    clock,
	})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(wb)
	defer ts.Close()
	wb.SetBase(ts.URL)
	status := func(link string) int {
		c := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
		r, err := c.Get(link)
		if err != nil {
			t.Fatal(err)
		}
		r.Body.Close()
		return r.StatusCode
	}
	late := wb.Link()
	mu.Lock()
	now = now.Add(time.Minute)
	mu.Unlock()
	if s := status(late); s != http.StatusGone {
		t.Fatalf("a link past its lifetime: %d", s)
	}
	a, b, c := wb.Link(), wb.Link(), wb.Link() // a lapses: two outstanding
	if s := status(a); s != http.StatusGone {
		t.Fatalf("the oldest of three links: %d", s)
	}
	if status(b) != http.StatusSeeOther || status(c) != http.StatusSeeOther {
		t.Fatal("the newest links did not open")
	}
	// Tab tickets count apart from full ones.
	t1, t2 := wb.Ticket("tab_a1"), wb.Ticket("tab_a2")
	full := wb.Link()
	if status(t1) != http.StatusSeeOther || status(t2) != http.StatusSeeOther || status(full) != http.StatusSeeOther {
		t.Fatal("tab tickets and a full one outstanding together did not all open")
	}
}

package tools

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
)

// TestLandingOutsideAuthority follows a redirect to a host the call may not
// reach: the facts keep only its origin, the title is withheld, the summary
// says so, and the next call on the tab is refused.
func TestLandingOutsideAuthority(t *testing.T) {
	h := newHarness(t)
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, `<title>Private title</title><p>elsewhere</p>`)
	}))
	defer other.Close()
	otherURL := strings.Replace(other.URL, "127.0.0.1", "localhost", 1)
	start := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, otherURL+"/secret/path?token=1", http.StatusFound)
	}))
	defer start.Close()
	r := h.call("browser_navigate", `{"url":`+quote(start.URL+"/go")+`,"reuse":"never","restrict_hosts":["127.0.0.1"]}`)
	var f surface.BrowserNavigateFacts
	h.facts(r, &f)
	host := strings.TrimPrefix(otherURL, "http://")
	if f.URL != otherURL+"/" || f.Title != "" || strings.Contains(string(r.JSON), "secret") || strings.Contains(string(r.JSON), "Private") {
		t.Fatalf("landing outside authority not governed: %s", r.JSON)
	}
	if !strings.Contains(r.Envelope.Summary, host) || !strings.Contains(r.Envelope.Summary, "outside the hosts") {
		t.Fatalf("summary does not say where it landed: %s", r.Envelope.Summary)
	}
	read := h.call("browser_read", `{"restrict_hosts":["127.0.0.1"]}`)
	if read.Envelope.Status != surface.StatusBlocked || !strings.Contains(string(read.Envelope.Facts), `"host":"localhost"`) {
		t.Fatalf("a call on the landed tab was not refused: %s", read.JSON)
	}
}

package tools

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
)

// TestLandingOutsideAuthority redirects to a host the call may not reach
// (localhost, beside 127.0.0.1): the hop is failed inside the browser, so
// the other host receives nothing, the call is blocked with no effect, and
// nothing of the stopped URL reaches the result; the next call on the tab
// finds it where it was.
func TestLandingOutsideAuthority(t *testing.T) {
	h := newHarness(t)
	var hits atomic.Int64
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		fmt.Fprint(w, `<title>Private title</title><p>elsewhere</p>`)
	}))
	defer other.Close()
	otherURL := strings.Replace(other.URL, "127.0.0.1", "localhost", 1)
	start := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/go" {
			http.Redirect(w, r, otherURL+"/secret/path?token=1", http.StatusFound)
			return
		}
		fmt.Fprint(w, `<title>Home</title><p>home</p>`)
	}))
	defer start.Close()
	h.must("browser_navigate", `{"url":`+quote(start.URL+"/")+`}`)
	r := h.call("browser_navigate", `{"url":`+quote(start.URL+"/go")+`,"restrict_hosts":["127.0.0.1"]}`)
	if r.Envelope.Status != surface.StatusBlocked || r.Envelope.Effect != surface.EffectNone ||
		strings.Contains(string(r.JSON), "secret") || strings.Contains(string(r.JSON), "Private") {
		t.Fatalf("a redirect outside the authority: %s", r.JSON)
	}
	if !strings.Contains(r.Envelope.Summary, strings.TrimPrefix(otherURL, "http://")) || !strings.Contains(r.Envelope.Summary, "before it left the browser") {
		t.Fatalf("summary does not say what was stopped: %s", r.Envelope.Summary)
	}
	if hits.Load() != 0 {
		t.Fatalf("the denied host received %d requests", hits.Load())
	}
	read := h.must("browser_read", `{"restrict_hosts":["127.0.0.1"]}`)
	var f surface.BrowserReadFacts
	h.facts(read, &f)
	if f.URL != start.URL+"/" || f.Title != "Home" {
		t.Fatalf("the tab is not where it was: %s", read.JSON)
	}
}

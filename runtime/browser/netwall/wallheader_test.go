package netwall

import (
	"net"
	"net/http"
	"strconv"
	"sync"
	"testing"
)

// TestOwnAnswersSayWhy: the proxy's 403 and 502 carry WallHeader with the
// reason, so evidence never takes them for a host's status; a host's own
// answer never carries it.
func TestOwnAnswersSayWhy(t *testing.T) {
	ok, denied := listen(t, "127.0.0.1"), listen(t, "127.0.0.2")
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := l.Addr().(*net.TCPAddr).Port
	l.Close()
	var mu sync.Mutex
	var unreached []string
	p := start(t, Config{
		Rules:       func() Rules { return Rules{Host: denyHost("127.0.0.2")} },
		Unreachable: func(h, e string) { mu.Lock(); unreached = append(unreached, h+" "+e); mu.Unlock() },
	})
	c := client(p)
	for _, tc := range []struct {
		url, why string
		code     int
	}{
		{"http://127.0.0.1:" + ok.port() + "/", "", 200},
		{"http://127.0.0.2:" + denied.port() + "/", WallRefused, http.StatusForbidden},
		{"http://127.0.0.1:" + strconv.Itoa(closed) + "/gone", "net::ERR_CONNECTION_REFUSED", http.StatusBadGateway},
	} {
		resp, err := c.Get(tc.url)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != tc.code || resp.Header.Get(WallHeader) != tc.why {
			t.Fatalf("%s: %d %q=%q, want %d %q", tc.url, resp.StatusCode, WallHeader, resp.Header.Get(WallHeader), tc.code, tc.why)
		}
	}
	mu.Lock()
	defer mu.Unlock()
	if len(unreached) != 1 || unreached[0] != "127.0.0.1:"+strconv.Itoa(closed)+" net::ERR_CONNECTION_REFUSED" {
		t.Fatalf("unreachable reports %q", unreached)
	}
}

package browser

import "testing"

// TestRequestHost: a web scheme's URL always goes to the boundary, even one
// Go's url.Parse refuses (a %-escape left in the host), so the boundary
// refuses it rather than the request passing unchecked; other schemes are
// not governed.
func TestRequestHost(t *testing.T) {
	for _, c := range []struct {
		url, host string
		governed  bool
	}{
		{"http://Example.com:8080/a?b", "example.com:8080", true},
		{"ws://[::ffff:7f00:2]:81/", "[::ffff:7f00:2]:81", true},
		{"http://a%7Bb.example/x", "a%7Bb.example", true},
		{"wss://a%00b/x?y", "a%00b", true},
		{"data:text/html,x", "", false},
		{"blob:http://a.example/1", "", false},
	} {
		h, ok := requestHost(c.url)
		if h != c.host || ok != c.governed {
			t.Errorf("requestHost(%q) = %q, %v; want %q, %v", c.url, h, ok, c.host, c.governed)
		}
	}
}

package boundary

import (
	"reflect"
	"testing"

	"github.com/ghostlight-dev/ghostlight/runtime/browser"
	"github.com/ghostlight-dev/ghostlight/runtime/governance"
)

// TestSocketRules: WebSocket rules the browser applies say what the layers
// say: denials first, then the hosts every allow list admits, then nothing.
func TestSocketRules(t *testing.T) {
	r := func(p string, allow bool) browser.SocketRule { return browser.SocketRule{Pattern: p, Allow: allow} }
	both := func(host string, allow bool) []browser.SocketRule {
		return []browser.SocketRule{r("ws://"+host+"/*", allow), r("wss://"+host+"/*", allow)}
	}
	// A domain is also written with Chromium's trailing dot, an IPv4 address
	// also as its mapped IPv6 form (governance.SocketRules).
	dom := func(host, port string, allow bool) []browser.SocketRule {
		return []browser.SocketRule{r("ws://"+host+":"+port+"/*", allow), r("ws://"+host+".:"+port+"/*", allow), r("wss://"+host+":"+port+"/*", allow), r("wss://"+host+".:"+port+"/*", allow)}
	}
	cat := func(ls ...[]browser.SocketRule) []browser.SocketRule {
		var out []browser.SocketRule
		for _, l := range ls {
			out = append(out, l...)
		}
		return out
	}
	cases := []struct {
		name   string
		layers []governance.Layer
		want   []browser.SocketRule
	}{
		{"all open", []governance.Layer{{Name: "ceiling"}}, nil},
		{"deny only", []governance.Layer{{Name: "organization", DenyHosts: []string{"bad.test", "*.evil.test:8443"}}},
			cat(dom("bad.test", "*", false), dom("*.evil.test", "8443", false))},
		{"allow within allow", []governance.Layer{
			{Name: "organization", Hosts: []string{"*.acme.test"}},
			{Name: "restriction", Hosts: []string{"docs.acme.test", "other.test", "*.api.acme.test"}},
		}, cat(dom("docs.acme.test", "*", true), dom("*.api.acme.test", "*", true), both("*:*", false))},
		{"ports meet", []governance.Layer{
			{Name: "user", Hosts: []string{"127.0.0.1"}},
			{Name: "restriction", Hosts: []string{"127.0.0.1:8080", "localhost:1"}},
		}, cat([]browser.SocketRule{r("ws://127.0.0.1:8080/*", true), r(`ws://[\:\:ffff\:7f00\:1]:8080/*`, true), r("wss://127.0.0.1:8080/*", true), r(`wss://[\:\:ffff\:7f00\:1]:8080/*`, true)}, both("*:*", false))},
		{"nothing in common", []governance.Layer{
			{Name: "user", Hosts: []string{"a.test"}},
			{Name: "restriction", Hosts: []string{"b.test"}},
		}, both("*:*", false)},
	}
	for _, c := range cases {
		if got := executorSocketRules(governance.SocketRules(c.layers)); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s:\n got %v\nwant %v", c.name, got, c.want)
		}
	}
}

// TestBlockedSentences words what the boundary stopped, one sentence a kind,
// each with the host and the deciding layer.
func TestBlockedSentences(t *testing.T) {
	got := blockedSentences([]browser.Blocked{
		{Host: "b.test", Layer: "restriction", Kind: browser.RequestSubresource},
		{Host: "b.test:81", Layer: "restriction", Kind: browser.RequestSocket},
		{Host: "b.test", Layer: "workspace", Kind: browser.RequestPopup},
		{Host: "c.test", Layer: "organization", Kind: browser.RequestNavigation},
	})
	want := []string{
		"The page's navigation to c.test was stopped before it left the browser (the organization layer's host rules); the tab stayed on its page.",
		"A popup to b.test was closed before loading (the workspace layer's host rules).",
		"2 requests to b.test and other hosts were failed in the browser (the restriction layer's host rules).",
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got %q", got)
	}
}

package governance

import (
	"strings"
	"testing"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
)

// The self-host ceiling refuses every spelling of a registered listener, in
// every authority (all-open and a layer that allows everything included), and
// names why; other ports and hosts pass.
func TestSelfHostCeiling(t *testing.T) {
	un := RegisterSelfHost(SelfDevTools, "ws://127.0.0.1:9333/devtools/browser/abc")
	defer un()
	unMCP := RegisterSelfHost(SelfMCP, "[::1]:8765")
	defer unMCP()
	unRemote := RegisterSelfHost(SelfDevTools, "http://Box.Example:9222")
	defer unRemote()
	unDefault := RegisterSelfHost(SelfWorkbench, "http://127.0.0.5")
	defer unDefault()
	allowLoopback := New("auto", "org", Layer{Name: "organization", Caps: AllCaps, Hosts: []string{"127.0.0.1", "localhost", "*.localhost", "box.example"}})
	auths := map[string]*Authority{"all-open": AllOpen("auto"), "a layer allowing these hosts": allowLoopback}
	refused := []string{
		"http://127.0.0.1:9333/json/list",
		"http://localhost:9333/json/list",
		"http://LOCALHOST.:9333/json",
		"http://devtools.localhost:9333/",
		"http://127.0.0.2:9333/json/list",
		"http://2130706433:9333/json/list",
		"http://0x7f.0.0.1:9333/",
		"http://0177.0.0.1:9333/",
		"http://127.1:9333/",
		"http://[::1]:9333/json/list",
		"http://[::ffff:127.0.0.1]:9333/",
		"http://[::ffff:7f00:1]:9333/",
		"ws://127.0.0.1:9333/devtools/browser/abc",
		"http://user:pw@127.0.0.1:9333/json",
		"http://127.0.0.1:8765/mcp",
		"http://localhost:8765/mcp",
		"http://box.example:9222/json/list",
		"https://BOX.example.:9222/",
		"http://127.0.0.1/",
		"http://localhost:80/",
	}
	// (A bare host is 80 and 443 alike where no scheme says which, so with a
	// listener on loopback port 80, https://127.0.0.1/ is refused too.)
	allowed := []string{
		"http://127.0.0.1:9334/json/list",
		"http://example.com:9333/",
		"http://box.example:9223/",
		"http://other.example:9222/",
		"http://10.1.2.3:9333/",
	}
	for name, a := range auths {
		for _, u := range refused {
			r := a.AdmitURL(u)
			if r == nil {
				t.Errorf("%s: %s admitted", name, u)
				continue
			}
			if r.Reason != surface.ReasonHostDenied || r.Layer != surface.PolicyLayerCeiling || !strings.Contains(r.Message, "no page or call may reach it") {
				t.Errorf("%s: %s refused as %+v", name, u, r)
			}
		}
		for _, u := range allowed {
			if name != "all-open" {
				continue
			}
			if r := a.AdmitURL(u); r != nil {
				t.Errorf("%s: %s refused: %+v", name, u, r)
			}
		}
	}
	// The browser's held requests arrive as host:port (or a bare host for a
	// default port).
	for _, h := range []string{"127.0.0.1:9333", "[::1]:9333", "localhost:8765", "127.0.0.5", "box.example:9222"} {
		if AllOpen("auto").AdmitHost(h) == nil || SelfHostRefusal(h) == nil {
			t.Errorf("host %s admitted", h)
		}
	}
	if r := SelfHostRefusal("127.0.0.1:9333"); !strings.Contains(r.Message, "DevTools endpoint") {
		t.Errorf("the refusal does not say why: %q", r.Message)
	}
	if r := SelfHostRefusal("127.0.0.1:8765"); !strings.Contains(r.Message, "Ghostlight's own MCP endpoint") {
		t.Errorf("the refusal does not say why: %q", r.Message)
	}
	// Unregistered, the port is a page like any other.
	un()
	if r := AllOpen("auto").AdmitURL("http://127.0.0.1:9333/json/list"); r != nil {
		t.Errorf("after unregistering: %+v", r)
	}
}

// An unspecified listen address is reached on loopback and the machine's own
// addresses.
func TestSelfHostCeilingUnspecified(t *testing.T) {
	un := RegisterSelfHost(SelfMCP, "0.0.0.0:8799")
	defer un()
	for _, u := range []string{"http://127.0.0.1:8799/", "http://[::1]:8799/", "http://0.0.0.0:8799/", "http://localhost:8799/"} {
		if AllOpen("auto").AdmitURL(u) == nil {
			t.Errorf("%s admitted", u)
		}
	}
	if AllOpen("auto").AdmitURL("http://example.com:8799/") != nil {
		t.Error("a remote host on the same port was refused")
	}
}

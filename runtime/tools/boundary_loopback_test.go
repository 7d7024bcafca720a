package tools

import (
	"fmt"
	"strings"
	"testing"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
)

// TestLoopbackSpellingsReachNothing: 0.0.0.0 (and 0, 0x0, its mapped IPv6
// form) connects to this machine's loopback, and localhost with every
// *.localhost name is that loopback without DNS. So a denial of 127.0.0.1
// holds against each of them, and a denial of localhost against 127.0.0.1,
// 127.1 and 0.0.0.0: the model's navigate is refused up front, and a page's
// own requests and WebSockets (hosts.requests "all") are stopped; the listener on
// 127.0.0.1 accepts no connection. The controls show 0.0.0.0 and localhost
// reach that listener when nothing denies it (they did under these denials
// before: 5 spellings each reached it).
func TestLoopbackSpellingsReachNothing(t *testing.T) {
	for _, c := range []struct {
		name, policy string
		spells       []string
	}{
		{"ip", `hosts: deny: ["127.0.0.1"]`, []string{"0.0.0.0", "0", "0x0", "[::ffff:0.0.0.0]", "localhost", "x.localhost"}},
		{"localhost", `hosts: deny: ["localhost"]`, []string{"127.0.0.1", "127.1", "0.0.0.0", "x.localhost", "LOCALHOST."}},
	} {
		h := workspaceHarness(t, c.name, c.policy)
		for _, spell := range c.spells {
			l := newAcceptCounter(t, "127.0.0.1:0")
			r := h.call("browser_navigate", `{"url":`+quote("http://"+spell+":"+l.port()+"/secret")+`,"timeout_ms":5000}`)
			if r.Envelope.Status != surface.StatusBlocked || r.Envelope.Effect != surface.EffectNone || !strings.Contains(string(r.Envelope.Facts), `"host_denied"`) {
				t.Errorf("%s: navigate to %s: %s", c.name, spell, r.JSON)
			}
			if l.accepts.Load() != 0 {
				t.Errorf("%s: navigate to %s: 127.0.0.1 saw %s", c.name, spell, l.saw())
			}
		}
	}

	spells := []string{"0.0.0.0", "0", "0x0", "localhost", "x.localhost", "127.1"}
	targets := map[string]*acceptCounter{}
	var script strings.Builder
	for _, s := range spells {
		l := newAcceptCounter(t, "127.0.0.1:0")
		targets[s] = l
		fmt.Fprintf(&script, "get(%q);\n", "http://"+s+":"+l.port()+"/secret")
		w := newAcceptCounter(t, "127.0.0.1:0")
		targets["ws "+s] = w
		fmt.Fprintf(&script, "sock(%q);\n", "ws://"+s+":"+w.port()+"/secret")
	}
	page := `<title>Loopback</title><body><script>
let n = 0;
const end = () => { if (++n === ` + fmt.Sprint(2*len(spells)) + `) document.body.insertAdjacentText("beforeend", "all ended"); };
const get = (u) => fetch(u, {mode: "no-cors"}).finally(end);
const sock = (u) => { let once = false; const e = () => { if (!once) { once = true; end(); } }; try { const s = new WebSocket(u); s.onopen = s.onerror = s.onclose = e; } catch (x) { e(); } };
` + script.String() + `</script></body>`
	site := newBoundarySite(t, nil, map[string]string{"/loopback": page})
	run := func(name, policy string) {
		t.Helper()
		for _, l := range targets {
			l.accepts.Store(0)
		}
		h := workspaceHarness(t, "page"+name, policy)
		h.must("browser_navigate", `{"url":`+quote(site.B+"/loopback")+`,"timeout_ms":25000}`)
		if r := h.call("browser_wait", `{"condition":"text_present","value":"all ended","timeout_ms":10000}`); r.Envelope.Status != surface.StatusSucceeded {
			t.Fatalf("%s: the page's requests did not all end: %s", name, r.JSON)
		}
	}
	run("denied", `hosts: {deny: ["127.0.0.1"], requests: "all"}`)
	for s, l := range targets {
		if l.accepts.Load() != 0 {
			t.Errorf("the page's request to %s: 127.0.0.1 saw %s", s, l.saw())
		}
	}
	run("control", `hosts: {deny: ["127.0.0.9"], requests: "all"}`)
	for _, s := range []string{"0.0.0.0", "localhost", "ws 0.0.0.0", "ws localhost"} {
		if targets[s].accepts.Load() == 0 {
			t.Errorf("control: the page's request to %s never reached 127.0.0.1", s)
		}
	}
}

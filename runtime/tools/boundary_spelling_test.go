package tools

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
	"github.com/ghostlight-dev/ghostlight/runtime/governance"
	"github.com/ghostlight-dev/ghostlight/runtime/pipeline"
)

// acceptCounter is a listener that counts every TCP connection it accepts
// and every HTTP request it reads: what a denied host actually saw.
type acceptCounter struct {
	net.Listener
	accepts, requests atomic.Int64
}

func newAcceptCounter(t testing.TB, addr string) *acceptCounter {
	t.Helper()
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	c := &acceptCounter{Listener: ln}
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c.requests.Add(1)
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprint(w, "<title>Reached</title><p>reached</p>")
	})}
	go srv.Serve(c)
	t.Cleanup(func() { srv.Close() })
	return c
}

func (c *acceptCounter) Accept() (net.Conn, error) {
	conn, err := c.Listener.Accept()
	if err == nil {
		c.accepts.Add(1)
	}
	return conn, err
}

func (c *acceptCounter) port() string {
	_, p, _ := net.SplitHostPort(c.Addr().String())
	return p
}

func (c *acceptCounter) saw() string {
	return fmt.Sprintf("%d accepts, %d requests", c.accepts.Load(), c.requests.Load())
}

// workspaceHarness drives a pipeline under one workspace policy file.
func workspaceHarness(t *testing.T, name, policy string) *policyHarness {
	t.Helper()
	p := filepath.Join(t.TempDir(), "policy.cue")
	if err := os.WriteFile(p, []byte(policy+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	ld, err := governance.Load(governance.Config{Files: []governance.File{{Layer: "workspace", Path: p}}, DefaultStartup: "auto"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	h := &policyHarness{t: t, pipe: pipeline.New(pipeline.Options{Handler: testHandler, Authority: ld.Current}), session: strings.ReplaceAll(t.Name(), "/", "_") + name}
	t.Cleanup(func() { testHandler.Release(context.Background(), h.session) })
	return h
}

// TestBoundarySpellingsRefusedUpFront: the model's navigate to a denied
// host in any spelling is refused before the browser is touched, naming the
// canonical host; the denied host's own listener (a fresh port for each
// spelling: Chromium reuses an idle socket) accepts no connection. A
// control shows the listener counts a connection the policy allows.
func TestBoundarySpellingsRefusedUpFront(t *testing.T) {
	h := workspaceHarness(t, "", `hosts: deny: ["127.0.0.2"]`)
	for _, spell := range []string{
		"127.0.0.2", "2130706434", "0x7f.0.0.2", "0177.0.0.2", "0x7f000002", "127.2", "127.0.2", "0x7F.0.0.02",
		"[::ffff:127.0.0.2]", "[::ffff:7f00:2]", "[0:0:0:0:0:ffff:7f00:2]", "127.0.0.2.",
	} {
		c := newAcceptCounter(t, "127.0.0.2:0")
		r := h.call("browser_navigate", `{"url":`+quote("http://"+spell+":"+c.port()+"/secret?token=hunter2")+`}`)
		var f blockedFacts
		h.facts(r, &f)
		if r.Envelope.Status != surface.StatusBlocked || r.Envelope.Effect != surface.EffectNone || f.Reason != "host_denied" || f.Host != "127.0.0.2" || f.Layer != "workspace" {
			t.Errorf("navigate to %s: %s", spell, r.JSON)
		}
		if c.accepts.Load() != 0 || c.requests.Load() != 0 {
			t.Errorf("navigate to %s: the denied host saw %s", spell, c.saw())
		}
	}
	for _, pattern := range []string{`"::1"`, `"[::1]"`} {
		h6 := workspaceHarness(t, pattern, `hosts: deny: [`+pattern+`]`)
		c := newAcceptCounter(t, "[::1]:0")
		for _, spell := range []string{"[::1]", "[0:0::1]", "[0000:0000:0000:0000:0000:0000:0000:0001]"} {
			r := h6.call("browser_navigate", `{"url":`+quote("http://"+spell+":"+c.port()+"/")+`}`)
			var f blockedFacts
			h6.facts(r, &f)
			if r.Envelope.Status != surface.StatusBlocked || f.Host != "[::1]" {
				t.Errorf("deny %s, navigate to %s: %s", pattern, spell, r.JSON)
			}
		}
		if c.accepts.Load() != 0 {
			t.Errorf("deny %s: [::1] saw %s", pattern, c.saw())
		}
	}
	// Control: the same odd spelling of an allowed host reaches its listener.
	hc := workspaceHarness(t, "control", `hosts: deny: ["127.0.0.3"]`)
	c := newAcceptCounter(t, "127.0.0.2:0")
	if r := hc.call("browser_navigate", `{"url":`+quote("http://0x7f.0.0.2:"+c.port()+"/")+`,"timeout_ms":25000}`); r.Envelope.Status != surface.StatusSucceeded || c.accepts.Load() == 0 || c.requests.Load() == 0 {
		t.Fatalf("control: the allowed navigate %s; the listener saw %s", r.JSON, c.saw())
	}
	t.Logf("control listener: %s", c.saw())
}

// TestBoundarySpellingsFromPage: under hosts.requests "all", a page's
// fetch, WebSocket and navigation to a denied host spelled as a mapped IPv6
// address or a number, and a WebSocket to "app.localhost." under a denial
// of "app.localhost", reach nothing: each target's listener accepts no
// connection. The page's fetch and WebSocket to an allowed listener are
// the control (counted), and the page reports each attempt ended, so the
// counts are read after every request was made.
func TestBoundarySpellingsFromPage(t *testing.T) {
	denied := map[string]*acceptCounter{}
	for _, k := range []string{"f1", "f2", "f3", "w1", "w2", "nav", "nav2"} {
		denied[k] = newAcceptCounter(t, "127.0.0.2:0")
	}
	local4 := newAcceptCounter(t, "127.0.0.1:0")
	local6, err := net.Listen("tcp", "[::1]:"+local4.port())
	if err != nil {
		t.Fatal(err)
	}
	l6 := &acceptCounter{Listener: local6}
	go func() {
		for {
			c, err := l6.Accept()
			if err != nil {
				return
			}
			c.Close()
		}
	}()
	t.Cleanup(func() { local6.Close() })
	control := newAcceptCounter(t, "127.0.0.1:0")
	page := fmt.Sprintf(`<title>Spellings</title><body><script>
let n = 0;
const seen = {};
const done = (k) => { if (seen[k]) return; seen[k] = 1; n++; document.body.insertAdjacentText("beforeend", k + " "); if (n === 8) document.body.insertAdjacentText("beforeend", "all ended"); };
const get = (u, k) => fetch(u, {mode: "no-cors"}).then(() => done(k), () => done(k));
const sock = (u, k) => { try { const s = new WebSocket(u); s.onopen = s.onerror = s.onclose = () => done(k); } catch (e) { done(k); } };
get("http://[::ffff:127.0.0.2]:%s/f1", "f1");
get("http://[::ffff:7f00:2]:%s/f2", "f2");
get("http://2130706434:%s/f3", "f3");
sock("ws://[::ffff:127.0.0.2]:%s/w1", "w1");
sock("ws://[::ffff:7f00:2]:%s/w2", "w2");
sock("ws://app.localhost.:%s/w3", "w3");
get("http://127.0.0.1:%s/control", "c1");
sock("ws://127.0.0.1:%s/control", "c2");
</script><a href="http://[::ffff:7f00:2]:%s/nav" style="display:block;height:40px">Leave</a>
<button onclick="location.href = 'http://[::ffff:127.0.0.2]:%s/nav2'">Go</button></body>`,
		denied["f1"].port(), denied["f2"].port(), denied["f3"].port(), denied["w1"].port(), denied["w2"].port(), local4.port(), control.port(), control.port(), denied["nav"].port(), denied["nav2"].port())
	s := newBoundarySite(t, map[string]string{"/spell": page}, nil)
	h := workspaceHarness(t, "", `hosts: {deny: ["127.0.0.2", "app.localhost"], requests: "all"}`)
	h.must("browser_navigate", `{"url":`+quote(s.A+"/spell")+`,"timeout_ms":25000}`)
	if r := h.call("browser_wait", `{"condition":"text_present","value":"all ended","timeout_ms":10000}`); r.Envelope.Status != surface.StatusSucceeded {
		t.Fatalf("the page's requests did not all end: %s", r.JSON)
	}
	for name, k := range map[string]string{"Leave": "nav", "Go": "nav2"} {
		r := h.call("browser_click", `{"selector":{"name":`+quote(name)+`}}`)
		if !strings.Contains(r.Envelope.Summary, "navigation to 127.0.0.2:"+denied[k].port()+" was stopped") || !strings.Contains(string(r.Envelope.Facts), `"blocked_hosts":["127.0.0.2:`+denied[k].port()+`"]`) {
			t.Errorf("%s: the page's navigation to a mapped spelling: %s", name, r.JSON)
		}
	}
	l := h.must("browser_tabs", `{"action":"list"}`)
	var tabs surface.BrowserTabsFacts
	h.facts(l, &tabs)
	if len(tabs.Tabs) != 1 || tabs.Tabs[0].URL != s.A+"/spell" {
		t.Errorf("the tab left its page: %s", l.JSON)
	}
	for k, c := range denied {
		// A navigation the boundary stops may still have had Chromium open
		// a TCP connection first (a preconnect: no byte of a request sent).
		// Closing that is the policy proxy's work (issue 21, section 2);
		// here the request itself never leaves. Every other channel opens
		// nothing.
		if strings.HasPrefix(k, "nav") {
			if c.requests.Load() != 0 {
				t.Errorf("%s: the denied host saw %s", k, c.saw())
			}
			t.Logf("%s (page navigation, stopped): the denied host saw %s", k, c.saw())
			continue
		}
		if c.accepts.Load() != 0 {
			t.Errorf("%s: the denied host saw %s", k, c.saw())
		}
	}
	if local4.accepts.Load() != 0 || l6.accepts.Load() != 0 {
		t.Errorf("ws://app.localhost./: the denied host saw %s (127.0.0.1), %s ([::1])", local4.saw(), l6.saw())
	}
	if control.accepts.Load() == 0 {
		t.Fatalf("control: the allowed listener saw %s", control.saw())
	}
	t.Logf("control listener: %s", control.saw())
}

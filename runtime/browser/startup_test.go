//go:build unix

package browser

import (
	"context"
	"encoding/json"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// realChromium is the binary the fake installations run: a real Chromium is always
// what connects.
func realChromium(t testing.TB) string {
	t.Helper()
	found := FindBrowsers(os.Getenv("GHOSTLIGHT_BROWSER"))
	if len(found) == 0 {
		t.Fatal("no Chromium installed")
	}
	return launchable(found[0].Path)
}

// fakeInstall puts scripts named like browsers on a fresh PATH (this machine's PATH
// after it), each exec'ing the real Chromium, and returns the directory.
func fakeInstall(t *testing.T, names ...string) string {
	t.Helper()
	real := realChromium(t)
	dir := t.TempDir()
	for _, n := range names {
		script := "#!/bin/sh\nexec " + real + " \"$@\"\n"
		if err := os.WriteFile(filepath.Join(dir, n), []byte(script), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("PATH", dir+string(os.PathListSeparator)+os.Getenv("PATH"))
	return dir
}

// TestAutoWithSeveralBrowsersRefuses: with Chromium and Google Chrome installed and
// none configured, auto launches nothing and names both, asking that they be prepared.
func TestAutoWithSeveralBrowsersRefuses(t *testing.T) {
	fakeInstall(t, "chromium", "google-chrome")
	b := New(Config{Startup: StartupAuto, Headless: true})
	defer b.Close()
	_, err := b.Workspace("several").Open(ctxT(t, 10*time.Second), pageURL("x"), OpenOptions{})
	e := wantKind(t, err, KindStartupManual)
	if e.Remedy != RemedyInstall || len(e.Browsers) != 2 || e.Browsers[0].Name != "Chromium" || e.Browsers[1].Name != "Google Chrome" {
		t.Fatalf("refusal: remedy %v, browsers %v", e.Remedy, e.Browsers)
	}
	if b.Connected() {
		t.Fatal("auto with several browsers and none configured must not launch one")
	}
}

// TestAutoWithSeveralBrowsersLaunchesConfigured: a configured browser is launched
// whatever else is installed.
func TestAutoWithSeveralBrowsersLaunchesConfigured(t *testing.T) {
	dir := fakeInstall(t, "chromium", "google-chrome")
	b := New(Config{Startup: StartupAuto, Headless: true, Path: filepath.Join(dir, "google-chrome")})
	defer b.Close()
	if _, err := b.Workspace("configured").Open(ctxT(t, 30*time.Second), pageURL("configured"), OpenOptions{}); err != nil {
		t.Fatalf("open: %v", err)
	}
	if c := liveConn(t, b); c.launched() == nil {
		t.Fatal("the configured browser should have been launched")
	}
}

// TestAutoWithNoBrowserAsksForOne: nothing installed anywhere Ghostlight looks.
func TestAutoWithNoBrowserAsksForOne(t *testing.T) {
	saved := searchPlaces
	searchPlaces = Places{Root: t.TempDir(), Home: t.TempDir()}
	t.Cleanup(func() { searchPlaces = saved })
	t.Setenv("PATH", t.TempDir())
	for mode, remedy := range map[string]Remedy{StartupAuto: RemedyGetBrowser, StartupManual: RemedyGetBrowserOpen} {
		b := New(Config{Startup: mode, Headless: true})
		_, err := b.Workspace("none").Tabs(ctxT(t, 5*time.Second))
		e := wantKind(t, err, KindStartupManual)
		if e.Remedy != remedy || len(e.Browsers) != 0 {
			t.Errorf("%s: remedy %v, browsers %v", mode, e.Remedy, e.Browsers)
		}
		b.Close()
	}
}

// TestUnreachableEndpointSaysWhichAndWhy: an endpoint nothing listens on is reported
// as that endpoint and the connection error, in connect and in manual mode.
func TestUnreachableEndpointSaysWhichAndWhy(t *testing.T) {
	for _, mode := range []string{StartupConnect, StartupManual} {
		b := New(Config{Startup: mode, Endpoint: "http://127.0.0.2:9333"})
		_, err := b.Workspace("u").Tabs(ctxT(t, 10*time.Second))
		e := wantKind(t, err, KindUnreachable)
		if e.Endpoint != "http://127.0.0.2:9333" || EndpointHost(e.Endpoint) != "127.0.0.2:9333" ||
			e.Err == nil || !strings.Contains(e.Err.Error(), "connection refused") || strings.Contains(e.Err.Error(), "json/version") {
			t.Fatalf("%s: %+v (%v)", mode, e, e.Err)
		}
		b.Close()
	}
	if h := EndpointHost("ws://user:pw@127.0.0.1:9222/devtools/browser/x"); h != "127.0.0.1:9222" {
		t.Fatalf("EndpointHost keeps host:port only, got %q", h)
	}
}

// personsBrowser is a Chromium the test starts itself, as a person would, with
// DevTools on 127.0.0.1; it returns the http endpoint.
func personsBrowser(t *testing.T) string {
	t.Helper()
	profile := t.TempDir()
	cmd := exec.Command(realChromium(t), "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
		"--disable-background-networking", "--remote-debugging-port=0", "--remote-debugging-address=127.0.0.1",
		"--user-data-dir="+profile, "about:blank")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Env = append(os.Environ(), "XDG_CONFIG_HOME="+filepath.Join(profile, "xdg"))
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan struct{})
	go func() { _ = cmd.Wait(); close(exited) }()
	t.Cleanup(func() {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		<-exited
	})
	ctx := ctxT(t, 30*time.Second)
	for {
		raw, err := os.ReadFile(filepath.Join(profile, "DevToolsActivePort"))
		if port, _, ok := strings.Cut(string(raw), "\n"); err == nil && ok {
			if _, err := strconv.Atoi(port); err == nil {
				return "http://127.0.0.1:" + port
			}
		}
		select {
		case <-exited:
			t.Fatal("the person's browser exited")
		case <-ctx.Done():
			t.Fatal("the person's browser did not listen")
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// pageTargets lists the browser's page URLs by target id, as /json/list shows them.
func personsPages(t *testing.T, endpoint string) map[string]string {
	t.Helper()
	res, err := http.Get(endpoint + "/json/list")
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var list []struct{ ID, Type, URL string }
	if err := json.NewDecoder(res.Body).Decode(&list); err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, l := range list {
		if l.Type == "page" {
			out[l.ID] = l.URL
		}
	}
	return out
}

// TestConnectSessionEndKeepsPersonsTabs: in a browser the person runs, a session that
// adopted the person's tab and opened one of its own closes only its own when it ends,
// and so does the executor's Close.
func TestConnectSessionEndKeepsPersonsTabs(t *testing.T) {
	endpoint := personsBrowser(t)
	req, _ := http.NewRequest(http.MethodPut, endpoint+"/json/new?"+pageURL("persons"), nil)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	var person struct{ ID string }
	_ = json.NewDecoder(res.Body).Decode(&person)
	res.Body.Close()
	if person.ID == "" {
		t.Fatal("the test's own tab did not open")
	}

	b := New(Config{Startup: StartupConnect, Endpoint: endpoint, Isolation: IsolationShared}) // the person's own profile
	defer b.Close()
	for round, end := range []func(){
		func() { _ = b.ReleaseWorkspace(context.Background(), "s0") },
		func() { _ = b.Close() },
	} {
		ws := b.Workspace("s" + strconv.Itoa(round))
		ctx := ctxT(t, 30*time.Second)
		adopted, err := ws.Open(ctx, pageURL("persons"), OpenOptions{})
		if err != nil || !adopted.Reused {
			t.Fatalf("round %d: the session should adopt the person's tab: %+v %v", round, adopted, err)
		}
		if _, err := adopted.Tab.Navigate(ctx, pageURL("persons"), NavigateOptions{}); err != nil {
			t.Fatalf("round %d: navigate the adopted tab: %v", round, err)
		}
		own, err := ws.Open(ctx, pageURL("own"+strconv.Itoa(round)), OpenOptions{NewTab: true})
		if err != nil || !own.Created {
			t.Fatalf("round %d: own tab: %+v %v", round, own, err)
		}
		if n := len(personsPages(t, endpoint)); n < 3 {
			t.Fatalf("round %d: want the blank, the person's and the session's tabs, got %d", round, n)
		}
		end()
		// The browser lists a closed tab for a moment: wait until the session's own is
		// gone (closes run in order, the adopted tab's first), then look for the person's.
		pages := personsPages(t, endpoint)
		for ownOpen(pages) {
			select {
			case <-ctx.Done():
				t.Fatalf("round %d: the session's own tab is still open: %v", round, pages)
			case <-time.After(20 * time.Millisecond):
			}
			pages = personsPages(t, endpoint)
		}
		if !strings.Contains(pages[person.ID], "persons") {
			t.Fatalf("round %d: the person's tab was closed: %v", round, pages)
		}
	}
}

func ownOpen(pages map[string]string) bool {
	for _, u := range pages {
		if strings.Contains(u, "title=own") {
			return true
		}
	}
	return false
}

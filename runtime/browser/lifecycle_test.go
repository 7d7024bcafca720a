package browser

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestManualWithoutEndpointRefusesNamingBrowsers(t *testing.T) {
	b := New(Config{Startup: StartupManual})
	defer b.Close()
	ws := b.Workspace("m")
	_, err := ws.Tabs(ctxT(t, 5*time.Second))
	e := wantKind(t, err, KindStartupManual)
	found := false
	for _, br := range e.Browsers {
		if strings.Contains(br.Path, "chromium") && br.Name == "Chromium" {
			found = true
		}
	}
	if !found {
		t.Fatalf("refusal should name the installed Chromium, got %v", e.Browsers)
	}
	if b.Connected() {
		t.Fatal("manual mode must not start a browser")
	}
	_, err = ws.Open(ctxT(t, 5*time.Second), pageURL("x"), OpenOptions{})
	wantKind(t, err, KindStartupManual)
}

func TestAutoWithoutBrowserRefusesManual(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	saved := searchPlaces // nor at the standard locations
	searchPlaces = Places{Root: t.TempDir(), Home: t.TempDir()}
	t.Cleanup(func() { searchPlaces = saved })
	b := New(Config{Startup: StartupAuto, Headless: true})
	defer b.Close()
	_, err := b.Workspace("a").Tabs(ctxT(t, 5*time.Second))
	e := wantKind(t, err, KindStartupManual)
	if len(e.Browsers) != 0 {
		t.Fatalf("no browser is installed on this PATH, got %v", e.Browsers)
	}
}

func TestConnectUnreachableEndpointRefusesUnreachable(t *testing.T) {
	b := New(Config{Startup: StartupConnect, Endpoint: "http://127.0.0.1:1"})
	defer b.Close()
	_, err := b.Workspace("c").Tabs(ctxT(t, 5*time.Second))
	e := wantKind(t, err, KindUnreachable)
	if e.Endpoint != "http://127.0.0.1:1" || e.Err == nil {
		t.Fatalf("refusal should carry the endpoint and the dial error: %+v", e)
	}
}

func TestLazyStart(t *testing.T) {
	b := New(testConfig())
	defer b.Close()
	ws := b.Workspace("lazy")
	if b.Connected() {
		t.Fatal("creating a workspace must not start the browser")
	}
	if _, err := ws.Resolve(ctxT(t, time.Second), ""); KindOf(err) != KindNoTab {
		t.Fatalf("want no_tab without starting, got %v", err)
	}
	if _, err := ws.Close(ctxT(t, time.Second), "tab_nope"); KindOf(err) != KindUnknownTab {
		t.Fatalf("want unknown_tab, got %v", err)
	}
	if b.Connected() {
		t.Fatal("resolve and close must not start the browser")
	}
}

func TestConnectModeAttachesToRunningBrowser(t *testing.T) {
	// A browser someone else started, listening on a DevTools port (the
	// executor's own launches have none), and its HTTP endpoint, as a user
	// would configure it.
	wsURL, stop, err := Launch(ctxT(t, 30*time.Second), testConfig())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(stop)
	other := New(Config{Startup: StartupConnect, Endpoint: wsURL})
	t.Cleanup(func() { _ = other.Close() })
	c := liveConn(t, other)
	httpURL := "http://" + strings.SplitN(strings.TrimPrefix(wsURL, "ws://"), "/", 2)[0]
	for _, ep := range []string{wsURL, httpURL} {
		b := New(Config{Startup: StartupConnect, Endpoint: ep})
		ws := b.Workspace("connect")
		res, err := ws.Open(ctxT(t, 15*time.Second), pageURL("connected"), OpenOptions{Reuse: ReuseNever})
		if err != nil {
			t.Fatalf("open through %s: %v", ep, err)
		}
		if res.Landing.Title != "connected" || !res.Created {
			t.Fatalf("unexpected landing %+v", res)
		}
		target := res.Tab.TargetID()
		if err := b.Close(); err != nil {
			t.Fatal(err)
		}
		if !c.alive() {
			t.Fatal("closing a connect-mode executor must leave the browser running")
		}
		// Its tab was closed, the browser was not.
		eventually(t, "connect-mode tab closed", func() bool { return !targetExists(t, c, target) })
	}
}

func TestCloseLeavesNoProcessOrProfile(t *testing.T) {
	b := New(testConfig())
	ws := b.Workspace("close")
	openTab(t, ws, pageURL("closing"))
	c := liveConn(t, b)
	root := c.proc.root
	if len(processesWithArg(root)) == 0 {
		t.Fatal("expected browser processes naming the profile dir while running")
	}
	if err := b.Close(); err != nil {
		t.Fatal(err)
	}
	if pids := processesWithArg(root); len(pids) != 0 {
		t.Fatalf("processes left after Close: %v", pids)
	}
	if _, err := os.Stat(root); !os.IsNotExist(err) {
		t.Fatalf("profile dir left after Close: %v", err)
	}
	_, err := ws.Tabs(ctxT(t, time.Second))
	wantKind(t, err, KindClosed)
}

func TestRelaunchAfterKill(t *testing.T) {
	b := New(testConfig())
	defer b.Close()
	ws := b.Workspace("relaunch")
	other := b.Workspace("bystander")
	tab := openTab(t, ws, pageURL("before"))
	if _, err := other.Tabs(ctxT(t, 5*time.Second)); err != nil {
		t.Fatal(err)
	}
	c := liveConn(t, b)
	oldRoot := c.proc.root

	// An in-flight navigation to a page that never finishes loading.
	done := make(chan error, 1)
	go func() {
		_, err := tab.Navigate(ctxT(t, 25*time.Second), srv.URL+"/slow", NavigateOptions{})
		done <- err
	}()
	time.Sleep(300 * time.Millisecond)
	killPID(t, c.proc.pid)
	select {
	case err := <-done:
		wantKind(t, err, KindBrowserGone)
	case <-time.After(20 * time.Second):
		t.Fatal("in-flight navigation did not fail after the browser died")
	}
	site.releaseSlow()
	eventually(t, "old profile removed", func() bool {
		_, err := os.Stat(oldRoot)
		return os.IsNotExist(err) && len(processesWithArg(oldRoot)) == 0
	})

	// The next call relaunches; the handle's tab is gone with the old browser.
	_, err := ws.Resolve(ctxT(t, 30*time.Second), tab.Handle())
	wantKind(t, err, KindTabGone)
	if !b.Connected() {
		t.Fatal("the next call should have relaunched the browser")
	}
	if !ws.TakeRelaunched() {
		t.Fatal("workspace should learn about the relaunch")
	}
	if ws.TakeRelaunched() {
		t.Fatal("relaunch is reported once")
	}
	if _, err := other.Tabs(ctxT(t, 5*time.Second)); err != nil {
		t.Fatal(err)
	}
	if !other.TakeRelaunched() {
		t.Fatal("every workspace that used the dead browser learns it once")
	}
	t2, recreated, err := ws.Reopen(ctxT(t, 15*time.Second), tab.Handle())
	if err != nil || !recreated || t2 != tab {
		t.Fatalf("reopen after relaunch: %v recreated=%v", err, recreated)
	}
	land, err := tab.Navigate(ctxT(t, 15*time.Second), pageURL("after"), NavigateOptions{})
	if err != nil || land.Title != "after" {
		t.Fatalf("navigate after relaunch: %v %+v", err, land)
	}
}

func TestBrowserGoneCancelsDoContext(t *testing.T) {
	b := New(testConfig())
	defer b.Close()
	ws := b.Workspace("gone")
	tab := openTab(t, ws, pageURL("g"))
	c := liveConn(t, b)
	errc := make(chan error, 1)
	go func() {
		errc <- tab.Do(ctxT(t, 25*time.Second), func(ctx context.Context) error {
			<-ctx.Done() // stands in for any long call another package makes
			return ctx.Err()
		})
	}()
	time.Sleep(100 * time.Millisecond)
	killPID(t, c.proc.pid)
	select {
	case err := <-errc:
		wantKind(t, err, KindBrowserGone)
	case <-time.After(20 * time.Second):
		t.Fatal("Do's context did not end when the browser died")
	}
}

// killPID kills the browser's main process the way a crash or `kill -9` would.
func killPID(t *testing.T, pid int) {
	t.Helper()
	p, err := os.FindProcess(pid)
	if err == nil {
		err = p.Kill()
	}
	if err != nil {
		t.Fatal(err)
	}
}

// TestSweepLegacyProfiles: profile dirs made before owner markers are judged by
// Chromium's SingletonLock: removed only when it names this host and a dead process.
func TestSweepLegacyProfiles(t *testing.T) {
	dir := t.TempDir()
	host, _ := os.Hostname()
	dead := deadPID(t)
	mk := func(name, lock string) string {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Join(p, "profile"), 0o700); err != nil {
			t.Fatal(err)
		}
		if lock != "" {
			if err := os.Symlink(lock, filepath.Join(p, "profile", "SingletonLock")); err != nil {
				t.Fatal(err)
			}
		}
		return p
	}
	stale := mk(ProfilePrefix+"dead", fmt.Sprintf("%s-%d", host, dead))
	live := mk(ProfilePrefix+"live", fmt.Sprintf("%s-%d", host, os.Getpid()))
	other := mk(ProfilePrefix+"otherhost", fmt.Sprintf("elsewhere-%d", dead))
	foreign := mk("not-ours", fmt.Sprintf("%s-%d", host, dead))
	starting := mk(ProfilePrefix+"nolock", "")
	sweepIn(dir)
	if _, err := os.Stat(stale); !os.IsNotExist(err) {
		t.Fatal("a profile whose browser is gone should be removed")
	}
	for _, keep := range []string{live, other, foreign, starting} {
		if _, err := os.Stat(keep); err != nil {
			t.Fatalf("%s must be kept: %v", keep, err)
		}
	}
}

// deadPID is the pid of a process that has exited (and been reaped).
func deadPID(t *testing.T) int {
	t.Helper()
	cmd := exec.Command("true")
	if err := cmd.Run(); err != nil {
		t.Fatal(err)
	}
	return cmd.Process.Pid
}

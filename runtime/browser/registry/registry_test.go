//go:build unix

package registry

import (
	"bytes"
	"context"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/ghostlight-dev/ghostlight/runtime/browser"
)

var page *httptest.Server

func TestMain(m *testing.M) {
	page = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		_, _ = w.Write([]byte("<title>prepared</title><p>hello</p>"))
	}))
	code := m.Run()
	page.Close()
	os.Exit(code)
}

func ctxT(t *testing.T, d time.Duration) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), d)
	t.Cleanup(cancel)
	return ctx
}

// fixture is one config directory, one installation, and fake browser installations
// (scripts named like browsers, on a PATH of their own, exec'ing the real Chromium).
type fixture struct {
	store *Store
	bin   string // fake browsers' directory
	self  string // this installation's binary
}

func newFixture(t *testing.T, browsers ...string) *fixture {
	t.Helper()
	found := browser.FindBrowsers(os.Getenv("GHOSTLIGHT_BROWSER"))
	if len(found) == 0 {
		t.Fatal("no Chromium installed")
	}
	real := browser.Launchable(found[0].Path)
	f := &fixture{bin: t.TempDir()}
	for _, n := range browsers {
		writeExe(t, filepath.Join(f.bin, n), "#!/bin/sh\nexec "+real+" \"$@\"\n")
	}
	t.Setenv("PATH", f.bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	home := t.TempDir()
	f.self = writeExe(t, filepath.Join(home, "inst", "ghostlight"), "#!/bin/sh\n")
	f.store = New(filepath.Join(home, "config", "ghostlight"), f.self, nil)
	return f
}

func writeExe(t *testing.T, path, text string) string {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o755); err != nil {
		t.Fatal(err)
	}
	return path
}

func (f *fixture) installed(t *testing.T) []browser.Installed {
	t.Helper()
	return browser.FindBrowsers("")
}

func (f *fixture) install(t *testing.T) []Installed {
	t.Helper()
	done, err := f.store.Install(f.installed(t))
	if err != nil {
		t.Fatal(err)
	}
	return done
}

// open starts a registered browser headless, killed with its process group when the
// test ends.
func (f *fixture) open(t *testing.T, name string) Opened {
	t.Helper()
	o, err := f.store.Open(ctxT(t, 40*time.Second), name, OpenOptions{Headless: true})
	if err != nil {
		t.Fatalf("open %s: %v", name, err)
	}
	if !o.Already {
		t.Cleanup(func() { kill(t, o.PID) })
	}
	return o
}

// kill ends a started browser's whole session and waits until it is gone.
func kill(t *testing.T, pid int) {
	_ = syscall.Kill(-pid, syscall.SIGKILL)
	deadline := time.Now().Add(10 * time.Second)
	for syscall.Kill(pid, 0) == nil && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
}

func (f *fixture) executor(t *testing.T, startup string) *browser.Browser {
	t.Helper()
	b := browser.New(browser.Config{Startup: startup, Headless: true, Prepared: f.store})
	t.Cleanup(func() { _ = b.Close() })
	return b
}

func kindOf(t *testing.T, err error, k browser.Kind) *browser.Error {
	t.Helper()
	var e *browser.Error
	if !errors.As(err, &e) || e.Kind != k {
		t.Fatalf("want %v, got %v", k, err)
	}
	return e
}

func names(in []browser.Installed) string {
	var s []string
	for _, i := range in {
		s = append(s, i.Name)
	}
	return strings.Join(s, ",")
}

// TestInstallWritesOwnedRegistrations: one registration per installed browser, 0600 in
// a 0700 directory, stamped with this installation; the install id is written once.
func TestInstallWritesOwnedRegistrations(t *testing.T) {
	f := newFixture(t, "chromium", "google-chrome", "brave-browser")
	done := f.install(t)
	if len(done) != 3 || done[0].Action != "registered" {
		t.Fatalf("install: %+v", done)
	}
	id, _ := os.ReadFile(filepath.Join(f.store.Dir, idFile))
	for _, d := range done {
		path := f.store.registrationPath(d.Browser.Slug)
		st, err := os.Stat(path)
		if err != nil || st.Mode().Perm() != 0o600 {
			t.Fatalf("%s: %v %v", path, st.Mode(), err)
		}
		r, err := f.store.read(d.Browser.Slug)
		if err != nil {
			t.Fatal(err)
		}
		if r.Owner.Binary != f.self || r.Owner.ID != strings.TrimSpace(string(id)) || r.Binary != filepath.Join(f.bin, filepath.Base(r.Binary)) ||
			r.Profile != f.store.ProfileDir(d.Browser.Slug) || r.DevTools.Via != viaActivePort {
			t.Fatalf("registration %+v", r)
		}
		if st, err := os.Stat(r.Profile); err != nil || !st.IsDir() {
			t.Fatalf("profile %s: %v", r.Profile, err)
		}
	}
	if st, _ := os.Stat(filepath.Join(f.store.Dir, browsersDir)); st.Mode().Perm() != 0o700 {
		t.Fatalf("registrations dir mode %v", st.Mode())
	}
	again := f.install(t)
	id2, _ := os.ReadFile(filepath.Join(f.store.Dir, idFile))
	if string(id) != string(id2) || again[0].Action != "unchanged" {
		t.Fatalf("a second install keeps the id and changes nothing: %q %q %+v", id, id2, again)
	}
}

// TestManualRecoversWhenThePersonOpensAPreparedBrowser: manual startup refuses (run
// install), then asks for the prepared browser by name, and once it is opened (a real
// process, detached) the same executor's next call attaches to it. Closing the
// executor leaves the person's browser running.
func TestManualRecoversWhenThePersonOpensAPreparedBrowser(t *testing.T) {
	f := newFixture(t, "chromium")
	b := f.executor(t, browser.StartupManual)
	ws := b.Workspace("m")
	_, err := ws.Open(ctxT(t, 10*time.Second), page.URL+"/", browser.OpenOptions{})
	if e := kindOf(t, err, browser.KindStartupManual); e.Remedy != browser.RemedyInstall || names(e.Browsers) != "Chromium" {
		t.Fatalf("before install: remedy %v, browsers %v", e.Remedy, e.Browsers)
	}
	f.install(t)
	_, err = ws.Open(ctxT(t, 10*time.Second), page.URL+"/", browser.OpenOptions{})
	if e := kindOf(t, err, browser.KindStartupManual); e.Remedy != browser.RemedyOpen || names(e.Browsers) != "Chromium" {
		t.Fatalf("after install: remedy %v, browsers %v", e.Remedy, e.Browsers)
	}
	if b.Connected() {
		t.Fatal("manual startup launched a browser")
	}
	o := f.open(t, "chromium")
	if again := f.open(t, "Chromium"); !again.Already || again.Endpoint != o.Endpoint {
		t.Fatalf("a second open should find it running: %+v", again)
	}
	res, err := ws.Open(ctxT(t, 30*time.Second), page.URL+"/", browser.OpenOptions{})
	if err != nil || res.Landing.Title != "prepared" {
		t.Fatalf("after open: %+v %v", res.Landing, err)
	}
	_ = b.Close()
	if _, err := f.store.live(ctxT(t, 5*time.Second), mustRead(t, f.store, "chromium")); err != nil {
		t.Fatalf("the person's browser should outlive the executor: %v", err)
	}
}

func mustRead(t *testing.T, s *Store, slug string) *Registration {
	t.Helper()
	r, err := s.read(slug)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestAutoWithSeveralBrowsersAttachesToTheOpenedOne: auto with several installed and
// none configured names the prepared ones, then attaches to the one the person opens.
func TestAutoWithSeveralBrowsersAttachesToTheOpenedOne(t *testing.T) {
	f := newFixture(t, "chromium", "google-chrome")
	f.install(t)
	b := f.executor(t, browser.StartupAuto)
	ws := b.Workspace("a")
	_, err := ws.Tabs(ctxT(t, 10*time.Second))
	if e := kindOf(t, err, browser.KindStartupManual); e.Remedy != browser.RemedyOpen || names(e.Browsers) != "Chromium,Google Chrome" {
		t.Fatalf("remedy %v, browsers %v", e.Remedy, e.Browsers)
	}
	f.open(t, "Google Chrome")
	if _, err := ws.Open(ctxT(t, 30*time.Second), page.URL+"/", browser.OpenOptions{}); err != nil {
		t.Fatalf("after open: %v", err)
	}
}

// TestStaleRegistrationsAreRepairedSilently: a moved ghostlight binary, a moved
// browser binary and a profile path moved within the installation's directory are
// rewritten; a missing profile is made; the prepared browser is then named and opens.
func TestStaleRegistrationsAreRepairedSilently(t *testing.T) {
	f := newFixture(t, "chromium")
	f.install(t)
	r := mustRead(t, f.store, "chromium")
	r.Owner.Binary = filepath.Join(t.TempDir(), "moved-away", "ghostlight") // nothing left there
	r.Binary = filepath.Join(t.TempDir(), "uninstalled", "chromium")
	r.Profile = filepath.Join(f.store.Dir, profilesDir, "old-name")
	if err := f.store.write(r); err != nil {
		t.Fatal(err)
	}
	_ = os.RemoveAll(f.store.ProfileDir("chromium"))
	sv := f.store.Survey(ctxT(t, 5*time.Second), f.installed(t))
	if names(sv.Prepared) != "Chromium" || sv.Foreign || sv.Live != "" {
		t.Fatalf("survey %+v", sv)
	}
	fixed := mustRead(t, f.store, "chromium")
	if fixed.Owner.Binary != f.self || fixed.Binary != filepath.Join(f.bin, "chromium") || fixed.Profile != f.store.ProfileDir("chromium") {
		t.Fatalf("not repaired: %+v", fixed)
	}
	if st, err := os.Stat(fixed.Profile); err != nil || !st.IsDir() {
		t.Fatalf("profile not made: %v", err)
	}
	f.open(t, "chromium")
}

// TestDeadPortIsRepaired: a DevToolsActivePort left by a browser that was killed, or
// naming a port another process answers on, is removed and the browser is not taken
// as running; a live one is kept.
func TestDeadPortIsRepaired(t *testing.T) {
	f := newFixture(t, "chromium")
	f.install(t)
	o := f.open(t, "chromium")
	portFile := filepath.Join(f.store.ProfileDir("chromium"), activePortFile)
	if sv := f.store.Survey(ctxT(t, 5*time.Second), f.installed(t)); sv.Live != o.Endpoint {
		t.Fatalf("live browser not found: %+v", sv)
	}
	kill(t, o.PID)
	if _, err := os.Stat(portFile); err != nil {
		t.Fatalf("a killed Chromium leaves its DevToolsActivePort: %v", err)
	}
	if sv := f.store.Survey(ctxT(t, 5*time.Second), f.installed(t)); sv.Live != "" || names(sv.Prepared) != "Chromium" {
		t.Fatalf("dead browser taken as live: %+v", sv)
	}
	if _, err := os.Stat(portFile); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("the dead port's file should be removed: %v", err)
	}
	// Another process answering on the recorded port is not the registered browser.
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = w.Write([]byte(`{"webSocketDebuggerUrl":"ws://127.0.0.1/devtools/browser/someone-else"}`))
	}))
	defer other.Close()
	_, port, _ := net.SplitHostPort(strings.TrimPrefix(other.URL, "http://"))
	if err := os.WriteFile(portFile, []byte(port+"\n/devtools/browser/ours\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if sv := f.store.Survey(ctxT(t, 5*time.Second), f.installed(t)); sv.Live != "" {
		t.Fatalf("another listener taken as the browser: %+v", sv)
	}
	if _, err := os.Stat(portFile); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("a port answered by someone else should be removed: %v", err)
	}
	// A half-written file is left for the browser writing it.
	if err := os.WriteFile(portFile, []byte(port+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	f.store.Survey(ctxT(t, 5*time.Second), f.installed(t))
	if _, err := os.Stat(portFile); err != nil {
		t.Fatalf("a half-written file must stay: %v", err)
	}
}

// TestProfileOutsideItsDirectoryIsNotRepaired: a registration of this installation
// whose profile lies outside its directory is not usable; the remedy is install.
func TestProfileOutsideItsDirectoryIsNotRepaired(t *testing.T) {
	f := newFixture(t, "chromium")
	f.install(t)
	r := mustRead(t, f.store, "chromium")
	r.Profile = filepath.Join(t.TempDir(), "elsewhere")
	if err := f.store.write(r); err != nil {
		t.Fatal(err)
	}
	before, _ := os.ReadFile(f.store.registrationPath("chromium"))
	_, err := f.executor(t, browser.StartupManual).Workspace("o").Tabs(ctxT(t, 10*time.Second))
	if e := kindOf(t, err, browser.KindStartupManual); e.Remedy != browser.RemedyInstall || names(e.Browsers) != "Chromium" {
		t.Fatalf("remedy %v, browsers %v", e.Remedy, e.Browsers)
	}
	if after, _ := os.ReadFile(f.store.registrationPath("chromium")); !bytes.Equal(before, after) {
		t.Fatal("a detail outside the installation's directory was changed silently")
	}
}

// TestForeignRegistrationIsNeverTouched: a registration another installation wrote
// (another install id, or this id from a binary that still exists elsewhere) is
// neither changed nor attached to, even while its browser runs; the executor answers
// owned-elsewhere; open refuses; install from this installation takes it over.
func TestForeignRegistrationIsNeverTouched(t *testing.T) {
	f := newFixture(t, "chromium")
	f.install(t)
	o := f.open(t, "chromium") // its browser runs: still not ours to attach to
	other := writeExe(t, filepath.Join(t.TempDir(), "other", "ghostlight"), "#!/bin/sh\n")
	for i, owner := range []Identity{{Binary: other, ID: "0123456789abcdef"}, {Binary: other, ID: f.store.Self().ID}} {
		r := mustRead(t, f.store, "chromium")
		r.Owner = owner
		r.Binary = filepath.Join(t.TempDir(), "gone") // stale, were it ours
		if err := f.store.write(r); err != nil {
			t.Fatal(err)
		}
		path := f.store.registrationPath("chromium")
		before, _ := os.ReadFile(path)
		st0, _ := os.Stat(path)
		b := f.executor(t, browser.StartupManual)
		_, err := b.Workspace("f").Tabs(ctxT(t, 10*time.Second))
		kindOf(t, err, browser.KindOwnedElsewhere)
		if b.Connected() {
			t.Fatalf("case %d: attached to another installation's browser", i)
		}
		after, _ := os.ReadFile(path)
		st1, _ := os.Stat(path)
		if !bytes.Equal(before, after) || !st0.ModTime().Equal(st1.ModTime()) {
			t.Fatalf("case %d: the foreign registration was touched", i)
		}
		if _, err := f.store.Open(ctxT(t, 10*time.Second), "chromium", OpenOptions{Headless: true}); !errors.Is(err, ErrOwnedElsewhere) {
			t.Fatalf("case %d: open: %v", i, err)
		}
	}
	done := f.install(t)
	if len(done) != 1 || done[0].Action != "took over from "+other {
		t.Fatalf("install should take the registration over: %+v", done)
	}
	if sv := f.store.Survey(ctxT(t, 5*time.Second), f.installed(t)); sv.Live != o.Endpoint || sv.Foreign {
		t.Fatalf("after the takeover the running browser is ours: %+v", sv)
	}
}

// TestOursAreNamedBesideAForeignOne: with one usable registration of this
// installation and one of another, the refusal names only this installation's.
func TestOursAreNamedBesideAForeignOne(t *testing.T) {
	f := newFixture(t, "chromium", "google-chrome")
	f.install(t)
	r := mustRead(t, f.store, "chrome")
	r.Owner.ID = "someone-else"
	if err := f.store.write(r); err != nil {
		t.Fatal(err)
	}
	_, err := f.executor(t, browser.StartupManual).Workspace("mixed").Tabs(ctxT(t, 10*time.Second))
	if e := kindOf(t, err, browser.KindStartupManual); e.Remedy != browser.RemedyOpen || names(e.Browsers) != "Chromium" {
		t.Fatalf("remedy %v, browsers %v", e.Remedy, e.Browsers)
	}
}

func TestParseActivePort(t *testing.T) {
	for in, ok := range map[string]bool{
		"9222\n/devtools/browser/abc\n": true, "9222\n/devtools/browser/abc": true,
		"9222\n": false, "x\n/devtools/browser/a": false, "0\n/devtools/browser/a": false, "70000\n/devtools/browser/a": false,
		"9222\n/devtools/page/a": false, "": false,
	} {
		if _, _, got := parseActivePort([]byte(in)); got != ok {
			t.Errorf("parseActivePort(%q) = %v", in, got)
		}
	}
}

package browser

import (
	"sync"
	"testing"
	"time"
)

// TestStartupChangeAppliesAtNextStart: a startup posture the policy changes
// (Config.StartupNow) leaves the running browser serving, and decides the
// next start; OnStart hears the posture of each start that succeeded.
func TestStartupChangeAppliesAtNextStart(t *testing.T) {
	var mu sync.Mutex
	mode, started := StartupAuto, []string{}
	cfg := testConfig()
	cfg.StartupNow = func() string { mu.Lock(); defer mu.Unlock(); return mode }
	cfg.OnStart = func(m string) { mu.Lock(); started = append(started, m); mu.Unlock() }
	set := func(m string) { mu.Lock(); mode = m; mu.Unlock() }
	starts := func() []string { mu.Lock(); defer mu.Unlock(); return append([]string(nil), started...) }
	b := New(cfg)
	defer b.Close()
	ws := b.Workspace("startup")
	if _, err := ws.Tabs(ctxT(t, 30*time.Second)); err != nil {
		t.Fatal(err)
	}
	set(StartupManual)
	// The running browser keeps serving under the posture it started with.
	if _, err := ws.Tabs(ctxT(t, 5*time.Second)); err != nil {
		t.Fatalf("the running browser stopped serving: %v", err)
	}
	if got := starts(); len(got) != 1 || got[0] != StartupAuto {
		t.Fatalf("starts: %v", got)
	}
	// Once it is gone, the next start follows the new posture: manual never
	// launches, and this machine has no prepared browser.
	killPID(t, liveConn(t, b).proc.pid)
	eventually(t, "the browser gone", func() bool { return !b.Connected() })
	_, err := ws.Tabs(ctxT(t, 10*time.Second))
	wantKind(t, err, KindStartupManual)
	if b.Connected() {
		t.Fatal("manual launched a browser")
	}
	set(StartupAuto)
	if _, err := ws.Tabs(ctxT(t, 30*time.Second)); err != nil {
		t.Fatal(err)
	}
	if got := starts(); len(got) != 2 || got[1] != StartupAuto {
		t.Fatalf("starts: %v", got)
	}
}

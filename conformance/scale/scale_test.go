//go:build scale

package scale

import (
	"bufio"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

const (
	agents = 24
	rounds = 10
)

// site serves each agent its own page: a button that marks the page clicked.
func site(t *testing.T) *httptest.Server {
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		who := strings.TrimPrefix(r.URL.Path, "/")
		fmt.Fprintf(w, `<!doctype html><title>%[1]s</title><p id=who>page of %[1]s</p>`+
			`<button onclick="document.getElementById('who').textContent='page of %[1]s clicked'">Press me</button>`, who)
	}))
	t.Cleanup(s.Close)
	return s
}

// run is one workload's outcome.
type run struct {
	calls    int
	wall     time.Duration
	took     []time.Duration
	failures []string
	tab      map[*agent]string          // each agent's tab
	served   map[*agent]map[string]bool // replicas that answered each agent
}

// workload runs every agent's rounds at once through base: navigate (its
// first round without a tab: a new workspace wherever HAProxy sends it),
// inspect, click the button by target, read the page.
func workload(base, origin string, as []*agent) *run {
	res := &run{tab: map[*agent]string{}, served: map[*agent]map[string]bool{}}
	var mu sync.Mutex
	var wg sync.WaitGroup
	start := time.Now()
	for _, a := range as {
		wg.Add(1)
		go func() {
			defer wg.Done()
			tab := ""
			fail := func(format string, args ...any) {
				mu.Lock()
				res.failures = append(res.failures, a.name+": "+fmt.Sprintf(format, args...))
				mu.Unlock()
			}
			note := func(ans answer) {
				mu.Lock()
				res.calls++
				res.took = append(res.took, ans.took)
				if res.served[a] == nil {
					res.served[a] = map[string]bool{}
				}
				res.served[a][ans.replica] = true
				mu.Unlock()
			}
			for r := range rounds {
				args := map[string]any{"url": fmt.Sprintf("%s/%s?round=%d", origin, a.name, r), "timeout_ms": 30000}
				if tab != "" {
					args["tab"] = tab
				}
				nav := a.call(base, "browser_navigate", args)
				note(nav)
				if nav.err != nil || nav.env.Status != "succeeded" {
					fail("round %d navigate: %v %+v", r, nav.err, nav.env)
					return
				}
				if tab == "" {
					tab = nav.env.str("tab")
				} else if nav.env.str("tab") != tab {
					fail("round %d navigate answered tab %s, not %s", r, nav.env.str("tab"), tab)
					return
				}
				ins := a.call(base, "browser_inspect", map[string]any{"tab": tab})
				note(ins)
				target := targetNamed(ins.env, "Press me")
				if ins.err != nil || target == "" {
					fail("round %d inspect: %v %+v", r, ins.err, ins.env)
					return
				}
				click := a.call(base, "browser_click", map[string]any{"tab": tab, "target": target, "timeout_ms": 30000})
				note(click)
				if click.err != nil || click.env.Status != "succeeded" {
					fail("round %d click: %v %+v", r, click.err, click.env)
					return
				}
				read := a.call(base, "browser_read", map[string]any{"tab": tab})
				note(read)
				if read.err != nil || !strings.Contains(read.env.str("text"), "page of "+a.name+" clicked") {
					fail("round %d read: %v %q", r, read.err, read.env.str("text"))
					return
				}
			}
			mu.Lock()
			res.tab[a] = tab
			mu.Unlock()
		}()
	}
	wg.Wait()
	res.wall = time.Since(start)
	return res
}

// figures are a run's throughput and latency quantiles.
func (r *run) figures() string {
	took := slices.Clone(r.took)
	slices.Sort(took)
	q := func(p float64) time.Duration {
		if len(took) == 0 {
			return 0
		}
		return took[min(len(took)-1, int(p*float64(len(took))))]
	}
	return fmt.Sprintf("%d calls in %.1f s: %.1f calls/s, p50 %d ms, p95 %d ms",
		r.calls, r.wall.Seconds(), float64(r.calls)/r.wall.Seconds(), q(0.50).Milliseconds(), q(0.95).Milliseconds())
}

// callsOnMetrics sums ghostlight_calls_total over a replica's /metrics.
func callsOnMetrics(t *testing.T, r *replica) int {
	t.Helper()
	resp, err := http.Get("http://" + r.addr + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	n := 0
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "ghostlight_calls_total{") {
			f := strings.Fields(line)
			v, _ := strconv.ParseFloat(f[len(f)-1], 64)
			n += int(v)
		}
	}
	return n
}

// TestScale: three replicas behind HAProxy (Debian's package), 24 agents
// of 10 rounds over MCP 2026-07-28: every call answers, every agent's calls
// land on one replica (HAProxy routes on the replica its tab handle names),
// and each agent's workspace there holds its own tab alone; /metrics counts
// every call. A 2025-11-25 session sticks to its replica by Mcp-Session-Id.
// Then one replica is killed: its agents' next call is refused
// other_replica naming it (answered by a live replica), the others' calls
// succeed, and a new navigate succeeds. The same workload on one replica
// gives the figures docs/deployment.md compares.
func TestScale(t *testing.T) {
	bin := build(t)
	origin := site(t).URL
	t.Logf("machine: %s", machine())
	defer func() { t.Logf("load average at the end: %s", loadavg()) }()
	reps := []*replica{startReplica(t, bin, "ra1"), startReplica(t, bin, "rb2"), startReplica(t, bin, "rc3")}
	for _, r := range reps {
		r.ready(t)
	}
	calls := map[*replica]int{}

	// One replica first: the baseline.
	oneBase, _ := startHAProxy(t, reps[:1])
	var solo []*agent
	for i := range agents {
		solo = append(solo, newAgent(fmt.Sprintf("solo%02d", i)))
	}
	one := workload(oneBase, origin, solo)
	for _, f := range one.failures {
		t.Errorf("1 replica: %s", f)
	}
	t.Logf("1 replica: %s", one.figures())
	calls[reps[0]] += one.calls
	for _, a := range solo { // release their workspaces: close the tab
		if ans := a.call(oneBase, "browser_tabs", map[string]any{"action": "close", "tab": one.tab[a]}); ans.err != nil || ans.env.Status != "succeeded" {
			t.Errorf("%s close: %v %+v", a.name, ans.err, ans.env)
		}
		calls[reps[0]]++
	}

	base, cfg := startHAProxy(t, reps)
	t.Logf("haproxy.cfg:\n%s", cfg)
	var as []*agent
	for i := range agents {
		as = append(as, newAgent(fmt.Sprintf("agent%02d", i)))
	}
	three := workload(base, origin, as)
	for _, f := range three.failures {
		t.Errorf("3 replicas: %s", f)
	}
	t.Logf("3 replicas: %s", three.figures())
	if t.Failed() {
		t.FailNow()
	}
	home := map[*agent]*replica{}
	perReplica := map[string]int{}
	for _, a := range as {
		owner := replicaOf(three.tab[a])
		for _, r := range reps {
			if r.name == owner {
				home[a] = r
			}
		}
		if home[a] == nil || len(three.served[a]) != 1 || !three.served[a][owner] {
			t.Errorf("%s (tab %s) was served by %v", a.name, three.tab[a], three.served[a])
			continue
		}
		perReplica[owner]++
		calls[home[a]] += rounds * 4
		// Straight to its replica, as the same principal: its own tab alone.
		list := a.call("http://"+home[a].addr, "browser_tabs", map[string]any{"action": "list"})
		calls[home[a]]++
		tabs, _ := list.env.Facts["tabs"].([]any)
		if list.err != nil || len(tabs) != 1 || !strings.Contains(fmt.Sprint(tabs[0]), three.tab[a]) {
			t.Errorf("%s's workspace on %s lists %v (%v)", a.name, owner, tabs, list.err)
		}
	}
	t.Logf("agents per replica: %v", perReplica)
	for _, r := range reps {
		if got := callsOnMetrics(t, r); got != calls[r] {
			t.Errorf("replica %s /metrics counts %d calls, the test made %d there", r.name, got, calls[r])
		}
	}

	// A 2025-11-25 session through the same router sticks to its replica.
	legacy(t, base)

	// Kill one replica between rounds: nothing of it is in flight.
	lost := reps[1]
	if err := lost.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = lost.cmd.Wait()
	var wg sync.WaitGroup
	var mu sync.Mutex
	refused, served := 0, 0
	for _, a := range as {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ans := a.call(base, "browser_read", map[string]any{"tab": three.tab[a]})
			mu.Lock()
			defer mu.Unlock()
			if home[a] == lost {
				words := ans.env.Summary + " " + strings.Join(ans.env.NextSteps, " ")
				if ans.err != nil || ans.env.str("reason") != "other_replica" || ans.env.str("replica") != lost.name || !strings.Contains(words, "replica "+lost.name) {
					t.Errorf("%s, whose replica %s died: HTTP %d %v %+v", a.name, lost.name, ans.status, ans.err, ans.env)
					return
				}
				refused++
				// A new navigate (no tab) opens a tab on a live replica.
				nav := a.call(base, "browser_navigate", map[string]any{"url": origin + "/" + a.name + "?again", "timeout_ms": 30000})
				if nav.err != nil || nav.env.Status != "succeeded" || replicaOf(nav.env.str("tab")) == lost.name {
					t.Errorf("%s's new navigate: %v %+v", a.name, nav.err, nav.env)
				}
				return
			}
			if ans.err != nil || ans.env.Status != "succeeded" || !strings.Contains(ans.env.str("text"), a.name+" clicked") {
				t.Errorf("%s on live replica %s after the kill: %v %+v", a.name, home[a].name, ans.err, ans.env)
				return
			}
			served++
		}()
	}
	wg.Wait()
	t.Logf("after killing %s: %d agents refused other_replica naming it (then navigated anew), %d served as before", lost.name, refused, served)
	if refused != perReplica[lost.name] || refused == 0 {
		t.Errorf("%d refusals, %d agents lived on %s", refused, perReplica[lost.name], lost.name)
	}
}

// legacy runs a 2025-11-25 session through base: initialize, navigate,
// inspect, all answered by one replica.
func legacy(t *testing.T, base string) {
	t.Helper()
	c := &http.Client{Timeout: 60 * time.Second}
	session := ""
	servedBy := map[string]bool{}
	post := func(body string) string {
		req, _ := http.NewRequest(http.MethodPost, base+"/mcp", strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		if session != "" {
			req.Header.Set("Mcp-Session-Id", session)
			req.Header.Set("Mcp-Protocol-Version", "2025-11-25")
		}
		resp, err := c.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var b strings.Builder
		sc := bufio.NewScanner(resp.Body)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for sc.Scan() {
			b.WriteString(sc.Text() + "\n")
		}
		if id := resp.Header.Get("Mcp-Session-Id"); id != "" {
			session = id
		}
		servedBy[resp.Header.Get("X-Ghostlight-Replica")] = true
		return b.String()
	}
	post(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"legacy","version":"1"}}}`)
	if session == "" {
		t.Fatal("no Mcp-Session-Id from initialize")
	}
	post(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	for i := range 3 {
		out := post(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"browser_tabs","arguments":{"action":"list"}}}`, i+2))
		if !strings.Contains(out, `"status":"succeeded"`) {
			t.Errorf("2025-11-25 call %d: %.300s", i, out)
		}
	}
	if len(servedBy) != 1 {
		t.Errorf("a 2025-11-25 session was served by %v", servedBy)
	}
}

// machine names the CPU, its cores and the load average now.
func machine() string {
	model := "unknown CPU"
	if b, err := os.ReadFile("/proc/cpuinfo"); err == nil {
		for _, line := range strings.Split(string(b), "\n") {
			if k, v, ok := strings.Cut(line, ":"); ok && strings.TrimSpace(k) == "model name" {
				model = strings.TrimSpace(v)
				break
			}
		}
	}
	return fmt.Sprintf("%s, %d cores, load average %s", model, runtime.NumCPU(), loadavg())
}

func loadavg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "unknown"
	}
	return strings.Join(strings.Fields(string(b))[:3], " ")
}

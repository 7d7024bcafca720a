//go:build linux

package browser

import (
	"bufio"
	"context"
	"io"
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

// TestLaunchedBrowserListensOnNoPort: a browser Ghostlight launches is driven
// over its pipe, so no process of it holds a listening TCP socket (read from
// /proc: LISTEN entries of tcp and tcp6 matched by inode to the fds of every
// process of the browser's group or naming its profile), and no loopback port
// of this machine answers /json/list with its tab. The same count on a browser
// launched with a DevTools port finds its listener, so the count can fail.
func TestLaunchedBrowserListensOnNoPort(t *testing.T) {
	ws := newWS(t)
	marker := "pipe-marker-" + strconv.FormatInt(time.Now().UnixNano(), 36)
	openTab(t, ws, pageURL(marker))
	c := liveConn(t, shared)
	if c.proc == nil || c.proc.pipe == nil {
		t.Fatal("the shared browser is not driven over a pipe")
	}
	if c.wsURL != "" {
		t.Fatalf("a piped browser names a DevTools URL: %s", c.wsURL)
	}
	pids := browserPIDs(c.proc.pid, c.proc.root)
	if len(pids) < 2 {
		t.Fatalf("expected the browser and its helpers, found %v", pids)
	}
	if ports := listeningPorts(t, pids); len(ports) != 0 {
		t.Fatalf("the launched browser listens on TCP ports %v", ports)
	}
	// Any local process (a page's navigation included) trying every
	// listening loopback port finds no DevTools list naming this tab.
	all := listeningPorts(t, nil)
	client := &http.Client{Timeout: 2 * time.Second}
	for _, port := range all {
		resp, err := client.Get("http://127.0.0.1:" + strconv.Itoa(port) + "/json/list")
		if err != nil {
			continue
		}
		body, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
		resp.Body.Close()
		if strings.Contains(string(body), marker) {
			t.Fatalf("port %d lists the launched browser's tab: %.200s", port, body)
		}
	}
	t.Logf("browser processes %d, their listening sockets 0; loopback ports tried for /json/list: %d", len(pids), len(all))

	// The detector finds a browser's DevTools port when there is one.
	u, stop, err := Launch(ctxT(t, 30*time.Second), testConfig())
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	port := portOf(t, u)
	exposed := processesWithArg("--remote-debugging-port=0")
	if got := listeningPorts(t, exposed); !containsInt(got, port) {
		t.Fatalf("the detector missed the DevTools port %d of a browser launched with one (found %v)", port, got)
	}
}

// TestKilledServerLeavesNoBrowser: a process that launched a browser over the
// pipe and is then SIGKILLed (no cleanup runs) leaves no process naming the
// browser's profile: Pdeathsig kills the browser, its helpers follow.
func TestKilledServerLeavesNoBrowser(t *testing.T) {
	if os.Getenv("GHOSTLIGHT_PIPE_CHILD") == "1" {
		return // the child's own run of this test (see pipeChild)
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestPipeChild$", "-test.count=1")
	cmd.Env = append(os.Environ(), "GHOSTLIGHT_PIPE_CHILD=1")
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan struct{})
	var root string
	sc := bufio.NewScanner(out)
	for sc.Scan() {
		if r, ok := strings.CutPrefix(sc.Text(), "ROOT "); ok {
			root = r
			break
		}
	}
	go func() { _, _ = io.Copy(io.Discard, out); _ = cmd.Wait(); close(exited) }()
	if root == "" {
		_ = cmd.Process.Kill()
		<-exited
		t.Fatal("the child launched no browser")
	}
	before := processesWithArg(root)
	if len(before) < 2 {
		t.Fatalf("expected the child's browser and helpers running, found %v", before)
	}
	if err := syscall.Kill(cmd.Process.Pid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	<-exited
	eventually(t, "the killed server's browser processes to exit", func() bool { return len(processesWithArg(root)) == 0 })
	t.Logf("browser processes before the kill %d, after 0", len(before))
	// What it left on disk goes with the next server's sweep.
	SweepStale("")
	if _, err := os.Stat(root); !os.IsNotExist(err) {
		t.Fatalf("the killed server's profile %s was not swept: %v", root, err)
	}
}

// TestPipeChild is the server TestKilledServerLeavesNoBrowser kills: it
// launches a browser, says where its profile is and waits to be killed.
func TestPipeChild(t *testing.T) {
	if os.Getenv("GHOSTLIGHT_PIPE_CHILD") != "1" {
		return
	}
	b := New(testConfig())
	c := liveConn(t, b)
	os.Stdout.WriteString("ROOT " + c.proc.root + "\n")
	<-context.Background().Done() // killed here
}

// browserPIDs lists the processes of the browser's process group and those
// naming its profile (helpers outside the group).
func browserPIDs(pgid int, root string) []int {
	seen := map[int]bool{}
	var out []int
	add := func(pid int) {
		if !seen[pid] {
			seen[pid] = true
			out = append(out, pid)
		}
	}
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if g, err := syscall.Getpgid(pid); err == nil && g == pgid {
			add(pid)
		}
	}
	for _, pid := range processesWithArg(root) {
		add(pid)
	}
	return out
}

// listeningPorts reads the LISTEN sockets (tcp and tcp6) and returns the
// ports of those held open by one of pids (every one when pids is nil).
func listeningPorts(t testing.TB, pids []int) []int {
	t.Helper()
	listen := map[string]int{} // socket inode -> port
	for _, f := range []string{"/proc/self/net/tcp", "/proc/self/net/tcp6"} {
		raw, err := os.ReadFile(f)
		if err != nil {
			t.Fatalf("read %s: %v", f, err)
		}
		for _, line := range strings.Split(string(raw), "\n")[1:] {
			fs := strings.Fields(line)
			if len(fs) < 10 || fs[3] != "0A" { // 0A: TCP_LISTEN
				continue
			}
			_, hexPort, _ := strings.Cut(fs[1], ":")
			p, err := strconv.ParseInt(hexPort, 16, 32)
			if err == nil {
				listen[fs[9]] = int(p)
			}
		}
	}
	var out []int
	if pids == nil {
		for _, p := range listen {
			if !containsInt(out, p) {
				out = append(out, p)
			}
		}
		return out
	}
	for _, pid := range pids {
		dir := filepath.Join("/proc", strconv.Itoa(pid), "fd")
		fds, _ := os.ReadDir(dir)
		for _, fd := range fds {
			link, err := os.Readlink(filepath.Join(dir, fd.Name()))
			if err != nil {
				continue
			}
			inode, ok := strings.CutPrefix(link, "socket:[")
			if !ok {
				continue
			}
			if p, ok := listen[strings.TrimSuffix(inode, "]")]; ok && !containsInt(out, p) {
				out = append(out, p)
			}
		}
	}
	return out
}

func containsInt(l []int, v int) bool {
	for _, x := range l {
		if x == v {
			return true
		}
	}
	return false
}

func portOf(t testing.TB, wsURL string) int {
	t.Helper()
	hostport := strings.SplitN(strings.TrimPrefix(wsURL, "ws://"), "/", 2)[0]
	_, p, _ := strings.Cut(hostport, ":")
	n, err := strconv.Atoi(p)
	if err != nil {
		t.Fatalf("no port in %s", wsURL)
	}
	return n
}

package main

import (
	"bufio"
	"bytes"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// `ghostlight workbench` prints a fresh single-use link from the running
// server: the link opens the workbench once (a session cookie that is not
// the ticket), a second use is refused with a page saying how to get a new
// one, and the printed start link is single-use too. Real binary, real
// HTTP.
func TestWorkbenchCommandPrintsAFreshLink(t *testing.T) {
	state := t.TempDir()
	cmd := command(t, "serve", "--workbench", "127.0.0.1:0")
	cmd.Env = append(cmd.Env, "XDG_STATE_HOME="+state)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	pr, pw, _ := os.Pipe() // stdio MCP: stdin stays open until the signal below
	cmd.Stdin = pr
	defer pw.Close()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Signal(os.Interrupt)
		_ = cmd.Wait()
	})
	linkRe := regexp.MustCompile(`workbench at (http://\S+)`)
	sc := bufio.NewScanner(stderr)
	var start string
	deadline := time.After(30 * time.Second)
	found := make(chan string, 1)
	go func() {
		for sc.Scan() {
			if m := linkRe.FindStringSubmatch(sc.Text()); m != nil {
				found <- m[1]
			}
		}
	}()
	select {
	case start = <-found:
	case <-deadline:
		t.Fatal("serve did not print its workbench link")
	}
	// The file the command reads is the user's alone.
	files, _ := filepath.Glob(filepath.Join(state, "ghostlight", "workbench", "*.json"))
	if len(files) != 1 {
		t.Fatalf("link files %v", files)
	}
	if fi, err := os.Stat(files[0]); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("link file mode %v %v", fi.Mode(), err)
	}
	noRedirect := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	use := func(link string) (int, string, string) {
		resp, err := noRedirect.Get(link)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var b bytes.Buffer
		b.ReadFrom(resp.Body)
		ck := ""
		for _, c := range resp.Cookies() {
			ck = c.Value
		}
		return resp.StatusCode, ck, b.String()
	}
	if s, ck, _ := use(start); s != http.StatusSeeOther || ck == "" || strings.Contains(start, ck) {
		t.Fatalf("start link: %d, cookie %q", s, ck)
	}
	if s, _, body := use(start); s != http.StatusGone || !strings.Contains(body, "ghostlight workbench") {
		t.Fatalf("start link again: %d %q", s, body)
	}

	var out, errb bytes.Buffer
	wc := command(t, "workbench")
	wc.Env = append(wc.Env, "XDG_STATE_HOME="+state)
	wc.Stdout, wc.Stderr = &out, &errb
	if err := wc.Run(); err != nil {
		t.Fatalf("ghostlight workbench: %v %s", err, errb.String())
	}
	fresh := strings.TrimSpace(out.String())
	if !strings.HasPrefix(fresh, strings.Split(start, "?")[0]+"?ticket=") || fresh == start {
		t.Fatalf("fresh link %q (start %q)", fresh, start)
	}
	if s, ck, _ := use(fresh); s != http.StatusSeeOther || ck == "" {
		t.Fatalf("fresh link: %d", s)
	}
	if s, _, _ := use(fresh); s != http.StatusGone {
		t.Fatalf("fresh link again: %d", s)
	}
	// Without the key, no link.
	resp, err := http.Post(strings.Split(start, "/workbench")[0]+"/workbench/link", "text/plain", nil)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusForbidden {
		t.Fatalf("link without the key: %d", resp.StatusCode)
	}
	// A file a killed server left (nothing listens at its address) is
	// removed by the command.
	stale := filepath.Join(state, "ghostlight", "workbench", "999999999.json")
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	deadAddr := l.Addr().String()
	l.Close()
	if err := os.WriteFile(stale, []byte(`{"url":"http://`+deadAddr+`","key":"k"}`), 0o600); err != nil {
		t.Fatal(err)
	}
	out.Reset()
	wc = command(t, "workbench")
	wc.Env = append(wc.Env, "XDG_STATE_HOME="+state)
	wc.Stdout = &out
	if err := wc.Run(); err != nil || !strings.Contains(out.String(), "?ticket=") {
		t.Fatalf("with a stale file beside the live one: %v %q", err, out.String())
	}
	if _, err := os.Stat(stale); !os.IsNotExist(err) {
		t.Fatalf("the stale file stayed: %v", err)
	}
	// Stopped, the server leaves no file, and the command says how to go on.
	_ = cmd.Process.Signal(os.Interrupt)
	_ = cmd.Wait()
	if files, _ := filepath.Glob(filepath.Join(state, "ghostlight", "workbench", "*.json")); len(files) != 0 {
		t.Fatalf("link files left: %v", files)
	}
	wc = command(t, "workbench")
	wc.Env = append(wc.Env, "XDG_STATE_HOME="+state)
	errb.Reset()
	wc.Stderr = &errb
	if err := wc.Run(); err == nil || !strings.Contains(errb.String(), "no running `ghostlight serve` with a workbench answered") {
		t.Fatalf("with no server: %v %q", err, errb.String())
	}
}

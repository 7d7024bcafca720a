package main

import (
	"bufio"
	"bytes"
	"errors"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"
)

var (
	binOnce sync.Once
	binPath string
	binErr  error
)

// binary builds the shipped command once for these tests.
func binary(t *testing.T) string {
	t.Helper()
	binOnce.Do(func() {
		dir, err := os.MkdirTemp("", "ghostlight-bin-")
		if err != nil {
			binErr = err
			return
		}
		binPath = filepath.Join(dir, "ghostlight")
		if out, err := exec.Command("go", "build", "-o", binPath, ".").CombinedOutput(); err != nil {
			binErr = errors.New(string(out))
		}
	})
	if binErr != nil {
		t.Fatal(binErr)
	}
	return binPath
}

// command runs the binary with a private TMPDIR and state directory and no
// token in its environment.
func command(t *testing.T, args ...string) *exec.Cmd {
	t.Helper()
	dir := t.TempDir()
	cmd := exec.Command(binary(t), args...)
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "GHOSTLIGHT_TOKEN=") {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	cmd.Env = append(cmd.Env, "TMPDIR="+dir, "XDG_STATE_HOME="+dir)
	return cmd
}

// --http without a token refuses to start, and says how to go on.
func TestHTTPRefusesToServeWithoutAToken(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"serve", "--http", "127.0.0.1:0"}, "--http needs a bearer token: set GHOSTLIGHT_TOKEN or pass --token-file PATH (or pass --insecure-no-token"},
		{[]string{"serve", "--http", "127.0.0.1:0", "--insecure-no-token", "--allow-remote"}, "--insecure-no-token serves on loopback only"},
	} {
		var stderr bytes.Buffer
		cmd := command(t, tc.args...)
		cmd.Stderr = &stderr
		err := cmd.Run()
		var exit *exec.ExitError
		if !errors.As(err, &exit) || exit.ExitCode() != 1 {
			t.Fatalf("%v: exit %v, want status 1\n%s", tc.args, err, stderr.String())
		}
		if !strings.Contains(stderr.String(), tc.want) {
			t.Fatalf("%v: stderr %q does not say %q", tc.args, stderr.String(), tc.want)
		}
	}
}

// --insecure-no-token serves unauthenticated on loopback, and warns.
func TestInsecureNoTokenServesAndWarns(t *testing.T) {
	cmd := command(t, "serve", "--http", "127.0.0.1:0", "--insecure-no-token", "--log-level", "info")
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		_ = cmd.Process.Signal(os.Interrupt)
		_ = cmd.Wait()
	}()
	urlRe := regexp.MustCompile(`url=(http://\S+/mcp)`)
	lines := make(chan string, 64)
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	var url string
	warned := false
	timeout := time.After(30 * time.Second)
	for url == "" {
		select {
		case l, ok := <-lines:
			if !ok {
				t.Fatal("the server exited before listening")
			}
			if strings.Contains(l, "without a bearer token (--insecure-no-token)") {
				warned = true
			}
			if m := urlRe.FindStringSubmatch(l); m != nil {
				url = m[1]
			}
		case <-timeout:
			t.Fatal("the server did not say where it listens")
		}
	}
	if !warned {
		t.Error("serving without a token was not said")
	}
	go func() {
		for range lines { // keep the server's stderr flowing
		}
	}()
	req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("initialize without a token: %d", resp.StatusCode)
	}
}

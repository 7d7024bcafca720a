package main

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// serving starts cmd and returns the MCP URL it announces and everything it
// wrote on stderr up to then; the server is stopped when the test ends.
func serving(t *testing.T, cmd *exec.Cmd) (url, said string) {
	t.Helper()
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Signal(os.Interrupt)
		_ = cmd.Wait()
	})
	lines := make(chan string, 64)
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	urlRe := regexp.MustCompile(`url=(http://\S+/mcp)`)
	var b strings.Builder
	timeout := time.After(30 * time.Second)
	for url == "" {
		select {
		case l, ok := <-lines:
			if !ok {
				t.Fatalf("the server exited before listening:\n%s", b.String())
			}
			b.WriteString(l + "\n")
			if m := urlRe.FindStringSubmatch(l); m != nil {
				url = m[1]
			}
		case <-timeout:
			t.Fatalf("the server did not say where it listens:\n%s", b.String())
		}
	}
	go func() {
		for range lines { // keep the server's stderr flowing
		}
	}()
	return url, b.String()
}

// initialize posts an MCP initialize with the given bearer token ("" for
// none) and returns the HTTP status.
func initialize(t *testing.T, url, token string) int {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return resp.StatusCode
}

// The token given through the environment or a file is on no command line
// (what /proc/<pid>/cmdline shows every local user), and it is the one
// the server asks for.
func TestTokenStaysOffTheCommandLine(t *testing.T) {
	const token = "tok-7f3a9c2e51d84b06"
	for _, how := range []string{"env", "file"} {
		t.Run(how, func(t *testing.T) {
			var cmd *exec.Cmd
			switch how {
			case "env":
				cmd = command(t, "serve", "--http", "127.0.0.1:0", "--log-level", "info")
				cmd.Env = append(cmd.Env, "GHOSTLIGHT_TOKEN="+token)
			case "file":
				path := filepath.Join(t.TempDir(), "token")
				if err := os.WriteFile(path, []byte(token+"\n"), 0o600); err != nil {
					t.Fatal(err)
				}
				cmd = command(t, "serve", "--http", "127.0.0.1:0", "--log-level", "info", "--token-file", path)
			}
			url, said := serving(t, cmd)
			cmdline, err := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", cmd.Process.Pid))
			if err != nil {
				t.Fatal(err)
			}
			if len(cmdline) == 0 || bytes.Contains(cmdline, []byte(token)) {
				t.Fatalf("/proc/<pid>/cmdline %q holds the token (or nothing)", cmdline)
			}
			if strings.Contains(said, "warning: --token") {
				t.Errorf("a token not given with --token was warned about:\n%s", said)
			}
			if got := initialize(t, url, token); got != http.StatusOK {
				t.Errorf("initialize with the token: %d, want 200", got)
			}
			if got := initialize(t, url, ""); got != http.StatusUnauthorized {
				t.Errorf("initialize without a token: %d, want 401", got)
			}
			if got := initialize(t, url, token+"x"); got != http.StatusUnauthorized {
				t.Errorf("initialize with another token: %d, want 401", got)
			}
			t.Logf("cmdline %q (%d bytes) without the token; 200 with it, 401 without", bytes.ReplaceAll(cmdline, []byte{0}, []byte{' '}), len(cmdline))
		})
	}
}

// --token still works, and says on stderr that others can read it.
func TestTokenFlagWarns(t *testing.T) {
	const token = "tok-flag-0b1c2d3e"
	url, said := serving(t, command(t, "serve", "--http", "127.0.0.1:0", "--log-level", "info", "--token", token))
	if !strings.Contains(said, "warning: --token puts the token on the command line, where every local user can read it (/proc/<pid>/cmdline") {
		t.Errorf("no warning about --token on stderr:\n%s", said)
	}
	if got := initialize(t, url, token); got != http.StatusOK {
		t.Errorf("initialize with the token: %d, want 200", got)
	}
}

// A token file others may read, or none of ours, is refused before
// anything starts, saying why and what to do.
func TestTokenFileOthersCanReadIsRefused(t *testing.T) {
	dir := t.TempDir()
	open := filepath.Join(dir, "open")
	if err := os.WriteFile(open, []byte("tok\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(open, 0o644); err != nil { // past the umask
		t.Fatal(err)
	}
	group := filepath.Join(dir, "group")
	if err := os.WriteFile(group, []byte("tok\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(group, 0o640); err != nil {
		t.Fatal(err)
	}
	empty := filepath.Join(dir, "empty")
	if err := os.WriteFile(empty, []byte("\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--token-file", open}, "is readable or writable by other users (mode 0644): make it yours alone with chmod 600 " + open},
		{[]string{"--token-file", group}, "(mode 0640): make it yours alone with chmod 600"},
		{[]string{"--token-file", empty}, "is empty"},
		{[]string{"--token-file", filepath.Join(dir, "missing")}, "--token-file: open"},
		{[]string{"--token-file", empty, "--token", "x"}, "pass --token or --token-file, not both"},
	} {
		var stderr bytes.Buffer
		cmd := command(t, append([]string{"serve", "--http", "127.0.0.1:0"}, tc.args...)...)
		cmd.Stderr = &stderr
		err := cmd.Run()
		var exit *exec.ExitError
		if !errors.As(err, &exit) || exit.ExitCode() != 1 {
			t.Fatalf("%v: exit %v, want status 1\n%s", tc.args, err, stderr.String())
		}
		if !strings.Contains(stderr.String(), tc.want) {
			t.Errorf("%v: stderr %q does not say %q", tc.args, stderr.String(), tc.want)
		}
	}
}

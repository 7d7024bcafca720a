package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// stdioServer is the built binary serving MCP over stdio, spoken to line by line.
type stdioServer struct {
	cmd    *exec.Cmd
	in     io.WriteCloser
	out    *bufio.Reader
	stderr lockedBuf
	id     int
}

func startServer(t *testing.T, bin, tmp string) *stdioServer {
	t.Helper()
	s := &stdioServer{cmd: exec.Command(bin, "serve", "--log-level", "info")}
	s.cmd.Env = append(os.Environ(), "TMPDIR="+tmp)
	s.cmd.Stderr = &s.stderr
	var err error
	if s.in, err = s.cmd.StdinPipe(); err != nil {
		t.Fatal(err)
	}
	out, err := s.cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	s.out = bufio.NewReaderSize(out, 1<<20)
	if err := s.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.cmd.Process.Kill(); _ = s.cmd.Wait() })
	s.rpc(t, "initialize", map[string]any{"protocolVersion": "2025-06-18", "capabilities": map[string]any{},
		"clientInfo": map[string]any{"name": "sweep-test", "version": "1"}})
	s.send(t, map[string]any{"jsonrpc": "2.0", "method": "notifications/initialized"})
	return s
}

func (s *stdioServer) send(t *testing.T, msg any) {
	t.Helper()
	b, _ := json.Marshal(msg)
	if _, err := s.in.Write(append(b, '\n')); err != nil {
		t.Fatalf("write: %v\n%s", err, s.stderr.String())
	}
}

// rpc sends one request and reads lines until its response.
func (s *stdioServer) rpc(t *testing.T, method string, params any) json.RawMessage {
	t.Helper()
	s.id++
	s.send(t, map[string]any{"jsonrpc": "2.0", "id": s.id, "method": method, "params": params})
	for {
		line, err := s.out.ReadBytes('\n')
		if err != nil {
			t.Fatalf("%s: %v\n%s", method, err, s.stderr.String())
		}
		var resp struct {
			ID     *int            `json:"id"`
			Result json.RawMessage `json:"result"`
			Error  json.RawMessage `json:"error"`
		}
		if json.Unmarshal(line, &resp) != nil || resp.ID == nil || *resp.ID != s.id {
			continue // a notification
		}
		if resp.Error != nil {
			t.Fatalf("%s: %s", method, resp.Error)
		}
		return resp.Result
	}
}

// call runs a tool and fails unless it succeeded.
func (s *stdioServer) call(t *testing.T, tool string, args any) {
	t.Helper()
	res := s.rpc(t, "tools/call", map[string]any{"name": tool, "arguments": args})
	var r struct {
		Structured struct {
			Status string `json:"status"`
		} `json:"structuredContent"`
	}
	if err := json.Unmarshal(res, &r); err != nil || r.Structured.Status != "succeeded" {
		t.Fatalf("%s: %s", tool, res)
	}
}

// proc is one live process as /proc shows it.
type proc struct {
	pid, pgrp int
	cmdline   string
}

func liveProcs() []proc {
	var out []proc
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		stat, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err != nil {
			continue
		}
		f := strings.Fields(string(stat[bytes.LastIndexByte(stat, ')')+1:]))
		if len(f) < 3 || f[0] == "Z" { // a zombie is not running
			continue
		}
		pgrp, _ := strconv.Atoi(f[2])
		cmd, _ := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		out = append(out, proc{pid: pid, pgrp: pgrp, cmdline: string(bytes.ReplaceAll(cmd, []byte{0}, []byte{' '}))})
	}
	return out
}

// browserOf finds the main Chromium process of a server whose TMPDIR is tmp, and the
// TMPDIR that Chromium itself was given.
func browserOf(t *testing.T, tmp string) (pid int, browserTmp string) {
	t.Helper()
	for _, p := range liveProcs() {
		if !strings.Contains(p.cmdline, "--user-data-dir="+tmp) || strings.Contains(p.cmdline, "--type=") {
			continue
		}
		env, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(p.pid), "environ"))
		if err != nil {
			continue
		}
		for _, kv := range bytes.Split(env, []byte{0}) {
			if v, ok := bytes.CutPrefix(kv, []byte("TMPDIR=")); ok {
				return p.pid, string(v)
			}
		}
	}
	t.Fatal("no Chromium of the server found")
	return 0, ""
}

// TestKilledServerLeavesNothingBehind: a server that launched its browser and staged an
// upload is SIGKILLed; the next server's start sweeps its profile, the browser's own
// TMPDIR and its staging, and none of the killed browser's processes survive.
func TestKilledServerLeavesNothingBehind(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "ghostlight")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	page := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprint(w, `<title>Up</title><label>Attach <input type="file"></label>`)
	}))
	defer page.Close()
	tmp := t.TempDir()

	first := startServer(t, bin, tmp)
	first.call(t, "browser_navigate", map[string]any{"url": page.URL + "/"})
	first.call(t, "browser_upload", map[string]any{"selector": map[string]any{"name": "Attach"},
		"files": []any{map[string]any{"name": "note.txt", "data_base64": "aGVsbG8="}}})
	browserPID, browserTmp := browserOf(t, tmp)
	staged, _ := filepath.Glob(filepath.Join(tmp, "ghostlight-stage-*", "upload-*", "0", "note.txt"))
	profiles, _ := filepath.Glob(filepath.Join(tmp, "ghostlight-chromium-*"))
	if len(staged) != 1 || len(profiles) != 1 || !strings.Contains(filepath.Base(browserTmp), "ghostlight-") {
		t.Fatalf("while serving: staged %v, profiles %v, browser TMPDIR %s", staged, profiles, browserTmp)
	}
	if err := first.cmd.Process.Kill(); err != nil { // SIGKILL: no cleanup of its own
		t.Fatal(err)
	}
	_ = first.cmd.Wait()
	if _, err := os.Stat(staged[0]); err != nil {
		t.Fatalf("the killed server should not have cleaned up: %v", err)
	}

	second := startServer(t, bin, tmp)
	second.in.Close() // stdin closed: the server stops
	if err := second.cmd.Wait(); err != nil {
		t.Fatalf("second server: %v\n%s", err, second.stderr.String())
	}

	entries, _ := os.ReadDir(tmp)
	for _, e := range entries {
		// rod's leakless guard caches its helper binary here once per version, shared by
		// every server; it is not a server's temp dir.
		if strings.HasPrefix(e.Name(), "leakless-") {
			continue
		}
		t.Errorf("left in TMPDIR: %s", e.Name())
	}
	if _, err := os.Lstat(browserTmp); !os.IsNotExist(err) {
		t.Errorf("the killed browser's own TMPDIR %s is still there", browserTmp)
	}
	for _, p := range liveProcs() {
		if p.pgrp == browserPID || strings.Contains(p.cmdline, tmp) {
			t.Errorf("process %d (group %d) of the killed server's browser still runs: %.120s", p.pid, p.pgrp, p.cmdline)
		}
	}
	if !strings.Contains(second.stderr.String(), "removed temp directories of servers that are gone") {
		t.Errorf("the second server did not say it swept:\n%s", second.stderr.String())
	}
}

// lockedBuf is a child's stderr, read by the test while the child writes.
type lockedBuf struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuf) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuf) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

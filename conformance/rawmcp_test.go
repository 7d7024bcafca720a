package conformance

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// rawMCP speaks JSON-RPC to the shipped binary without a client library, so
// a test sees the exact bytes and every message: responses, notifications
// and the server's own requests (answered by onRequest).
type rawMCP struct {
	t    *testing.T
	in   chan json.RawMessage // every message the server sent, in order
	post func(msg []byte)     // sends one message (HTTP: and feeds in with the answer)
	// onRequest answers a server request (roots/list); nil answers an error.
	onRequest func(method string) any
	notes     []string // methods of the notifications seen so far
	nextID    int
	stderr    *lockedWriter
}

type rawMsg struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Result json.RawMessage `json:"result"`
	Error  json.RawMessage `json:"error"`
}

// startRawStdio runs `ghostlight serve` over stdio with env added.
func startRawStdio(t *testing.T, env []string, args ...string) *rawMCP {
	t.Helper()
	cmd := exec.Command(serverBinary(t), append([]string{"serve"}, args...)...)
	cmd.Env = append(os.Environ(), env...)
	stderr := &lockedWriter{w: &bytes.Buffer{}}
	cmd.Stderr = stderr
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	c := &rawMCP{t: t, in: make(chan json.RawMessage, 1024), stderr: stderr}
	go func() {
		sc := bufio.NewScanner(stdout)
		sc.Buffer(make([]byte, 1<<20), 16<<20)
		for sc.Scan() {
			c.in <- json.RawMessage(bytes.Clone(sc.Bytes()))
		}
		close(c.in)
	}()
	c.post = func(msg []byte) {
		if _, err := stdin.Write(append(msg, '\n')); err != nil {
			t.Errorf("stdin: %v", err)
		}
	}
	t.Cleanup(func() { stdin.Close(); cmd.Wait() })
	return c
}

// startRawHTTP runs `ghostlight serve --http` and posts each message in one
// session; the messages of each answer (JSON or an event stream) are fed to
// in. The server's GET stream is not opened.
func startRawHTTP(t *testing.T, env []string, args ...string) *rawMCP {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	const token = "raw-test-token"
	cmd := exec.Command(serverBinary(t), append([]string{"serve", "--http", addr, "--token", token}, args...)...)
	cmd.Env = append(os.Environ(), env...)
	stderr := &lockedWriter{w: &bytes.Buffer{}}
	cmd.Stderr = stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Signal(os.Interrupt); cmd.Wait() })
	c := &rawMCP{t: t, in: make(chan json.RawMessage, 1024), stderr: stderr}
	session := ""
	c.post = func(msg []byte) {
		for try := 0; ; try++ {
			req, _ := http.NewRequest(http.MethodPost, "http://"+addr+"/mcp", bytes.NewReader(msg))
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Accept", "application/json, text/event-stream")
			req.Header.Set("Authorization", "Bearer "+token)
			if session != "" {
				req.Header.Set("Mcp-Session-Id", session)
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				if try == 100 {
					t.Fatalf("post: %v", err)
				}
				time.Sleep(100 * time.Millisecond) // the server is still starting
				continue
			}
			if id := resp.Header.Get("Mcp-Session-Id"); id != "" {
				session = id
			}
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
				for _, line := range strings.Split(string(body), "\n") {
					if d, ok := strings.CutPrefix(line, "data: "); ok {
						c.in <- json.RawMessage(d)
					}
				}
			} else if len(bytes.TrimSpace(body)) > 0 {
				c.in <- json.RawMessage(bytes.TrimSpace(body))
			}
			return
		}
	}
	return c
}

func (c *rawMCP) send(v any) {
	b, err := json.Marshal(v)
	if err != nil {
		c.t.Fatal(err)
	}
	c.post(b)
}

// next returns the next message, answering server requests and noting
// notifications on the way.
func (c *rawMCP) next() rawMsg {
	c.t.Helper()
	select {
	case raw, ok := <-c.in:
		if !ok {
			c.t.Fatalf("the server closed its output\n%s", c.stderr.String())
		}
		var m rawMsg
		if err := json.Unmarshal(raw, &m); err != nil {
			c.t.Fatalf("not JSON-RPC: %s", raw)
		}
		switch {
		case m.Method != "" && len(m.ID) > 0:
			answer := map[string]any{"jsonrpc": "2.0", "id": m.ID}
			if c.onRequest != nil {
				answer["result"] = c.onRequest(m.Method)
			} else {
				answer["error"] = map[string]any{"code": -32601, "message": "not supported"}
			}
			c.send(answer)
		case m.Method != "":
			c.notes = append(c.notes, m.Method)
		}
		return m
	case <-time.After(60 * time.Second):
		c.t.Fatalf("no message from the server\n%s", c.stderr.String())
	}
	return rawMsg{}
}

// request sends a request and returns its result (failing on an error).
func (c *rawMCP) request(method string, params any) json.RawMessage {
	c.t.Helper()
	c.nextID++
	id := fmt.Sprint(c.nextID)
	msg := map[string]any{"jsonrpc": "2.0", "id": c.nextID, "method": method}
	if params != nil {
		msg["params"] = params
	}
	c.send(msg)
	for {
		m := c.next()
		if m.Method == "" && string(m.ID) == id {
			if len(m.Error) > 0 {
				c.t.Fatalf("%s: %s", method, m.Error)
			}
			return m.Result
		}
	}
}

// waitNote reads until a notification with method has been seen n times.
func (c *rawMCP) waitNote(method string, n int) {
	c.t.Helper()
	for c.count(method) < n {
		c.next()
	}
}

func (c *rawMCP) count(method string) int {
	n := 0
	for _, m := range c.notes {
		if m == method {
			n++
		}
	}
	return n
}

// initialize runs the handshake with the client capabilities given.
func (c *rawMCP) initialize(caps map[string]any) json.RawMessage {
	c.t.Helper()
	res := c.request("initialize", map[string]any{"protocolVersion": "2025-06-18", "capabilities": caps, "clientInfo": map[string]any{"name": "raw", "version": "1"}})
	c.send(map[string]any{"jsonrpc": "2.0", "method": "notifications/initialized"})
	return res
}

// rawTools is tools/list: each tool's bytes by name, in order.
func (c *rawMCP) tools() ([]string, map[string]json.RawMessage) {
	c.t.Helper()
	var res struct {
		Tools []json.RawMessage `json:"tools"`
	}
	if err := json.Unmarshal(c.request("tools/list", nil), &res); err != nil {
		c.t.Fatal(err)
	}
	var names []string
	byName := map[string]json.RawMessage{}
	for _, raw := range res.Tools {
		var n struct{ Name string }
		json.Unmarshal(raw, &n)
		names = append(names, n.Name)
		byName[n.Name] = raw
	}
	return names, byName
}

// rawResult is a tools/call result's parts a test reads.
type rawResult struct {
	IsError           bool `json:"isError"`
	StructuredContent struct {
		Status  string `json:"status"`
		Summary string `json:"summary"`
		Facts   struct {
			Reason     string `json:"reason"`
			Capability string `json:"capability"`
			Limit      string `json:"limit"`
		} `json:"facts"`
	} `json:"structuredContent"`
	Raw json.RawMessage `json:"-"`
}

func (c *rawMCP) call(tool string, args any) rawResult {
	c.t.Helper()
	raw := c.request("tools/call", map[string]any{"name": tool, "arguments": args})
	var r rawResult
	if err := json.Unmarshal(raw, &r); err != nil {
		c.t.Fatalf("%s: %s", tool, raw)
	}
	r.Raw = raw
	return r
}

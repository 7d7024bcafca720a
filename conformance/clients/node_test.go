package clients

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// The Node clients live in node/, installed there by .ci/clients (npm ci),
// with their own Node 22 (npm package "node"): the system's may be older.
func nodeDir() string { return filepath.Join(repoRoot(), "conformance", "clients", "node") }

// nodeEnv is the environment Node clients run in: node/'s own Node first.
func nodeEnv(t *testing.T, tmp string) []string {
	t.Helper()
	bin := filepath.Join(nodeDir(), "node_modules", ".bin")
	if _, err := os.Stat(filepath.Join(bin, "node")); err != nil {
		t.Fatalf("the Node clients are not installed (%v): run `bash .ci/clients`, which installs Node and runs npm ci in conformance/clients/node", err)
	}
	return append(os.Environ(), "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"), "TMPDIR="+tmp)
}

// runNode runs a Node program of node/ and returns its stdout.
func runNode(t *testing.T, tmp string, name string, args ...string) []byte {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, filepath.Join(nodeDir(), "node_modules", ".bin", name), args...)
	cmd.Dir = nodeDir()
	cmd.Env = nodeEnv(t, tmp)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s %s: %v\nstdout:\n%s\nstderr:\n%s", name, strings.Join(args, " "), err, out.String(), tail(errb.String()))
	}
	return out.Bytes()
}

func tail(s string) string {
	if len(s) > 4000 {
		return "…" + s[len(s)-4000:]
	}
	return s
}

// TestNodeClients: the Vercel AI SDK (@ai-sdk/mcp 2.x, which opens with
// server/discover and MCP 2026-07-28) and the TypeScript SDK (initialize,
// 2025-11-25) over stdio and streamable HTTP: list, navigate, inspect by
// the returned tab.
func TestNodeClients(t *testing.T) {
	site := newSite(t)
	srv := startHTTP(t)
	want := map[string]string{"ai-sdk": modern, "ts-sdk": legacy}
	for _, client := range []string{"ai-sdk", "ts-sdk"} {
		for _, transport := range []string{stdio, httpMode} {
			t.Run(client+"/"+transport, func(t *testing.T) {
				args := []string{"clients.mjs", client, transport}
				if transport == stdio {
					args = append(args, binary)
				} else {
					args = append(args, srv.url, srv.token)
				}
				out := runNode(t, shortTempDir(t), "node", append(args, site.URL+"/")...)
				var got struct {
					Version, Navigate, Inspect, Tab string
					Tools                           int
					Items                           []string
				}
				if err := json.Unmarshal(lastLine(out), &got); err != nil {
					t.Fatalf("client output %q: %v", out, err)
				}
				if got.Version != want[client] || got.Tools < 20 || got.Navigate != "succeeded" || got.Inspect != "succeeded" ||
					!strings.HasPrefix(got.Tab, "tab_") || !contains(got.Items, "Press me") {
					t.Fatalf("%s over %s: %+v (want protocol %s)", client, transport, got, want[client])
				}
			})
		}
	}
}

// TestInspectorCLI: the official MCP Inspector CLI against the binary over
// both transports: tools/list, then a flow that navigates to the local page
// and inspects it (each CLI run is one session, so both steps go in one call).
func TestInspectorCLI(t *testing.T) {
	site := newSite(t)
	srv := startHTTP(t)
	flow := `steps=[{"id":"open","tool":"browser_navigate","arguments":{"url":"` + site.URL + `/"}},{"id":"look","tool":"browser_inspect"}]`
	for _, transport := range []string{stdio, httpMode} {
		t.Run(transport, func(t *testing.T) {
			target := []string{"--cli", binary, "serve"}
			if transport == httpMode {
				target = []string{"--cli", srv.url, "--transport", "http", "--header", "Authorization: Bearer " + srv.token}
			}
			tmp := shortTempDir(t)
			var list struct {
				Tools []struct{ Name string }
			}
			out := runNode(t, tmp, "mcp-inspector", append(target, "--method", "tools/list")...)
			if err := json.Unmarshal(out, &list); err != nil || len(list.Tools) < 20 {
				t.Fatalf("tools/list: %v\n%s", err, tail(string(out)))
			}
			out = runNode(t, tmp, "mcp-inspector", append(target, "--method", "tools/call", "--tool-name", "browser_flow", "--tool-arg", flow)...)
			var res struct {
				IsError           bool `json:"isError"`
				StructuredContent struct {
					Status string          `json:"status"`
					Facts  json.RawMessage `json:"facts"`
				} `json:"structuredContent"`
			}
			if err := json.Unmarshal(out, &res); err != nil {
				t.Fatalf("tools/call: %v\n%s", err, tail(string(out)))
			}
			if res.IsError || res.StructuredContent.Status != "succeeded" || !strings.Contains(string(res.StructuredContent.Facts), "Press me") {
				t.Fatalf("navigate and inspect through the Inspector: %s", tail(string(out)))
			}
		})
	}
}

func lastLine(b []byte) []byte {
	lines := bytes.Split(bytes.TrimSpace(b), []byte("\n"))
	return lines[len(lines)-1]
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

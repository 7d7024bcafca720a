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

// TestNodeClients: the Vercel AI SDK (@ai-sdk/mcp 2.x with its defaults,
// which opens with server/discover and MCP 2026-07-28), the TypeScript SDK
// 1.x (initialize, 2025-11-25) and the TypeScript SDK 2.x client pinned to
// 2026-07-28, over stdio and streamable HTTP: list, navigate, inspect without
// naming the tab, click naming only the target. Over HTTP at 2026-07-28 each
// request stands alone: the tab is found as the bearer token's only tab.
// Every client receives the server instructions.
func TestNodeClients(t *testing.T) {
	site := newSite(t)
	srv := startHTTP(t)
	want := map[string]string{"ai-sdk": modern, "ts-sdk": legacy, "ts-sdk-2026": modern}
	for _, client := range []string{"ai-sdk", "ts-sdk", "ts-sdk-2026"} {
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
					Version, Navigate, Inspect, Tab, Click string
					InspectSummary, ClickSummary           string
					Tools, Instructions                    int
					Items                                  []string
				}
				if err := json.Unmarshal(lastLine(out), &got); err != nil {
					t.Fatalf("client output %q: %v", out, err)
				}
				if got.Version != want[client] || got.Tools < 20 || got.Navigate != "succeeded" || got.Inspect != "succeeded" ||
					!strings.HasPrefix(got.Tab, "tab_") || !contains(got.Items, "Press me") || got.Click != "succeeded" {
					t.Fatalf("%s over %s: %+v (want protocol %s)", client, transport, got, want[client])
				}
				if got.Instructions == 0 {
					t.Errorf("%s over %s: no server instructions", client, transport)
				}
				t.Logf("%s over %s (%s): navigate, inspect without tab, click by target: %s / %s / %s; instructions %d B",
					client, transport, got.Version, got.Navigate, got.Inspect, got.Click, got.Instructions)
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
	// The first navigation launches Chromium: on a loaded machine 8 s (the default) was not enough.
	flowTimeout := `timeout_ms=30000`
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
			out = runNode(t, tmp, "mcp-inspector", append(target, "--method", "tools/call", "--tool-name", "browser_flow", "--tool-arg", flow, flowTimeout)...)
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

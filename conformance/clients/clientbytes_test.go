//go:build clientbytes

package clients

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// This file is `make client-bytes` (build tag clientbytes): each agent
// client, driven against the stand-in model on loopback with one MCP
// server over stdio, and the bytes of that server's tool definitions in
// the client's first model request (each definition as the client sent
// it, compact JSON, summed). The clients and the peer servers are pinned
// in agents/ (installed by .ci/client-bytes); Claude Code is node/'s.

// agentsDir holds the table's clients and peer servers.
func agentsDir() string { return filepath.Join(repoRoot(), "conformance", "clients", "agents") }

// mcpTarget is one MCP server measured, started over stdio.
type mcpTarget struct {
	name    string // the key clients register it under
	label   string // for the table
	command string
	args    []string
}

func measuredServers(t *testing.T, tmp string) []mcpTarget {
	bin := filepath.Join(agentsDir(), "node_modules", ".bin")
	return []mcpTarget{
		{"ghostlight", "Ghostlight", binary, []string{"serve", "--audit-path", filepath.Join(tmp, "audit.jsonl")}},
		{"playwright", "playwright-mcp " + pkgVersion(t, "@playwright/mcp"), filepath.Join(bin, "playwright-mcp"), []string{"--headless"}},
		{"devtools", "chrome-devtools-mcp " + pkgVersion(t, "chrome-devtools-mcp"), filepath.Join(bin, "chrome-devtools-mcp"), []string{"--headless", "--isolated"}},
	}
}

// pkgVersion is the installed version of an agents/ package.
func pkgVersion(t *testing.T, pkg string) string {
	t.Helper()
	var p struct{ Version string }
	readJSON(t, filepath.Join(agentsDir(), "node_modules", pkg, "package.json"), &p)
	return p.Version
}

// serverTools is what the server itself lists: names and the figure
// TestDeclarationBytes measures (name, description, inputSchema, compact).
func serverTools(t *testing.T, s mcpTarget, env []string) (map[string]bool, int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.Command(s.command, s.args...)
	cmd.Env = env
	cs, err := newClient(nil).Connect(ctx, &mcp.CommandTransport{Command: cmd}, &mcp.ClientSessionOptions{ProtocolVersion: legacy})
	if err != nil {
		t.Fatalf("%s: %v", s.name, err)
	}
	defer cs.Close()
	list, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatalf("%s: tools/list: %v", s.name, err)
	}
	names, size := map[string]bool{}, 0
	for _, tool := range list.Tools {
		names[tool.Name] = true
		b, _ := json.Marshal(map[string]any{"name": tool.Name, "description": tool.Description, "inputSchema": tool.InputSchema})
		size += len(b)
	}
	return names, size
}

// agent is one client the table measures.
type agent struct {
	label string
	// run drives the client once with s as its only MCP server and
	// returns the requests the stand-in model received.
	run func(t *testing.T, s mcpTarget, model *standin, tmp string) []modelRequest
	// defs are the tool definitions of one model request, by the name the
	// model sees.
	defs func(t *testing.T, r modelRequest) map[string]json.RawMessage
}

func agents(t *testing.T) []agent {
	return []agent{
		{"Claude Code " + claudeVersion(t) + ", tool search off", runClaudeFor, anthropicDefs},
		{"Gemini CLI " + pkgVersion(t, "@google/gemini-cli"), runGemini, geminiDefs},
		{"Codex " + pkgVersion(t, "@openai/codex") + " exec", runCodex, responsesDefs},
		{"AI SDK " + pkgVersion(t, "ai") + " → @ai-sdk/openai " + pkgVersion(t, "@ai-sdk/openai"), runAISDK, responsesDefs},
	}
}

// TestClientBytes prints the per-client table of docs/clients.md.
func TestClientBytes(t *testing.T) {
	tmp := shortTempDir(t)
	env := agentEnv(t, tmp)
	servers := measuredServers(t, tmp)
	type cell struct {
		bytes, tools int
		instructions bool // the server's instructions are in the request
	}
	table := map[string]map[string]cell{}
	listed := map[string]int{}
	listedTools := map[string]int{}
	for _, s := range servers {
		names, size := serverTools(t, s, env)
		listed[s.name], listedTools[s.name] = size, len(names)
		for _, a := range agents(t) {
			model := newStandin(t)
			first := firstWithTools(t, a.label, a.run(t, s, model, shortTempDir(t)))
			got, n := 0, 0
			var seen []string
			for name, raw := range a.defs(t, first) {
				tool := serverToolName(name, s.name, names)
				if tool == "" {
					continue
				}
				var c bytes.Buffer
				if err := json.Compact(&c, raw); err != nil {
					t.Fatal(err)
				}
				got += c.Len()
				n++
				seen = append(seen, tool)
			}
			if n != len(names) {
				sort.Strings(seen)
				t.Errorf("%s with %s: the model was sent %d of the server's %d tools (%v); the request's tools: %v; the client's stderr:\n%s",
					a.label, s.label, n, len(names), seen, toolNames(a.defs(t, first)), tail(lastStderr))
			}
			if table[a.label] == nil {
				table[a.label] = map[string]cell{}
			}
			want, _ := json.Marshal(surface.TextServerInstructions)
			table[a.label][s.name] = cell{got, n, bytes.Contains(first.Raw, bytes.Trim(want, `"`))}
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "\n| client |")
	for _, s := range servers {
		fmt.Fprintf(&b, " %s |", s.label)
	}
	fmt.Fprintf(&b, " Ghostlight's instructions sent |\n| --- |%s --- |\n", strings.Repeat(" ---: |", len(servers)))
	fmt.Fprintf(&b, "| the server's tools/list (name, description, inputSchema) |")
	for _, s := range servers {
		fmt.Fprintf(&b, " %s B (%d tools) |", thousands(listed[s.name]), listedTools[s.name])
	}
	b.WriteString(" |\n")
	for _, a := range agents(t) {
		fmt.Fprintf(&b, "| %s |", a.label)
		for _, s := range servers {
			fmt.Fprintf(&b, " %s B |", thousands(table[a.label][s.name].bytes))
		}
		fmt.Fprintf(&b, " %v |\n", table[a.label]["ghostlight"].instructions)
	}
	t.Log(b.String())
}

// serverToolName is the server's tool a client-side name stands for, or "":
// clients send a server's tools as the bare name or with a prefix naming the
// server (mcp__ghostlight__browser_click, mcp_ghostlight_browser_click).
func serverToolName(name, server string, names map[string]bool) string {
	if names[name] {
		return name
	}
	for _, sep := range []string{"__", "_"} {
		prefix := "mcp" + sep + server + sep
		if strings.HasPrefix(name, prefix) && names[strings.TrimPrefix(name, prefix)] {
			return strings.TrimPrefix(name, prefix)
		}
	}
	return ""
}

func firstWithTools(t *testing.T, label string, reqs []modelRequest) modelRequest {
	t.Helper()
	for _, r := range reqs {
		if len(r.Body["tools"]) > 2 {
			return r
		}
	}
	var paths []string
	for _, r := range reqs {
		paths = append(paths, r.Path)
	}
	t.Fatalf("%s: no model request offered tools (%v)", label, paths)
	return modelRequest{}
}

// agentEnv is node/'s Node first on PATH, a scratch HOME, and none of the
// caller's model or client settings.
func agentEnv(t *testing.T, tmp string) []string {
	home := filepath.Join(tmp, "home")
	if err := os.MkdirAll(home, 0o755); err != nil {
		t.Fatal(err)
	}
	var env []string
	for _, kv := range nodeEnv(t, tmp) {
		k, _, _ := strings.Cut(kv, "=")
		if strings.HasPrefix(k, "ANTHROPIC_") || strings.HasPrefix(k, "OPENAI_") || strings.HasPrefix(k, "GEMINI_") ||
			strings.HasPrefix(k, "GOOGLE_") || strings.HasPrefix(k, "CLAUDE") || strings.HasPrefix(k, "CODEX_") || k == "HOME" {
			continue
		}
		env = append(env, kv)
	}
	return append(env, "HOME="+home)
}

// runAgent runs a client binary to its end.
func runAgent(t *testing.T, dir string, env []string, name string, args ...string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir, cmd.Env = dir, env
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s %s: %v\nstdout:\n%s\nstderr:\n%s", filepath.Base(name), strings.Join(args, " "), err, tail(out.String()), tail(errb.String()))
	}
	lastStderr = errb.String()
	return out.String()
}

func toolNames(defs map[string]json.RawMessage) []string {
	var names []string
	for n := range defs {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// lastStderr is what the last runAgent's client wrote to stderr.
var lastStderr string

func claudeVersion(t *testing.T) string {
	var p struct{ Version string }
	readJSON(t, filepath.Join(nodeDir(), "node_modules", "@anthropic-ai", "claude-code", "package.json"), &p)
	return p.Version
}

func runClaudeFor(t *testing.T, s mcpTarget, model *standin, tmp string) []modelRequest {
	return runClaudeWith(t, claudeRun{transport: stdio}, model, tmp, s.name,
		map[string]any{"type": "stdio", "command": s.command, "args": s.args, "env": map[string]string{"TMPDIR": tmp}})
}

func anthropicDefs(t *testing.T, r modelRequest) map[string]json.RawMessage {
	out := map[string]json.RawMessage{}
	for name, d := range claudeToolDefs(t, r) {
		out[name] = d.Raw
	}
	return out
}

// runGemini: `gemini -p` with an API key and the stand-in as its base URL,
// the server trusted (no confirmations) in a trusted folder.
func runGemini(t *testing.T, s mcpTarget, model *standin, tmp string) []modelRequest {
	env := agentEnv(t, tmp)
	home := filepath.Join(tmp, "home")
	work := filepath.Join(tmp, "work")
	for _, d := range []string{filepath.Join(home, ".gemini"), work} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	settings := map[string]any{
		"mcpServers": map[string]any{s.name: map[string]any{"command": s.command, "args": s.args, "timeout": 60000, "trust": true}},
		"security":   map[string]any{"auth": map[string]any{"selectedType": "gemini-api-key"}},
		"privacy":    map[string]any{"usageStatisticsEnabled": false},
		"telemetry":  map[string]any{"enabled": false},
		"general":    map[string]any{"disableAutoUpdate": true, "disableUpdateNag": true},
	}
	writeJSONFile(t, filepath.Join(home, ".gemini", "settings.json"), settings)
	writeJSONFile(t, filepath.Join(home, ".gemini", "trustedFolders.json"), map[string]string{work: "TRUST_FOLDER"})
	env = append(env, "GEMINI_API_KEY=standin-not-a-key", "GOOGLE_GEMINI_BASE_URL="+model.URL, "TMPDIR="+tmp)
	runAgent(t, work, env, filepath.Join(agentsDir(), "node_modules", ".bin", "gemini"),
		"-p", "Open http://127.0.0.1/ in the browser.", "-m", "gemini-2.5-flash", "--output-format", "json")
	return model.requests()
}

func geminiDefs(t *testing.T, r modelRequest) map[string]json.RawMessage {
	var tools []struct {
		FunctionDeclarations []json.RawMessage `json:"functionDeclarations"`
	}
	if err := json.Unmarshal(r.Body["tools"], &tools); err != nil {
		t.Fatal(err)
	}
	out := map[string]json.RawMessage{}
	for _, group := range tools {
		for _, d := range group.FunctionDeclarations {
			var n struct{ Name string }
			_ = json.Unmarshal(d, &n)
			out[n.Name] = d
		}
	}
	return out
}

// runCodex: `codex exec` with a model provider pointed at the stand-in
// (Responses API) and the server's tools approved, as docs/clients.md says.
func runCodex(t *testing.T, s mcpTarget, model *standin, tmp string) []modelRequest {
	env := agentEnv(t, tmp)
	codexHome := filepath.Join(tmp, "codex")
	work := filepath.Join(tmp, "work")
	for _, d := range []string{codexHome, work} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	args, _ := json.Marshal(s.args)
	cfg := fmt.Sprintf(`model = "gpt-5"
model_provider = "standin"
approval_policy = "never"

[model_providers.standin]
name = "standin"
base_url = %q
env_key = "STANDIN_API_KEY"
wire_api = "responses"

[mcp_servers.%s]
command = %q
args = %s
tool_timeout_sec = 60
# Without required, codex exec starts its turn without a server that has not listed its tools
# yet (chrome-devtools-mcp at load 30); required makes it wait, up to startup_timeout_sec.
required = true
startup_timeout_sec = 120
default_tools_approval_mode = "approve"
`, model.URL+"/v1", s.name, s.command, args)
	if err := os.WriteFile(filepath.Join(codexHome, "config.toml"), []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	env = append(env, "CODEX_HOME="+codexHome, "STANDIN_API_KEY=standin-not-a-key", "TMPDIR="+tmp)
	runAgent(t, work, env, filepath.Join(agentsDir(), "node_modules", ".bin", "codex"),
		"exec", "--skip-git-repo-check", "Open http://127.0.0.1/ in the browser.")
	return model.requests()
}

// responsesDefs are an OpenAI request's function tools (Responses API, or
// Chat Completions' {type, function}). Codex groups an MCP server's tools
// in a namespace tool named mcp__SERVER (its description is the server's
// instructions): its tools count, under mcp__SERVER__NAME.
func responsesDefs(t *testing.T, r modelRequest) map[string]json.RawMessage {
	var tools []json.RawMessage
	if err := json.Unmarshal(r.Body["tools"], &tools); err != nil {
		t.Fatal(err)
	}
	out := map[string]json.RawMessage{}
	var add func(prefix string, tools []json.RawMessage)
	add = func(prefix string, tools []json.RawMessage) {
		for _, d := range tools {
			var n struct {
				Type     string
				Name     string
				Function struct{ Name string }
				Tools    []json.RawMessage
			}
			_ = json.Unmarshal(d, &n)
			if n.Type == "namespace" {
				add(n.Name+"__", n.Tools)
				continue
			}
			if n.Name == "" {
				n.Name = n.Function.Name
			}
			out[prefix+n.Name] = d
		}
	}
	add("", tools)
	return out
}

// runAISDK: generateText with the MCP tools and the OpenAI provider
// (agents/aisdk-openai.mjs).
func runAISDK(t *testing.T, s mcpTarget, model *standin, tmp string) []modelRequest {
	env := append(agentEnv(t, tmp), "TMPDIR="+tmp)
	runAgent(t, agentsDir(), env, filepath.Join(nodeDir(), "node_modules", ".bin", "node"),
		append([]string{"aisdk-openai.mjs", model.URL + "/v1", s.command}, s.args...)...)
	return model.requests()
}

func writeJSONFile(t *testing.T, path string, v any) {
	b, _ := json.MarshalIndent(v, "", "  ")
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
}

// thousands writes 26906 as 26,906.
func thousands(n int) string {
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

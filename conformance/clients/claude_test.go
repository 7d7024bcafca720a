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

	"github.com/ghostlight-dev/ghostlight/generated/surface"
)

// claudeRun is one non-interactive Claude Code run (`claude -p`) against the
// stand-in model, with ghostlight as its only MCP server.
type claudeRun struct {
	transport  string // stdio or http
	toolSearch bool   // Claude Code's default; off is ENABLE_TOOL_SEARCH=false
}

// runClaude runs Claude Code once with ghostlight as its MCP server, added
// the way docs/clients.md says (`claude mcp add --scope user ...`, over
// run.transport; HTTP reaches srv) and checked with `claude mcp list`, and
// returns the model requests the stand-in received.
func runClaude(t *testing.T, run claudeRun, srv *server) []modelRequest {
	t.Helper()
	tmp := shortTempDir(t)
	model := newStandin(t)
	add := []string{"mcp", "add", "--scope", "user", "ghostlight", "--", binary, "serve"}
	if run.transport == httpMode {
		add = []string{"mcp", "add", "--scope", "user", "--transport", "http", "ghostlight", srv.url, "--header", "Authorization: Bearer " + srv.token}
	}
	claude(t, run, model, tmp, add...)
	if list := claude(t, run, model, tmp, "mcp", "list"); !strings.Contains(list, "ghostlight: ") || !strings.Contains(list, "Connected") {
		t.Fatalf("claude mcp list does not show ghostlight connected:\n%s", list)
	}
	return claudePrompt(t, run, model, tmp)
}

// runClaudeWith runs `claude -p` with only mcpServer (an --mcp-config
// entry) registered as name.
func runClaudeWith(t *testing.T, run claudeRun, model *standin, tmp, name string, mcpServer map[string]any) []modelRequest {
	t.Helper()
	cfg, _ := json.Marshal(map[string]any{"mcpServers": map[string]any{name: mcpServer}})
	cfgPath := filepath.Join(tmp, "mcp.json")
	if err := os.WriteFile(cfgPath, cfg, 0o600); err != nil {
		t.Fatal(err)
	}
	return claudePrompt(t, run, model, tmp, "--mcp-config", cfgPath, "--strict-mcp-config")
}

// claudePrompt runs one non-interactive turn (`claude -p`) against the
// stand-in model and returns what it received.
func claudePrompt(t *testing.T, run claudeRun, model *standin, tmp string, args ...string) []modelRequest {
	t.Helper()
	claude(t, run, model, tmp, append([]string{"-p", "Open http://127.0.0.1/ in the browser.",
		"--model", "claude-sonnet-4-5", "--output-format", "json"}, args...)...)
	reqs := model.requests()
	if len(reqs) == 0 {
		t.Fatal("claude -p sent the stand-in no request")
	}
	return reqs
}

// claude runs Claude Code with args and returns its stdout. It is installed
// in node/ by .ci/clients (npm package @anthropic-ai/claude-code, pinned);
// its home is tmp/home, its model the stand-in (a fake key), and it reaches
// nothing but the stand-in and the MCP server.
func claude(t *testing.T, run claudeRun, model *standin, tmp string, args ...string) string {
	t.Helper()
	home := filepath.Join(tmp, "home")
	if err := os.MkdirAll(home, 0o755); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, filepath.Join(nodeDir(), "node_modules", ".bin", "claude"), args...)
	cmd.Dir = tmp
	// Tool search on is Claude Code's default: the variable is left unset.
	var env []string
	for _, kv := range nodeEnv(t, tmp) {
		if !strings.HasPrefix(kv, "ENABLE_TOOL_SEARCH=") && !strings.HasPrefix(kv, "ANTHROPIC_") && !strings.HasPrefix(kv, "CLAUDE") && !strings.HasPrefix(kv, "HOME=") {
			env = append(env, kv)
		}
	}
	if !run.toolSearch {
		env = append(env, "ENABLE_TOOL_SEARCH=false")
	}
	cmd.Env = append(env,
		"HOME="+home, "CLAUDE_CONFIG_DIR="+filepath.Join(home, ".claude"),
		"ANTHROPIC_BASE_URL="+model.URL, "ANTHROPIC_API_KEY=sk-ant-standin-not-a-key",
		"MCP_TIMEOUT=60000",
		"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1", "DISABLE_AUTOUPDATER=1", "DISABLE_TELEMETRY=1", "DISABLE_ERROR_REPORTING=1")
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		t.Fatalf("claude %s: %v\nstdout:\n%s\nstderr:\n%s", strings.Join(args, " "), err, tail(out.String()), tail(errb.String()))
	}
	return out.String()
}

// firstTurn is the first request Claude Code sent: it must be the agent
// loop's first turn, a Messages request offering tools.
func firstTurn(t *testing.T, reqs []modelRequest) modelRequest {
	t.Helper()
	r := reqs[0]
	var tools []json.RawMessage
	if !strings.HasSuffix(r.Path, "/messages") || json.Unmarshal(r.Body["tools"], &tools) != nil || len(tools) == 0 {
		t.Fatalf("the first request (%s, of %d) is not a turn offering tools: %s", r.Path, len(reqs), trimmed(r.Raw))
	}
	return r
}

func trimmed(b []byte) string {
	if len(b) > 2000 {
		return string(b[:2000]) + "…"
	}
	return string(b)
}

// TestClaudeCodeInstructions: Claude Code 2.1 (npm, pinned in node/) run as
// `claude -p` against a stand-in model on loopback, with ghostlight as its
// MCP server over stdio and streamable HTTP, with tool search on (Claude
// Code's default: the model starts with tool names only) and off (every
// definition up front). The first request of the agent loop must carry the
// server instructions (surface.TextServerInstructions, what spec/ says) and
// every Ghostlight tool's name; with tool search off, every definition too.
func TestClaudeCodeInstructions(t *testing.T) {
	srv := startHTTP(t)
	for _, transport := range []string{stdio, httpMode} {
		for _, toolSearch := range []bool{true, false} {
			mode := "full"
			if toolSearch {
				mode = "tool-search"
			}
			t.Run(transport+"/"+mode, func(t *testing.T) {
				first := firstTurn(t, runClaude(t, claudeRun{transport: transport, toolSearch: toolSearch}, srv))
				raw := string(first.Raw)
				// The instructions are JSON-escaped inside the request body.
				want, _ := json.Marshal(surface.TextServerInstructions)
				if !strings.Contains(raw, strings.Trim(string(want), `"`)) {
					t.Errorf("the first request does not carry the server instructions (%d B); its system prompt: %s",
						len(surface.TextServerInstructions), trimmed(first.Body["system"]))
				}
				defs := claudeToolDefs(t, first)
				var missing []string
				deferred := 0
				for _, tool := range surface.Catalog {
					name := "mcp__ghostlight__" + tool.Name
					d, listed := defs[name]
					switch {
					case listed && d.Deferred:
						deferred++
					case listed:
						var sent, ours struct{ Description string }
						_ = json.Unmarshal(d.Raw, &sent)
						_ = json.Unmarshal(tool.Definition, &ours)
						if sent.Description != ours.Description {
							t.Errorf("%s: the model reads the description %q, the server declares %q", tool.Name, sent.Description, ours.Description)
						}
					case strings.Contains(raw, name):
						deferred++ // named in the prompt, to be loaded by tool search
					default:
						missing = append(missing, tool.Name)
					}
				}
				if len(missing) > 0 {
					t.Errorf("the first request does not name %d tools: %v", len(missing), missing)
				}
				if !toolSearch && deferred > 0 {
					t.Errorf("tool search off, yet %d tools were deferred", deferred)
				}
				if toolSearch && deferred == 0 {
					t.Errorf("tool search on, yet every tool definition was sent up front")
				}
				t.Logf("%s, %s: first request %d B, %d of %d tools deferred, instructions %d B present",
					transport, mode, len(first.Raw), deferred, len(surface.Catalog), len(surface.TextServerInstructions))
			})
		}
	}
}

// claudeDef is one tool of an Anthropic Messages request.
type claudeDef struct {
	Raw      json.RawMessage
	Deferred bool
}

// claudeToolDefs indexes a Messages request's tools by name.
func claudeToolDefs(t *testing.T, r modelRequest) map[string]claudeDef {
	t.Helper()
	var tools []json.RawMessage
	if err := json.Unmarshal(r.Body["tools"], &tools); err != nil {
		t.Fatal(err)
	}
	defs := map[string]claudeDef{}
	for _, raw := range tools {
		var d struct {
			Name  string `json:"name"`
			Defer bool   `json:"defer_loading"`
		}
		_ = json.Unmarshal(raw, &d)
		defs[d.Name] = claudeDef{Raw: raw, Deferred: d.Defer}
	}
	return defs
}

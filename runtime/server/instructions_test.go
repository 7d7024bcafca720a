package server

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
	"github.com/ghostlight-dev/ghostlight/runtime/mcpedge"
)

// modernMeta is the _meta a 2026-07-28 request carries.
const modernMeta = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"t","version":"1"}}`

// postModern sends one 2026-07-28 request (no session) with the bearer token
// and returns the JSON-RPC result (SSE or JSON answer).
func postModern(t *testing.T, url, token, body string) json.RawMessage {
	t.Helper()
	req, _ := http.NewRequestWithContext(context.Background(), http.MethodPost, url, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Mcp-Protocol-Version", "2026-07-28")
	var head struct {
		Method string
		Params struct {
			Name      string
			Arguments struct{ Tab, Target any }
		}
	}
	_ = json.Unmarshal([]byte(body), &head)
	req.Header.Set("Mcp-Method", head.Method)
	if head.Params.Name != "" {
		req.Header.Set("Mcp-Name", head.Params.Name)
	}
	// What a 2026-07-28 client mirrors of the tools' x-mcp-header fields.
	for name, v := range map[string]any{"Tab": head.Params.Arguments.Tab, "Target": head.Params.Arguments.Target} {
		if s, ok := v.(string); ok {
			req.Header.Set("Mcp-Param-"+name, s)
		}
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var b strings.Builder
	buf := make([]byte, 32<<10)
	for {
		n, err := resp.Body.Read(buf)
		b.Write(buf[:n])
		if err != nil {
			break
		}
	}
	text := b.String()
	if i := strings.Index(text, "data: "); i >= 0 { // an SSE answer: its data line
		text = strings.TrimSpace(strings.SplitN(text[i+len("data: "):], "\n", 2)[0])
	}
	var msg struct {
		Result json.RawMessage `json:"result"`
		Error  json.RawMessage `json:"error"`
	}
	if err := json.Unmarshal([]byte(text), &msg); err != nil || msg.Result == nil {
		t.Fatalf("%d %s: %v", resp.StatusCode, text, err)
	}
	return msg.Result
}

// TestServerInstructions: the instructions from spec/instructions.cue stay
// within server_instructions_bytes and arrive in initialize (2025 clients)
// and in server/discover (2026-07-28 clients), unchanged.
func TestServerInstructions(t *testing.T) {
	n := len(surface.TextServerInstructions)
	t.Logf("server_instructions_bytes: %d of %d", n, surface.ServerInstructionsBytesMax)
	if n == 0 || n > surface.ServerInstructionsBytesMax {
		t.Fatalf("the instructions are %d bytes, bound %d", n, surface.ServerInstructionsBytesMax)
	}
	for _, must := range []string{"browser_inspect", "browser_find", "browser_flow", "envelope", "policy_explain", "tab"} {
		if !strings.Contains(surface.TextServerInstructions, must) {
			t.Errorf("the instructions do not mention %s", must)
		}
	}
	s, err := New(Config{Version: "test"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close(context.Background()) })
	srv := httptest.NewServer(s.Edge().HTTPHandler(mcpedge.HTTPOptions{BearerToken: "tok"}))
	t.Cleanup(srv.Close)
	url := srv.URL + mcpedge.MCPPath
	var got struct {
		Instructions string `json:"instructions"`
	}
	for _, body := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`,
		`{"jsonrpc":"2.0","id":2,"method":"server/discover","params":{` + modernMeta + `}}`,
	} {
		got.Instructions = ""
		if err := json.Unmarshal(postModernOrLegacy(t, url, body), &got); err != nil {
			t.Fatal(err)
		}
		if got.Instructions != surface.TextServerInstructions {
			t.Errorf("%s answered instructions %q", body[:60], got.Instructions)
		}
	}
}

// postModernOrLegacy posts body with the token (the protocol header only for
// server/discover, whose era it is).
func postModernOrLegacy(t *testing.T, url, body string) json.RawMessage {
	t.Helper()
	if strings.Contains(body, "server/discover") {
		return postModern(t, url, "tok", body)
	}
	req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Authorization", "Bearer tok")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var msg struct {
		Result json.RawMessage `json:"result"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&msg); err != nil {
		t.Fatal(err)
	}
	return msg.Result
}

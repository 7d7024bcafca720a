package mcpedge

import (
	"bytes"
	"encoding/json"
	"net/http/httptest"
	"testing"

	"github.com/mark3labs/mcp-go/client"
)

// toolsFrom splits a raw tools/list result into each tool's bytes.
func toolsFrom(t *testing.T, result json.RawMessage) map[string]json.RawMessage {
	t.Helper()
	var list struct {
		Tools      []json.RawMessage `json:"tools"`
		NextCursor string            `json:"nextCursor"`
	}
	if err := json.Unmarshal(result, &list); err != nil {
		t.Fatalf("tools/list result: %v", err)
	}
	if list.NextCursor != "" {
		t.Fatalf("tools/list paginated: %q", list.NextCursor)
	}
	out := make(map[string]json.RawMessage, len(list.Tools))
	for _, raw := range list.Tools {
		var named struct {
			Name string `json:"name"`
		}
		if err := json.Unmarshal(raw, &named); err != nil {
			t.Fatalf("tool: %v", err)
		}
		out[named.Name] = raw
	}
	return out
}

func assertToolBytes(t *testing.T, result json.RawMessage) {
	t.Helper()
	got := toolsFrom(t, result)
	want := testTools()
	if len(got) != len(want) {
		t.Fatalf("tools/list returned %d tools, want %d", len(got), len(want))
	}
	for _, tool := range want {
		if !bytes.Equal(got[tool.Name], tool.Definition) {
			t.Errorf("tool %s:\n got %s\nwant %s", tool.Name, got[tool.Name], tool.Definition)
		}
	}
}

func TestToolsListBytesStdio(t *testing.T) {
	for _, tc := range []struct {
		name string
		opts []client.ClientOption
	}{
		{"modern", nil},
		//lint:ignore SA1019 the legacy initialize handshake is exactly what this case exercises
		{"legacy", []client.ClientOption{client.WithLegacyProtocolOnly()}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := newEdge(t, newFake(nil))
			c, _ := stdioClient(t, e, tc.opts...)
			assertToolBytes(t, rawRequest(t, c, 100, "tools/list", nil))
			// The high-level client still decodes every tool.
			res, err := c.ListTools(testCtx(t), mcpListTools())
			if err != nil || len(res.Tools) != 3 {
				t.Fatalf("ListTools: %v, %d tools", err, len(res.Tools))
			}
		})
	}
}

func TestToolsListBytesHTTP(t *testing.T) {
	e := newEdge(t, newFake(nil))
	srv := httptest.NewServer(e.HTTPHandler(HTTPOptions{}))
	defer srv.Close()
	c := httpClient(t, srv)
	defer c.Close()
	assertToolBytes(t, rawRequest(t, c, 100, "tools/list", nil))
}

// The native path: a definition mcp-go reproduces needs no rewrite, one it
// cannot reproduce gets one.
func TestRewritesOnlyWhereMcpGoDiffers(t *testing.T) {
	_, rewrites, err := buildTools(testTools())
	if err != nil {
		t.Fatal(err)
	}
	if len(rewrites) != 1 || rewrites[0].tool != "browser_navigate" {
		var names []string
		for _, r := range rewrites {
			names = append(names, r.tool)
		}
		t.Fatalf("rewrites for %v, want only browser_navigate", names)
	}
	e := newEdge(t, &fakeDispatcher{tools: testTools()[:1]})
	if e.rewriter != nil {
		t.Fatal("a canonical tool set installed a rewriter")
	}
}

func TestNewRejects(t *testing.T) {
	tool := func(name, def string) []Tool { return []Tool{{Name: name, Definition: json.RawMessage(def)}} }
	for _, tc := range []struct {
		name  string
		d     Dispatcher
		opts  Options
		kind  ErrorKind
		tools []Tool
	}{
		{name: "nil dispatcher", kind: KindInvalidOptions},
		{name: "no name", opts: Options{Version: "1"}, kind: KindInvalidOptions},
		{name: "no limits", opts: Options{Name: "g", Version: "1"}, tools: tool("a", `{"inputSchema":{},"name":"a"}`), kind: KindInvalidOptions},
		{name: "one limit missing", opts: Options{Name: "g", Version: "1", Limits: Limits{SessionCalls: 1, RequestBytes: 1, SessionIdle: 1, EchoChars: 1}}, tools: tool("a", `{"inputSchema":{},"name":"a"}`), kind: KindInvalidOptions},
		{name: "not JSON", tools: tool("a", `{"name":"a",`), kind: KindInvalidDefinition},
		{name: "not compact", tools: tool("a", `{"name": "a","inputSchema":{}}`), kind: KindInvalidDefinition},
		{name: "not an object", tools: tool("a", `["a"]`), kind: KindInvalidDefinition},
		{name: "name mismatch", tools: tool("a", `{"inputSchema":{},"name":"b"}`), kind: KindInvalidDefinition},
		{name: "empty name", tools: tool("", `{"inputSchema":{},"name":""}`), kind: KindInvalidDefinition},
		{name: "no input schema", tools: tool("a", `{"name":"a"}`), kind: KindInvalidDefinition},
		{name: "array output schema", tools: tool("a", `{"inputSchema":{},"name":"a","outputSchema":[]}`), kind: KindInvalidDefinition},
		{name: "unknown key", tools: tool("a", `{"execution":{},"inputSchema":{},"name":"a"}`), kind: KindInvalidDefinition},
		{name: "invalid UTF-8", tools: tool("a", "{\"description\":\"\xff\",\"inputSchema\":{},\"name\":\"a\"}"), kind: KindInvalidDefinition},
		{name: "duplicate", tools: append(tool("a", `{"inputSchema":{},"name":"a"}`), tool("a", `{"inputSchema":{},"name":"a"}`)...), kind: KindDuplicateTool},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := tc.d
			opts := tc.opts
			if tc.name != "nil dispatcher" {
				if d == nil {
					d = &fakeDispatcher{tools: tc.tools}
				}
				if opts.Name == "" && tc.name != "no name" {
					opts = Options{Name: "g", Version: "1"}
				}
			}
			_, err := New(d, opts)
			ee, ok := err.(*Error)
			if !ok || ee.Kind != tc.kind {
				t.Fatalf("New error = %v, want kind %v", err, tc.kind)
			}
		})
	}
}

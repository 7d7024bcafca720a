package mcpedge

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
)

var testImage = &Image{MIME: "image/png", Data: []byte("\x89PNG\r\n\x1a\nGHOSTLIGHT-PIXELS-0123456789")}

const wantText = "Clicked the \"Save\" button on example.com.\nNext: Take a screenshot.\nNext: Read the page.\n\n" + testTextJSON

// testTextJSON is testEnvelope as the text block carries it: without the
// summary and next steps said above it (textblock.go).
const testTextJSON = `{"invocation":"inv-1","status":"succeeded","effect":"applied","readiness":"complete","repeat_safe":false,"facts":{"tab":"t1"}}`

type rawResult struct {
	Content           []json.RawMessage `json:"content"`
	StructuredContent json.RawMessage   `json:"structuredContent"`
	IsError           bool              `json:"isError"`
}

func TestCallRendersReplyStdio(t *testing.T) {
	f := newFake(func(_ context.Context, c Call) Reply {
		r := okReply()
		r.Image = testImage
		return r
	})
	e := newEdge(t, f)
	c, _ := stdioClient(t, e)

	args := `{"url":"https://example.com","n":12345678901234567890}`
	raw := rawRequest(t, c, 7, "tools/call", json.RawMessage(`{"name":"browser_navigate","arguments":`+args+`}`))

	call := f.lastCall(t)
	if call.Session != StdioSession || call.Tool != "browser_navigate" || string(call.Arguments) != args || call.Progress == nil {
		t.Fatalf("dispatcher got %+v (arguments %s)", call, call.Arguments)
	}

	var res rawResult
	if err := json.Unmarshal(raw, &res); err != nil {
		t.Fatal(err)
	}
	if string(res.StructuredContent) != testEnvelope {
		t.Errorf("structuredContent\n got %s\nwant %s", res.StructuredContent, testEnvelope)
	}
	if res.IsError {
		t.Error("isError set on a success")
	}
	if len(res.Content) != 2 {
		t.Fatalf("%d content blocks, want 2", len(res.Content))
	}
	var text mcp.TextContent
	if err := json.Unmarshal(res.Content[0], &text); err != nil || text.Type != "text" {
		t.Fatalf("first block %s: %v", res.Content[0], err)
	}
	if text.Text != wantText {
		t.Errorf("text block\n got %q\nwant %q", text.Text, wantText)
	}
	var img mcp.ImageContent
	if err := json.Unmarshal(res.Content[1], &img); err != nil || img.Type != "image" {
		t.Fatalf("second block %s: %v", res.Content[1], err)
	}
	b64 := base64.StdEncoding.EncodeToString(testImage.Data)
	if img.MIMEType != "image/png" || img.Data != b64 {
		t.Errorf("image block %s/%s, want image/png %s", img.MIMEType, img.Data, b64)
	}
	// The image travels once, in its own block.
	if n := bytes.Count(raw, []byte(b64)); n != 1 {
		t.Errorf("image base64 appears %d times in the result", n)
	}
	for _, where := range []string{text.Text, string(res.StructuredContent)} {
		if strings.Contains(where, "GHOSTLIGHT-PIXELS") || strings.Contains(where, b64) {
			t.Errorf("image bytes leaked into %q", where)
		}
	}
}

func TestCallWithoutArgumentsGetsEmptyObject(t *testing.T) {
	f := newFake(nil)
	e := newEdge(t, f)
	c, _ := stdioClient(t, e)
	if _, err := c.CallTool(testCtx(t), mcp.CallToolRequest{Params: mcp.CallToolParams{Name: "browser_min"}}); err != nil {
		t.Fatal(err)
	}
	if got := string(f.lastCall(t).Arguments); got != "{}" {
		t.Fatalf("arguments %q, want {}", got)
	}
	raw := rawRequest(t, c, 9, "tools/call", json.RawMessage(`{"name":"browser_min","arguments":null}`))
	if got := string(f.lastCall(t).Arguments); got != "{}" || len(raw) == 0 {
		t.Fatalf("arguments %q for null, want {}", got)
	}
}

func inProcess(t *testing.T, e *Edge) *client.Client {
	t.Helper()
	c, err := client.NewInProcessClient(e.srv)
	if err != nil {
		t.Fatal(err)
	}
	initClient(t, c)
	return c
}

func TestCallIsErrorInProcess(t *testing.T) {
	f := newFake(func(context.Context, Call) Reply {
		r := okReply()
		r.IsError = true
		r.NextSteps = nil
		return r
	})
	e := newEdge(t, f)
	c := inProcess(t, e)
	defer c.Close()
	res, err := c.CallTool(testCtx(t), mcp.CallToolRequest{Params: mcp.CallToolParams{
		Name: "browser_tabs", Arguments: map[string]any{"action": "list"},
	}})
	if err != nil {
		t.Fatal(err)
	}
	if !res.IsError {
		t.Error("isError not set")
	}
	if len(res.Content) != 1 {
		t.Fatalf("%d blocks, want 1 (no image)", len(res.Content))
	}
	want := "Clicked the \"Save\" button on example.com.\n\n" + testTextJSON
	if tc, ok := res.Content[0].(mcp.TextContent); !ok || tc.Text != want {
		t.Errorf("text block %#v, want %q", res.Content[0], want)
	}
	if string(res.RawStructuredContent) != testEnvelope {
		t.Errorf("structuredContent %s", res.RawStructuredContent)
	}
	call := f.lastCall(t)
	if call.Session == "" || string(call.Arguments) != `{"action":"list"}` {
		t.Errorf("call %+v arguments %s", call, call.Arguments)
	}
}

// A reply the edge cannot render becomes a JSON-RPC error, never a hang.
func TestCallInvalidReply(t *testing.T) {
	for _, tc := range []struct {
		name  string
		reply Reply
	}{
		{"not JSON", Reply{Envelope: json.RawMessage(`{"status":`)}},
		{"not an object", Reply{Envelope: json.RawMessage(`["x"]`)}},
		{"missing", Reply{}},
		{"image without data", Reply{Envelope: json.RawMessage(`{}`), Image: &Image{MIME: "image/png"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := newEdge(t, newFake(func(context.Context, Call) Reply { return tc.reply }))
			c := inProcess(t, e)
			defer c.Close()
			_, err := c.CallTool(testCtx(t), mcp.CallToolRequest{Params: mcp.CallToolParams{Name: "browser_min"}})
			if err == nil {
				t.Fatal("no error")
			}
		})
	}
}

func TestCallRendersReplyHTTP(t *testing.T) {
	f := newFake(func(context.Context, Call) Reply {
		r := okReply()
		r.Image = testImage
		return r
	})
	e := newEdge(t, f)
	srv := httptest.NewServer(e.HTTPHandler(HTTPOptions{}))
	defer srv.Close()
	c := httpClient(t, srv)
	defer c.Close()
	res, err := c.CallTool(testCtx(t), mcp.CallToolRequest{Params: mcp.CallToolParams{
		Name: "browser_navigate", Arguments: map[string]any{"url": "https://example.com"},
	}})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Content) != 2 {
		t.Fatalf("%d blocks", len(res.Content))
	}
	if tc, ok := res.Content[0].(mcp.TextContent); !ok || tc.Text != wantText {
		t.Errorf("text block %#v", res.Content[0])
	}
	if ic, ok := res.Content[1].(mcp.ImageContent); !ok || ic.Data != base64.StdEncoding.EncodeToString(testImage.Data) {
		t.Errorf("image block %#v", res.Content[1])
	}
	if string(res.RawStructuredContent) != testEnvelope {
		t.Errorf("structuredContent %s", res.RawStructuredContent)
	}
	if s := f.lastCall(t).Session; !strings.HasPrefix(s, "mcp-session-") {
		t.Errorf("HTTP session id %q", s)
	}
}

// A dispatcher that panics answers that call with an error; the edge keeps
// serving.
func TestDispatcherPanicBecomesError(t *testing.T) {
	e := newEdge(t, newFake(func(_ context.Context, c Call) Reply {
		if c.Tool == "browser_tabs" {
			panic("boom")
		}
		return okReply()
	}))
	c := inProcess(t, e)
	defer c.Close()
	if _, err := c.CallTool(testCtx(t), mcp.CallToolRequest{Params: mcp.CallToolParams{Name: "browser_tabs"}}); err == nil {
		t.Fatal("a panicking call succeeded")
	}
	callMin(t, c)
}

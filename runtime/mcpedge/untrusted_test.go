package mcpedge

import (
	"context"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
)

// TestTextBlockSaysUntrustedOnce: a reply that quotes page strings gets the
// spec's fixed note once, right after the summary; one that quotes none gets
// nothing, and structuredContent is the envelope either way.
func TestTextBlockSaysUntrustedOnce(t *testing.T) {
	quoted := true
	f := newFake(func(context.Context, Call) Reply {
		r := okReply()
		r.UntrustedQuotes = quoted
		return r
	})
	e := newEdge(t, f)
	c := inProcess(t, e)
	defer c.Close()
	call := func() *mcp.CallToolResult {
		t.Helper()
		res, err := c.CallTool(testCtx(t), mcp.CallToolRequest{Params: mcp.CallToolParams{Name: "browser_tabs", Arguments: map[string]any{"action": "list"}}})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	res := call()
	text := res.Content[0].(mcp.TextContent).Text
	want := "Clicked the \"Save\" button on example.com.\n" + surface.TextUntrustedNote + "\nNext: Take a screenshot.\nNext: Read the page.\n\n" + testTextJSON
	if text != want {
		t.Fatalf("text block\n got %q\nwant %q", text, want)
	}
	if n := strings.Count(text, surface.TextUntrustedNote); n != 1 {
		t.Fatalf("note said %d times", n)
	}
	// The envelope itself carries the flag; the edge adds nothing to it.
	var got, env any
	b, _ := json.Marshal(res.StructuredContent)
	_ = json.Unmarshal(b, &got)
	_ = json.Unmarshal([]byte(testEnvelope), &env)
	if !reflect.DeepEqual(got, env) {
		t.Fatalf("structuredContent changed: %s", b)
	}

	quoted = false
	res = call()
	if text := res.Content[0].(mcp.TextContent).Text; text != wantText {
		t.Fatalf("text block without page quotes\n got %q\nwant %q", text, wantText)
	}
}

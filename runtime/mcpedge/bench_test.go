package mcpedge

import (
	"context"
	"encoding/json"
	"io"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

var benchCall = json.RawMessage(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"browser_navigate","arguments":{"url":"https://example.com"}}}`)

// trivial answers every call with the same reply.
type trivial struct{ reply Reply }

func (d trivial) Tools() []Tool                    { return testTools() }
func (d trivial) Call(context.Context, Call) Reply { return d.reply }
func (d trivial) Busy(_ Call, limit int) Reply     { return busyReply(limit) }
func (d trivial) SessionClosed(string)             {}
func newTrivialEdge(b *testing.B, r Reply) *Edge   { return newEdge(b, trivial{r}) }
func marshalResponse(b *testing.B, m mcp.JSONRPCMessage) {
	if _, err := json.Marshal(m); err != nil {
		b.Fatal(err)
	}
}

// The edge's own work: compacting the envelope and laying out the blocks.
func BenchmarkRender(b *testing.B) {
	r := okReply()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := render(r); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkRenderImage100KB(b *testing.B) {
	r := okReply()
	r.Image = &Image{MIME: "image/png", Data: make([]byte, 100<<10)}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := render(r); err != nil {
			b.Fatal(err)
		}
	}
}

// One tools/call through mcp-go and the edge, marshalled as a transport
// would, without I/O.
func BenchmarkCallHandleMessage(b *testing.B) {
	e := newTrivialEdge(b, okReply())
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		marshalResponse(b, e.srv.HandleMessage(ctx, benchCall))
	}
}

// The same call served by a bare mcp-go handler returning an equivalent
// prebuilt result: the difference to BenchmarkCallHandleMessage is the
// edge's overhead.
func BenchmarkCallHandleMessageBareMcpGo(b *testing.B) {
	res, err := render(okReply())
	if err != nil {
		b.Fatal(err)
	}
	s := server.NewMCPServer("bare", "1", server.WithToolCapabilities(false), server.WithRecovery())
	tools, _, err := buildTools(testTools())
	if err != nil {
		b.Fatal(err)
	}
	for _, t := range tools {
		s.AddTool(t, func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) { return res, nil })
	}
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		marshalResponse(b, s.HandleMessage(ctx, benchCall))
	}
}

// A full round trip: mcp-go client → pipe → ServeStdio → pipe → client.
func BenchmarkCallStdioRoundTrip(b *testing.B) {
	e := newTrivialEdge(b, okReply())
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	done := make(chan struct{})
	go func() {
		_ = e.ServeStdio(context.Background(), inR, outW)
		_ = outW.Close()
		close(done)
	}()
	defer func() { _ = inW.Close(); <-done }()
	c := client.NewClient(transport.NewIO(outR, inW, io.NopCloser(strings.NewReader(""))))
	ctx := context.Background()
	if err := c.Start(ctx); err != nil {
		b.Fatal(err)
	}
	if _, err := c.Initialize(ctx, mcp.InitializeRequest{}); err != nil {
		b.Fatal(err)
	}
	req := mcp.CallToolRequest{Params: mcp.CallToolParams{Name: "browser_navigate", Arguments: map[string]any{"url": "https://example.com"}}}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := c.CallTool(ctx, req); err != nil {
			b.Fatal(err)
		}
	}
}

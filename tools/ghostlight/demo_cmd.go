package main

// ghostlight demo: a newcomer's first run. It starts this same binary as
// the server exactly as an MCP client would (a stdio subprocess, serving
// its built-in demo page), drives a short real session on that page, prints
// each summary and saves the screenshot. Any step that does not succeed is
// an error (exit 1).

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
)

func demoCmd(args []string, w io.Writer) error {
	fs := flag.NewFlagSet("demo", flag.ContinueOnError)
	out := fs.String("out", "demo-out", "directory the screenshot is saved in")
	if err := fs.Parse(args); err != nil {
		return err
	}
	self, err := os.Executable()
	if err != nil {
		return err
	}
	return runDemo(self, *out, w)
}

func demoAddr() (string, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	defer ln.Close()
	return ln.Addr().String(), nil
}

func runDemo(serverBin, outDir string, w io.Writer) error {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	addr, err := demoAddr()
	if err != nil {
		return err
	}
	c, err := client.NewStdioMCPClientWithOptions(serverBin, os.Environ(), []string{"serve", "--demo-addr", addr},
		transport.WithCommandStderrWriter(os.Stderr))
	if err != nil {
		return err
	}
	defer c.Close()
	init := mcp.InitializeRequest{}
	init.Params.ProtocolVersion = mcp.LATEST_PROTOCOL_VERSION
	init.Params.ClientInfo = mcp.Implementation{Name: "ghostlight demo", Version: "1"}
	info, err := c.Initialize(ctx, init)
	if err != nil {
		return fmt.Errorf("initialize: %w", err)
	}
	tools, err := c.ListTools(ctx, mcp.ListToolsRequest{})
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "Connected to %s %s over stdio: %d tools.\n\n", info.ServerInfo.Name, info.ServerInfo.Version, len(tools.Tools))

	url := "http://" + addr + "/"
	if _, err := call(ctx, w, c, "browser_navigate", map[string]any{"url": url}); err != nil {
		return err
	}
	if _, err := call(ctx, w, c, "browser_inspect", map[string]any{"max_items": 10}); err != nil {
		return err
	}
	if _, err := call(ctx, w, c, "browser_find", map[string]any{"text": "Place order"}); err != nil {
		return err
	}
	if _, err := call(ctx, w, c, "browser_read", map[string]any{"max_chars": 600}); err != nil {
		return err
	}
	res, err := call(ctx, w, c, "browser_screenshot", map[string]any{})
	if err != nil {
		return err
	}
	for _, content := range res.Content {
		if img, ok := content.(mcp.ImageContent); ok {
			data, err := base64.StdEncoding.DecodeString(img.Data)
			if err != nil {
				return err
			}
			if err := os.MkdirAll(outDir, 0o755); err != nil {
				return err
			}
			p := filepath.Join(outDir, "screenshot.png")
			if err := os.WriteFile(p, data, 0o644); err != nil {
				return err
			}
			fmt.Fprintf(w, "  saved %s (%d bytes, %s)\n", p, len(data), img.MIMEType)
			return nil
		}
	}
	return errors.New("browser_screenshot returned no image block")
}

// call runs one tool and prints its summary; a result that did not succeed
// is an error.
func call(ctx context.Context, w io.Writer, c *client.Client, tool string, args map[string]any) (*mcp.CallToolResult, error) {
	req := mcp.CallToolRequest{}
	req.Params.Name, req.Params.Arguments = tool, args
	start := time.Now()
	res, err := c.CallTool(ctx, req)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", tool, err)
	}
	var env struct {
		Status    string   `json:"status"`
		Summary   string   `json:"summary"`
		NextSteps []string `json:"next_steps"`
	}
	b, _ := json.Marshal(res.StructuredContent)
	if err := json.Unmarshal(b, &env); err != nil {
		return nil, fmt.Errorf("%s: structured content: %w", tool, err)
	}
	fmt.Fprintf(w, "%-19s %-9s %4d ms  %s\n", tool, env.Status, time.Since(start).Milliseconds(), env.Summary)
	if env.Status != "succeeded" {
		return nil, fmt.Errorf("%s did not succeed: %s", tool, env.Summary)
	}
	return res, nil
}

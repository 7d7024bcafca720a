package main

// A minimal in-process MCP client over the edge's own stdio transport: the
// benchmark's calls cross the same JSON-RPC framing, pipeline and text-block
// rendering a real client's do.

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/ghostlight-dev/ghostlight/runtime/mcpedge"
)

type client struct {
	w    io.Writer
	mu   sync.Mutex
	next int
	wait map[int]chan json.RawMessage
}

// reply is one tools/call answer as a model sees it.
type reply struct {
	Text      string          // the text blocks, joined
	TextBytes int             // what a model reading text pays for
	Structure json.RawMessage // structuredContent (the envelope)
	IsError   bool
	Took      time.Duration
}

func startClient(ctx context.Context, edge *mcpedge.Edge) (*client, error) {
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	go func() { _ = edge.ServeStdio(ctx, inR, outW) }()
	return openClient(inW, outR)
}

// openClient speaks MCP over a server's stdin (w) and stdout (r): Ghostlight
// in process, or a peer server in its own process.
func openClient(w io.Writer, r io.Reader) (*client, error) {
	c := &client{w: w, wait: map[int]chan json.RawMessage{}}
	go c.read(r)
	if _, err := c.request("initialize", map[string]any{"protocolVersion": "2025-06-18", "capabilities": map[string]any{},
		"clientInfo": map[string]any{"name": "bench-live", "version": "1"}}); err != nil {
		return nil, err
	}
	if err := c.send(map[string]any{"jsonrpc": "2.0", "method": "notifications/initialized"}); err != nil {
		return nil, err
	}
	return c, nil
}

func (c *client) send(msg any) error {
	b, err := json.Marshal(msg)
	if err != nil {
		return err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	_, err = c.w.Write(append(b, '\n'))
	return err
}

func (c *client) read(r io.Reader) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for sc.Scan() {
		var m struct {
			ID     *int            `json:"id"`
			Result json.RawMessage `json:"result"`
			Error  json.RawMessage `json:"error"`
		}
		if json.Unmarshal(sc.Bytes(), &m) != nil || m.ID == nil {
			continue // a notification
		}
		body := m.Result
		if m.Error != nil {
			body = json.RawMessage(`{"_error":` + string(m.Error) + `}`)
		}
		c.mu.Lock()
		ch := c.wait[*m.ID]
		delete(c.wait, *m.ID)
		c.mu.Unlock()
		if ch != nil {
			ch <- body
		}
	}
}

func (c *client) request(method string, params any) (json.RawMessage, error) {
	c.mu.Lock()
	c.next++
	id := c.next
	ch := make(chan json.RawMessage, 1)
	c.wait[id] = ch
	c.mu.Unlock()
	if err := c.send(map[string]any{"jsonrpc": "2.0", "id": id, "method": method, "params": params}); err != nil {
		return nil, err
	}
	select {
	case b := <-ch:
		var e struct {
			Error json.RawMessage `json:"_error"`
		}
		if json.Unmarshal(b, &e) == nil && e.Error != nil {
			return nil, fmt.Errorf("%s: %s", method, e.Error)
		}
		return b, nil
	case <-time.After(2 * time.Minute):
		return nil, fmt.Errorf("%s: no answer", method)
	}
}

// call runs one tool and measures it from request to answer.
func (c *client) call(tool string, args string) (reply, error) {
	start := time.Now()
	raw, err := c.request("tools/call", map[string]any{"name": tool, "arguments": json.RawMessage(args)})
	took := time.Since(start)
	if err != nil {
		return reply{}, err
	}
	var res struct {
		Content []struct {
			Type string `json:"type"`
			Text string `json:"text"`
		} `json:"content"`
		Structured json.RawMessage `json:"structuredContent"`
		IsError    bool            `json:"isError"`
	}
	if err := json.Unmarshal(raw, &res); err != nil {
		return reply{}, err
	}
	r := reply{Structure: res.Structured, IsError: res.IsError, Took: took}
	for _, b := range res.Content {
		if b.Type == "text" {
			r.Text += b.Text
			r.TextBytes += len(b.Text)
		}
	}
	return r, nil
}

// must is call that fails unless the envelope says succeeded.
func (c *client) must(tool, args string) (reply, error) {
	r, err := c.call(tool, args)
	if err != nil {
		return r, err
	}
	var env struct {
		Status string `json:"status"`
	}
	_ = json.Unmarshal(r.Structure, &env)
	if env.Status != "succeeded" {
		return r, fmt.Errorf("%s %s: %s", tool, args, r.Text)
	}
	return r, nil
}

// fact reads a JSON Pointer-ish path of facts from a reply's envelope.
func fact(r reply, keys ...any) any {
	var v any
	if json.Unmarshal(r.Structure, &v) != nil {
		return nil
	}
	v = v.(map[string]any)["facts"]
	for _, k := range keys {
		switch k := k.(type) {
		case string:
			m, ok := v.(map[string]any)
			if !ok {
				return nil
			}
			v = m[k]
		case int:
			a, ok := v.([]any)
			if !ok || k >= len(a) {
				return nil
			}
			v = a[k]
		}
	}
	return v
}

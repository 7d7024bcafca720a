package mcpedge

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
)

// callTool is the mcp-go handler of every tool.
func (e *Edge) callTool(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	c := Call{
		Session:   sessionID(ctx),
		Tool:      req.Params.Name,
		Arguments: arguments(req),
	}
	c.TraceParent = traceParent(req.Params.Meta) // traceparent.go
	if statelessCall(ctx) {
		// No session: the workspace of its principal (stateless.go).
		// 2026-07-28 has no server-to-client requests (roots/list,
		// elicitation), so neither is asked.
		var leave func()
		var released bool
		c.Session, released, leave = e.stateless.enter(principalOf(ctx), httpPartOf(ctx))
		defer leave()
		c.Stateless = true
		if released {
			c.ReleasedIdle = e.limits.StatelessIdle
		}
	} else {
		c.Roots, c.Elicit = e.rootsOf(c.Session), e.elicitOf(ctx)
	}
	switch a, _ := ctx.Value(admissionKey{}).(admission); a {
	case admissionHeld: // the stdio dispatcher admitted it
	case admissionRefused:
		return e.reply(c, e.d.Busy(c, e.limits.SessionCalls))
	default: // HTTP and in-process calls are admitted here
		var leave func()
		var ok bool
		if ctx, leave, ok = e.calls.enter(ctx, c.Session); !ok {
			return e.reply(c, e.d.Busy(c, e.limits.SessionCalls))
		}
		defer leave()
	}
	var p *progress
	c.Progress, p = newProgress(ctx, req.Params.Meta, e.log)
	defer p.stop() // progress ends with the call, even one that panics
	reply := e.d.Call(ctx, c)
	// The call read the policy in force: a reload that allows more tools is
	// announced before this answer.
	e.refreshTools(ctx)
	return e.reply(c, reply)
}

// reply renders the dispatcher's answer.
func (e *Edge) reply(c Call, reply Reply) (*mcp.CallToolResult, error) {
	res, err := render(reply)
	if err != nil {
		var ee *Error
		if errors.As(err, &ee) {
			ee.Tool = c.Tool
		}
		e.log.Error("mcpedge: dispatcher reply cannot be rendered", "tool", c.Tool, "err", err)
		return nil, err
	}
	return res, nil
}

// admissionKey marks a call the stdio dispatcher already decided on.
type admissionKey struct{}

type admission int

const (
	admissionHeld    admission = iota + 1 // admitted: the dispatcher holds its slot
	admissionRefused                      // the session is full: answer busy
)

func sessionID(ctx context.Context) string {
	if s := server.ClientSessionFromContext(ctx); s != nil {
		return s.SessionID()
	}
	return ""
}

// arguments returns the arguments as the client sent them. Over stdio and
// HTTP mcp-go keeps the wire bytes; the in-process transport hands a Go value.
// Absent or null arguments become a fresh "{}".
func arguments(req mcp.CallToolRequest) json.RawMessage {
	raw := req.Params.RawArguments
	if len(raw) > 0 {
		if t := bytes.TrimSpace(raw); len(t) == 0 || bytes.Equal(t, []byte("null")) {
			return json.RawMessage("{}")
		}
		return raw
	}
	if req.Params.Arguments == nil {
		return json.RawMessage("{}")
	}
	b, err := json.Marshal(req.Params.Arguments)
	if err != nil || bytes.Equal(b, []byte("null")) {
		return json.RawMessage("{}")
	}
	return b
}

// render lays a Reply out as MCP content: structuredContent is the envelope;
// the first (text) block is the summary, the untrusted-content marker when
// the summary or a next step quotes page strings, one "Next: " line per next
// step, a blank line and the envelope's text projection (textblock.go: the
// envelope without the members said above it, lists of objects as tables),
// for clients that ignore structuredContent; the image, if any, follows as
// its own block and is never copied into either.
func render(r Reply) (*mcp.CallToolResult, error) {
	var env bytes.Buffer
	env.Grow(len(r.Envelope))
	if err := json.Compact(&env, r.Envelope); err != nil {
		return nil, &Error{Kind: KindInvalidReply, Detail: "envelope is not JSON", Err: err}
	}
	if env.Len() == 0 || env.Bytes()[0] != '{' {
		return nil, &Error{Kind: KindInvalidReply, Detail: "envelope is not a JSON object"}
	}
	var proj bytes.Buffer
	proj.Grow(env.Len())
	if err := textJSON(&proj, env.Bytes()); err != nil {
		return nil, &Error{Kind: KindInvalidReply, Detail: "envelope is not JSON", Err: err}
	}
	n := len(r.Summary) + 2 + proj.Len()
	if r.UntrustedQuotes {
		n += len(surface.TextUntrustedNote) + 1
	}
	for _, s := range r.NextSteps {
		n += len(nextPrefix) + len(s) + 1
	}
	var text strings.Builder
	text.Grow(n)
	if r.Summary != "" {
		text.WriteString(r.Summary)
		text.WriteByte('\n')
	}
	// Said once per result, right after the words it is about.
	if r.UntrustedQuotes {
		text.WriteString(surface.TextUntrustedNote)
		text.WriteByte('\n')
	}
	for _, s := range r.NextSteps {
		text.WriteString(nextPrefix)
		text.WriteString(s)
		text.WriteByte('\n')
	}
	text.WriteByte('\n')
	text.Write(proj.Bytes())

	content := make([]mcp.Content, 1, 2)
	content[0] = mcp.NewTextContent(text.String())
	if img := r.Image; img != nil {
		if img.MIME == "" || len(img.Data) == 0 {
			return nil, &Error{Kind: KindInvalidReply, Detail: "image without MIME type or data"}
		}
		content = append(content, mcp.NewImageContent(base64.StdEncoding.EncodeToString(img.Data), img.MIME))
	}
	return &mcp.CallToolResult{
		Content:           content,
		StructuredContent: json.RawMessage(env.Bytes()),
		IsError:           r.IsError,
	}, nil
}

const nextPrefix = "Next: "

package mcpedge

import (
	"context"
	"encoding/json"
	"time"
)

// Tool is one MCP tool definition: the exact JSON bytes the generator wrote
// (compact JSON object with keys annotations, description, inputSchema, name, outputSchema, title).
type Tool struct {
	Name       string
	Definition json.RawMessage
}

// Image is one bounded image the reply carries beside the envelope.
type Image struct {
	MIME string
	Data []byte
}

// Call is one tools/call as the pipeline sees it.
type Call struct {
	Session   string // MCP session id (stdio: one fixed session)
	Tool      string
	Arguments json.RawMessage                               // raw arguments object as received ("{}" when absent)
	Progress  func(progress, total float64, message string) // nil-safe no-op when the client sent no progress token
	// Roots returns the local directories the client shares as MCP roots
	// and whether it shares any, asking it once per session (nil when the
	// edge asks no client: Options.RootsWait is 0).
	Roots func(ctx context.Context) (dirs []string, ok bool)
	// Elicit asks the client to show the person a link (URL-mode
	// elicitation) and whether they accepted, waiting until ctx ends; nil
	// when the client did not declare it (elicit.go).
	Elicit func(ctx context.Context, id, url, message string) (accepted bool, complete func(), ok bool)
	// TraceParent is the W3C traceparent from the request's _meta ("" when
	// absent or invalid), recorded in the call's audit line.
	TraceParent string
	// Stateless: the call has no protocol session (MCP 2026-07-28 over
	// HTTP) and runs in its principal's workspace (stateless.go).
	Stateless bool
	// ReleasedIdle, for a stateless call, is the idle bound after which its
	// principal's previous workspace was released (0: none was).
	ReleasedIdle time.Duration
}

// Reply is the pipeline's answer to a Call.
type Reply struct {
	Envelope  json.RawMessage // the canonical envelope (compact JSON object)
	Summary   string
	NextSteps []string
	IsError   bool
	Image     *Image // at most one bounded image block (screenshot, recording)
	// UntrustedQuotes: Summary or NextSteps quote page strings (the
	// envelope's untrusted_quotes); the text block then says so once.
	UntrustedQuotes bool
}

// Dispatcher is the pipeline as the edge sees it.
type Dispatcher interface {
	Tools() []Tool
	Call(ctx context.Context, c Call) Reply
	// Busy authors the refusal of a call the edge did not run because its
	// session already had limit calls in flight (reason busy).
	Busy(c Call, limit int) Reply
	SessionClosed(session string) // release the session's workspace
}

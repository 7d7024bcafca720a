package mcpedge

import (
	"context"
	"encoding/json"
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
}

// Reply is the pipeline's answer to a Call.
type Reply struct {
	Envelope  json.RawMessage // the canonical envelope (compact JSON object)
	Summary   string
	NextSteps []string
	IsError   bool
	Image     *Image // at most one bounded image block (screenshot, recording)
}

// Dispatcher is the pipeline as the edge sees it.
type Dispatcher interface {
	Tools() []Tool
	Call(ctx context.Context, c Call) Reply
	SessionClosed(session string) // release the session's workspace
}

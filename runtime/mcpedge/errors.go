package mcpedge

import "fmt"

// ErrorKind classifies the edge's errors.
type ErrorKind int

const (
	// KindInvalidOptions: New or HTTPHandler got options it cannot serve.
	KindInvalidOptions ErrorKind = iota + 1
	// KindInvalidDefinition: a tool Definition is not a compact JSON tool object.
	KindInvalidDefinition
	// KindDuplicateTool: two tools share a name.
	KindDuplicateTool
	// KindStdioBusy: another stdio session is being served by this process
	// (mcp-go keeps one process-wide stdio session).
	KindStdioBusy
	// KindNonLoopbackAddress: ListenAndServe was asked to listen beyond loopback.
	KindNonLoopbackAddress
	// KindListen: the listener could not be opened or serving failed.
	KindListen
	// KindInvalidReply: the dispatcher's reply cannot be rendered (envelope
	// missing, not JSON, or not an object).
	KindInvalidReply
)

func (k ErrorKind) String() string {
	switch k {
	case KindInvalidOptions:
		return "invalid_options"
	case KindInvalidDefinition:
		return "invalid_definition"
	case KindDuplicateTool:
		return "duplicate_tool"
	case KindStdioBusy:
		return "stdio_busy"
	case KindNonLoopbackAddress:
		return "non_loopback_address"
	case KindListen:
		return "listen"
	case KindInvalidReply:
		return "invalid_reply"
	}
	return fmt.Sprintf("ErrorKind(%d)", int(k))
}

// Error is every error the edge returns.
type Error struct {
	Kind   ErrorKind
	Tool   string // the tool concerned, when there is one
	Addr   string // the listen address concerned, when there is one
	Detail string
	Err    error // underlying cause, when there is one
}

func (e *Error) Error() string {
	msg := "mcpedge: " + e.Kind.String()
	if e.Tool != "" {
		msg += " tool " + e.Tool
	}
	if e.Addr != "" {
		msg += " addr " + e.Addr
	}
	if e.Detail != "" {
		msg += ": " + e.Detail
	}
	if e.Err != nil {
		msg += ": " + e.Err.Error()
	}
	return msg
}

func (e *Error) Unwrap() error { return e.Err }

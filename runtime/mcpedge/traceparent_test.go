package mcpedge

import (
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
)

func TestTraceParent(t *testing.T) {
	const ok = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"
	for s, want := range map[string]bool{
		ok: true,
		"00-00000000000000000000000000000000-00f067aa0ba902b7-01":  false, // zero trace id
		"00-4bf92f3577b34da6a3ce929d0e0e4736-0000000000000000-01":  false, // zero parent id
		"00-4BF92F3577B34DA6A3CE929D0E0E4736-00f067aa0ba902b7-01":  false, // upper case
		"ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01":  false, // another version
		"00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01x": false,
		"00-4bf92f3577b34da6a3ce929d0e0e4736_00f067aa0ba902b7-01":  false,
		"": false,
	} {
		got := traceParent(&mcp.Meta{AdditionalFields: map[string]any{"traceparent": s}})
		if (got != "") != want || (want && got != s) {
			t.Errorf("%q: %q", s, got)
		}
	}
	if traceParent(nil) != "" || traceParent(&mcp.Meta{AdditionalFields: map[string]any{"traceparent": 7}}) != "" {
		t.Error("absent or not a string")
	}
}

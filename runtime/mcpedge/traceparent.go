package mcpedge

import "github.com/mark3labs/mcp-go/mcp"

// traceParent returns the W3C trace context `traceparent` a client (or a
// gateway in front of it) sent in the request's _meta, so the call's audit
// line joins the caller's span; "" when absent or not a valid version-00
// header (an invalid one is ignored, as W3C Trace Context says, never
// refused).
func traceParent(meta *mcp.Meta) string {
	if meta == nil {
		return ""
	}
	s, _ := meta.AdditionalFields["traceparent"].(string)
	if !validTraceParent(s) {
		return ""
	}
	return s
}

// validTraceParent: "00-<32 hex trace id>-<16 hex parent id>-<2 hex
// flags>", lower-case, ids not all zeros.
func validTraceParent(s string) bool {
	if len(s) != 55 || s[:3] != "00-" || s[35] != '-' || s[52] != '-' {
		return false
	}
	zeroTrace, zeroParent := true, true
	for i := 3; i < 55; i++ {
		c := s[i]
		if i == 35 || i == 52 {
			continue
		}
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return false
		}
		if c != '0' && i < 35 {
			zeroTrace = false
		}
		if c != '0' && i > 35 && i < 52 {
			zeroParent = false
		}
	}
	return !zeroTrace && !zeroParent
}

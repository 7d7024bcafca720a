package language

// Kinds of listener the self-host ceiling keeps out of reach (governance/selfhosts.go).
const (
	SelfDevTools  = "devtools"
	SelfMCP       = "mcp"
	SelfWorkbench = "workbench"
)

// SelfHostRefused says why the ceiling refuses hostport: it is one of the
// listeners that drive the browser or Ghostlight itself.
func SelfHostRefused(kind, hostport string) string {
	switch kind {
	case SelfDevTools:
		return hostport + " is the browser's DevTools endpoint, which drives the browser itself; no page or call may reach it"
	case SelfMCP:
		return hostport + " is Ghostlight's own MCP endpoint; no page or call may reach it"
	case SelfWorkbench:
		return hostport + " is Ghostlight's own workbench; no page or call may reach it"
	}
	return hostport + " is one of Ghostlight's own listeners; no page or call may reach it"
}

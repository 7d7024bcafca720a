package governance

import (
	"fmt"
)

// Where the host boundary is a wall and where it is interception only.
// Ghostlight routes every browser context it creates, and the default
// context of a browser it launches, through its own policy proxy on
// loopback; it cannot route the default context of a browser it attached
// to (browser.isolation: shared there), nor any context of a browser on
// another machine, which cannot reach its loopback.

// InterceptionOnly reports that the boundary cannot be a proxy wall under
// this authority: a browser Ghostlight attaches to (startup connect or
// manual) under shared isolation, or at an endpoint not on this machine
// (remoteEndpoint). A launched browser (startup auto) is always routed.
func (a *Authority) InterceptionOnly(remoteEndpoint bool) bool {
	if a.startup != "connect" && a.startup != "manual" {
		return false
	}
	return remoteEndpoint || a.isolation == IsolationShared
}

// AcceptsInterceptionOnly is browser.accept_interception_only (the
// organization layer alone may set it).
func (a *Authority) AcceptsInterceptionOnly() bool {
	v, _, _ := a.Value("/browser/accept_interception_only")
	b, _ := v.(bool)
	return b
}

// InterceptionOnlyRefusal is why the server must not start: hosts.requests
// "all" promises every request, and interception alone does not hold it,
// unless the organization accepted that. nil otherwise.
func (a *Authority) InterceptionOnlyRefusal(remoteEndpoint bool) error {
	if a.HostRequests() != "all" || !a.InterceptionOnly(remoteEndpoint) || a.AcceptsInterceptionOnly() {
		return nil
	}
	_, layer, _ := a.Value("/hosts/requests")
	return fmt.Errorf("hosts.requests is \"all\" (the %s layer), but %s, so the host boundary there would be request interception only, "+
		"which speculation-rules prefetch, FedCM, payment manifests, workers and keepalive requests can pass; "+
		"launch the browser with Ghostlight (browser.startup: auto) or use browser.isolation: session with a browser on this machine, "+
		"or have the organization layer set browser.accept_interception_only: true",
		layer, a.wallReason(remoteEndpoint))
}

// InterceptionOnlyNote is policy_explain's and `ghostlight explain`'s
// sentence where the boundary is interception only ("" where it is a wall).
func (a *Authority) InterceptionOnlyNote(remoteEndpoint bool) string {
	if !a.InterceptionOnly(remoteEndpoint) {
		return ""
	}
	return "The host boundary here is request interception only (" + a.wallReason(remoteEndpoint) +
		"): speculation-rules prefetch, FedCM, payment manifests, workers and keepalive requests are not checked."
}

func (a *Authority) wallReason(remoteEndpoint bool) string {
	if remoteEndpoint {
		return "the browser's endpoint is on another machine, which cannot reach Ghostlight's policy proxy"
	}
	return "shared isolation in a browser Ghostlight attached to keeps that browser's own proxy settings"
}

// Package netwall is the policy proxy a browser context is routed through:
// a forward proxy bound to 127.0.0.1 that forwards HTTP absolute-URI requests
// and CONNECT tunnels only to what its owner's decision admits. It resolves
// a name once (bounded), checks every address it resolved to, and dials
// exactly an address it checked, so a name that resolves elsewhere a moment
// later (DNS rebinding) never reaches an unchecked address. A refused request
// is answered 403 and reported to the owner.
//
// It knows nothing of governance, MCP or the browser: the owner hands it
// plain decision functions (Rules), asked afresh for every request.
package netwall

// Package browser is the rod executor's core: it starts or attaches to Chromium,
// keeps one Workspace per MCP session with durable "tab_…" handle slots, tracks each
// tab's document generation, readiness and JavaScript dialogs from DevTools events, and
// performs navigation, history, zoom and window operations bounded by the caller's
// context. It knows nothing of MCP or governance: bounds arrive in Config.Limits and every
// failure is an *Error whose Kind the caller maps to a refusal.
//
// Events are read inside the DevTools client's read loop (a tapped websocket), so the
// executor's view of a tab is always at least as new as any response it receives.
// Page-side perception, raw input and captures live in the pagejs, input and capture
// subpackages; they receive a Tab's *rod.Page inside Tab.Do.
package browser

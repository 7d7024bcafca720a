// Package input dispatches raw DevTools input on a rod page: mouse clicks, hovers, wheel ticks and
// drags, key presses and typed text, JavaScript dialog handling, main-world script execution and
// file attachment/drops.
//
// Every function issues the cheapest protocol calls directly (Input.dispatchMouseEvent and friends)
// and never goes through rod's Element helpers, whose scroll and animation-frame waits cost tens of
// milliseconds and ignore cancellation on hidden tabs. Coordinates are CSS pixels in the main frame's
// viewport, resolved by the caller.
//
// Cancellation: every call takes a context, checks it before each protocol message and waits on it
// for each reply, so a call returns as soon as the context ends. (A click's mouse move and non-final
// key-ups are written without awaiting their own reply; the next reply confirms them, since the
// browser handles a session's commands in order.) This matters for JavaScript dialogs:
// a click that opens alert() gets no reply to its mouseReleased until the dialog is handled, so the
// caller watches for the dialog (DialogWatch.CancelOnOpen) and cancels the context.
//
// Hidden tabs: Chromium holds mouse events for a tab that is not visible (another tab of its window is
// in front) and drops them; the call only returns when its context ends. Activate the tab before
// mouse input. Key events and Execute are delivered to hidden tabs (where requestAnimationFrame never
// fires).
//
// Events: Drag and DialogWatch read the page's DevTools events through rod, whose per-page event hub
// lives as long as the context the page was attached under. Attach pages under the browser's
// long-lived context, never a per-call one.
//
// Browser shortcuts are live: Alt+ArrowLeft goes Back, for example, exactly as for a person.
//
// Progress: input functions return an Effect saying how far they got (none, applied, partial,
// unknown), so the caller can report a committed effect honestly after a failure or cancellation.
// Errors are *Error values carrying a Kind.
//
// Goroutine model: the dispatch functions are synchronous and hold no state; they may run on any
// goroutine, but input to one page should come from one goroutine at a time, as from one user.
// DialogWatch owns one goroutine per watched page; its methods are safe for concurrent use.
package input

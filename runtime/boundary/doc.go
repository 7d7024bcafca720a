// Package boundary is the one place that turns a call's governance Authority
// into what the executor enforces (the browser.Boundary every request of a
// governed tab is held to, and the download policy) and words, in the call's
// result, what the boundary stopped and what became of a download.
//
// It exists so the handlers (runtime/tools) only handle: they ask for a
// governed context, and the result's facts and sentences about blocked
// requests and downloads come from here. The executor (runtime/browser)
// knows nothing of governance; governance knows nothing of the executor;
// this package joins them.
//
// Who decides: while a call holds a tab, the call's snapshot (its
// restrictions included); between calls, the configured layers of the last
// call on that tab (its snapshot without restrictions). A tab a page opened
// follows its opener until a call governs it.
package boundary

// Package registry keeps the browsers this Ghostlight installation prepared for a
// person to open: `ghostlight install` writes one registration per installed
// Chromium-family browser under the user's config directory, `ghostlight open NAME`
// starts that browser the registered way, and the executor's Survey finds it running
// on the next call (browser.Prepared).
//
// Layout, under $XDG_CONFIG_HOME/ghostlight (else ~/.config/ghostlight):
//
//	install-id               this installation's id, written once
//	browsers/<name>.json     one registration per browser (0600)
//	profiles/<name>/         the browser's dedicated profile; Chromium writes its
//	                         DevTools port there, in DevToolsActivePort
//	profiles/<name>.log      what the browser printed since it was last opened
//
// A registration is stamped with the installation that wrote it (its ghostlight binary
// and install id). A registration of another installation is never changed by
// recovery; stale details of this installation's own (a moved binary, a dead port, a
// profile path that moved within its own directory) are repaired silently.
package registry

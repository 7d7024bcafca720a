package workbench

// A fresh link for the person. `ghostlight workbench` asks the running
// server for one: it reads the server's link key from a file only the user
// can read (written by serve, tools/ghostlight/relink.go) and posts it to
// Path/link. The key is no workbench credential: it only mints a
// single-use link, which the command prints for the person.

import "net/http"

// LinkKeyHeader carries the link key.
const LinkKeyHeader = "X-Ghostlight-Link-Key"

// SetLinkKey sets the key Path/link asks for ("" turns the route off).
func (w *Workbench) SetLinkKey(key string) {
	w.mu.Lock()
	w.linkKey = key
	w.mu.Unlock()
}

// relink answers POST Path/link: a fresh full link for the holder of the
// link key.
func (w *Workbench) relink(rw http.ResponseWriter, r *http.Request) {
	w.mu.Lock()
	key := w.linkKey
	w.mu.Unlock()
	got := r.Header.Get(LinkKeyHeader)
	if r.Method != http.MethodPost || key == "" || got == "" || !equal(got, key) {
		http.Error(rw, "Forbidden: a fresh link is for `ghostlight workbench` on this machine", http.StatusForbidden)
		return
	}
	l := w.Link()
	if l == "" {
		http.Error(rw, "the workbench is not listening yet", http.StatusServiceUnavailable)
		return
	}
	rw.Header().Set("Content-Type", "text/plain; charset=utf-8")
	_, _ = rw.Write([]byte(l + "\n"))
}

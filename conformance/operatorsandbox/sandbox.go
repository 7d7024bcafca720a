// Package operatorsandbox serves the Operator class profile's pinned
// reference surface on 127.0.0.1, for the conformance suite: a static page
// titled "Reference document" with a button named Submit and a link to
// /docs. It holds no user data, loads nothing but itself (settled on
// arrival), and runs no timer, animation or request of its own, so it never
// changes unless an input changes it: pressing Submit writes "Submitted"
// into the page.
//
// The pages the profile's other examples and Ghostlight's refusals need
// are beside it: /docs (the navigate example's destination; its one image
// is held unanswered until the sandbox closes, so the page is still
// loading when a navigation's time runs out), /login (a password field,
// for the credential handoff) and /plain (a second static document).
package operatorsandbox

import (
	"net"
	"net/http"
	"sync"
)

// What the reference surface pins.
const (
	Title      = "Reference document"
	ButtonName = "Submit"
	DocsPath   = "/docs"
	LoginPath  = "/login"
	PlainPath  = "/plain"
	// Width and Height are the viewport the reference surface is read in:
	// the viewport Ghostlight's launched windows open at.
	Width, Height = 1280, 800
)

const reference = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Reference document</title>
<link rel="icon" href="data:,">
<style>body{margin:0;padding:24px;font:16px sans-serif}</style></head>
<body>
<main>
<h1>Reference document</h1>
<p>A pinned surface with known structure and no user data.</p>
<button type="button" onclick="document.getElementById('status').textContent='Submitted'">Submit</button>
<p><a href="/docs">Docs</a></p>
<p id="status"></p>
</main>
</body></html>`

const docs = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Docs</title><link rel="icon" href="data:,"></head>
<body><h1>Docs</h1><p>The reference surface's documentation.</p>
<img src="/held.png" alt="Diagram" width="200" height="100">
</body></html>`

const login = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Sign in</title><link rel="icon" href="data:,"></head>
<body><h1>Sign in</h1><label>Password <input type="password" name="password"></label></body></html>`

const plain = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Plain</title><link rel="icon" href="data:,"></head>
<body><h1>Plain</h1><p>Another document.</p></body></html>`

// Sandbox is the running reference surface.
type Sandbox struct {
	srv     *http.Server
	ln      net.Listener
	release chan struct{}
	once    sync.Once
	done    chan struct{}
}

// Start serves the sandbox on a free 127.0.0.1 port.
func Start() (*Sandbox, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	s := &Sandbox{ln: ln, release: make(chan struct{}), done: make(chan struct{})}
	mux := http.NewServeMux()
	page := func(body string) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			w.Header().Set("Cache-Control", "no-store")
			_, _ = w.Write([]byte(body))
		}
	}
	mux.HandleFunc("/{$}", page(reference))
	mux.HandleFunc(DocsPath, page(docs))
	mux.HandleFunc(LoginPath, page(login))
	mux.HandleFunc(PlainPath, page(plain))
	// The held image: answered only when the sandbox closes (or the page
	// goes away), so /docs does not finish loading during a scenario.
	mux.HandleFunc("/held.png", func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-s.release:
		case <-r.Context().Done():
		}
	})
	s.srv = &http.Server{Handler: mux}
	go func() {
		defer close(s.done)
		_ = s.srv.Serve(ln)
	}()
	return s, nil
}

// URL is the reference surface's address.
func (s *Sandbox) URL() string { return "http://" + s.ln.Addr().String() + "/" }

// Origin is the sandbox's scheme and host:port.
func (s *Sandbox) Origin() string { return "http://" + s.ln.Addr().String() }

// Port is the port it listens on.
func (s *Sandbox) Port() string {
	_, port, _ := net.SplitHostPort(s.ln.Addr().String())
	return port
}

// Close releases the held image and stops serving.
func (s *Sandbox) Close() {
	s.once.Do(func() {
		close(s.release)
		_ = s.srv.Close()
		<-s.done
	})
}

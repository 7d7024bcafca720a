package netwall

import (
	"bytes"
	"fmt"
	"io"
	"net"
	"net/http"
	"testing"
	"time"
)

// TestClientGoneStopsUpstream: a client that reads 64 KiB of a 64 MiB body
// and closes (a refused download) leaves the server unable to send the
// rest: the proxy drops the upstream connection instead of draining it.
func TestClientGoneStopsUpstream(t *testing.T) {
	const size = 64 << 20
	chunk := bytes.Repeat([]byte("x"), 64<<10)
	sent := make(chan int, 1)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Length", fmt.Sprint(size))
		n := 0
		for n < size {
			m, err := w.Write(chunk)
			n += m
			if err != nil {
				break
			}
		}
		sent <- n
	})}
	go func() { _ = srv.Serve(ln) }()
	t.Cleanup(func() { _ = srv.Close() })
	p := start(t, Config{})
	resp, err := client(p).Get("http://" + ln.Addr().String() + "/big")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.ReadFull(resp.Body, make([]byte, 64<<10)); err != nil {
		t.Fatal(err)
	}
	// Closing a body early closes the client's connection to the proxy.
	_ = resp.Body.Close()
	if n := <-sent; n >= size {
		t.Fatalf("the server sent all %d bytes after the client went away", n)
	} else {
		t.Logf("the server sent %d of %d bytes", n, size)
	}
}

// TestClientGoneDropsPendingRequest: a browser that gives up on a request
// the server has not answered yet (a cancelled navigation) closes its
// connection to the proxy; the server sees its request dropped.
func TestClientGoneDropsPendingRequest(t *testing.T) {
	arrived, dropped := make(chan struct{}), make(chan struct{})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		close(arrived)
		<-r.Context().Done() // the server's own view: the connection closed
		close(dropped)
	})}
	go func() { _ = srv.Serve(ln) }()
	t.Cleanup(func() { _ = srv.Close() })
	p := start(t, Config{})
	c, err := net.Dial("tcp", p.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	fmt.Fprintf(c, "GET http://%s/hang HTTP/1.1\r\nHost: %s\r\n\r\n", ln.Addr(), ln.Addr())
	<-arrived
	_ = c.Close()
	select {
	case <-dropped:
	case <-time.After(10 * time.Second):
		t.Fatal("the server still holds the request 10 s after the client went away")
	}
}

package netwall

import (
	"bufio"
	"context"
	"io"
	"net"
	"net/http"
	"time"
)

// upstream is the connection a client connection's requests were last
// forwarded on, kept for the next request to the same host:port.
type upstream struct {
	hostport string
	c        net.Conn
	br       *bufio.Reader
}

func (u *upstream) close() { _ = u.c.Close() }

// hopHeaders are the headers of one hop, never forwarded.
var hopHeaders = []string{"Proxy-Connection", "Proxy-Authorization", "Proxy-Authenticate", "Keep-Alive", "Te", "Trailer", "Upgrade"}

// forward carries one absolute-URI request and its response. keep says the
// client connection may carry another; next is the upstream kept for it.
func (p *Proxy) forward(c net.Conn, cbr *bufio.Reader, req *http.Request, up *upstream) (keep bool, next *upstream) {
	hostport, asked, ok := target(req)
	if !ok {
		refuseStatus(c, http.StatusBadRequest, WallRefused)
		return false, up
	}
	if up != nil && up.hostport != hostport {
		up.close()
		up = nil
	}
	if up == nil || p.decided(asked, hostport) != nil {
		// Asked afresh for each request: the decision may have narrowed
		// since the upstream connection was made.
		if up != nil {
			up.close()
			up = nil
		}
		ctx, cancel := context.WithTimeout(context.Background(), resolveWait+dialWait)
		addrs, err := p.admit(ctx, hostport, asked)
		var uc net.Conn
		if err == nil {
			uc, err = dial(ctx, addrs)
		}
		cancel()
		if err != nil {
			p.unreachable(asked, err)
			refuseStatus(c, statusFor(err), wallWhy(err))
			return false, nil
		}
		up = &upstream{hostport: hostport, c: uc, br: bufio.NewReader(uc)}
	}
	upgrade := req.Header.Get("Upgrade") != ""
	up2 := req.Header.Get("Upgrade")
	for _, h := range hopHeaders {
		req.Header.Del(h)
	}
	if upgrade {
		req.Header.Set("Upgrade", up2)
		req.Header.Set("Connection", "Upgrade")
	}
	req.RequestURI = ""
	_ = up.c.SetDeadline(time.Now().Add(idleWait))
	if err := req.Write(up.c); err != nil {
		refuseStatus(c, http.StatusBadGateway, netError(err))
		return false, up
	}
	resp, err := awaitResponse(c, cbr, up, req)
	if err != nil {
		refuseStatus(c, http.StatusBadGateway, netError(err))
		return false, up
	}
	if resp.StatusCode == http.StatusSwitchingProtocols {
		_ = resp.Write(c)
		splice(c, nil, up.c, up.br)
		return false, up
	}
	resp.Header.Del("Keep-Alive")
	// The browser may go away mid-body (a refused download, a cancelled
	// fetch). net/http closes an unfinished body by reading the rest of it,
	// so the server would send it all: the upstream connection is dropped
	// before that (cutShort).
	if resp.Body != http.NoBody && resp.ContentLength != 0 {
		resp.Body = &cutShort{ReadCloser: resp.Body, up: up.c}
	}
	werr := resp.Write(c)
	_ = resp.Body.Close()
	if werr != nil || resp.Close || req.Close {
		return false, up
	}
	return true, up
}

// decided re-asks only the host decision for a kept upstream connection (its
// addresses were checked when it was made); nil when admitted.
func (p *Proxy) decided(asked, _ string) error {
	var rules Rules
	if p.cfg.Rules != nil {
		rules = p.cfg.Rules()
	}
	if rules.Host != nil {
		if ok, _ := rules.Host(asked); !ok {
			return errRefused
		}
	}
	return nil
}

// tunnel serves CONNECT: decided and dialled like a request, then bytes
// both ways until either side ends or the tunnel idles past the bound.
func (p *Proxy) tunnel(c net.Conn, br *bufio.Reader, req *http.Request) {
	hostport, asked, ok := target(req)
	if !ok {
		refuseStatus(c, http.StatusBadRequest, WallRefused)
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), resolveWait+dialWait)
	addrs, err := p.admit(ctx, hostport, asked)
	var uc net.Conn
	if err == nil {
		uc, err = dial(ctx, addrs)
	}
	cancel()
	if err != nil {
		p.unreachable(asked, err)
		refuseStatus(c, statusFor(err), wallWhy(err))
		return
	}
	defer uc.Close()
	if _, err := io.WriteString(c, "HTTP/1.1 200 Connection Established\r\n\r\n"); err != nil {
		return
	}
	splice(c, br, uc, nil)
}

// splice copies both ways (what each side's reader already buffered
// first), refreshing the idle deadline on traffic, until one side ends.
func splice(a net.Conn, abr *bufio.Reader, b net.Conn, bbr *bufio.Reader) {
	var ar, brd io.Reader = a, b
	if abr != nil {
		ar = abr
	}
	if bbr != nil {
		brd = bbr
	}
	done := make(chan struct{}, 2)
	go func() { copyIdle(b, ar, a, b); done <- struct{}{} }()
	go func() { copyIdle(a, brd, a, b); done <- struct{}{} }()
	<-done
	_ = a.Close()
	_ = b.Close()
	<-done
}

func copyIdle(dst net.Conn, src io.Reader, a, b net.Conn) {
	buf := make([]byte, 32<<10)
	for {
		n, err := src.Read(buf)
		if n > 0 {
			t := time.Now().Add(idleWait)
			_ = a.SetDeadline(t)
			_ = b.SetDeadline(t)
			if _, werr := dst.Write(buf[:n]); werr != nil {
				return
			}
		}
		if err != nil {
			if cw, ok := dst.(interface{ CloseWrite() error }); ok && err == io.EOF {
				_ = cw.CloseWrite()
				return
			}
			return
		}
	}
}

// cutShort is a response body whose Close, before the body's end, closes
// the upstream connection first, so nothing more of it is read.
type cutShort struct {
	io.ReadCloser
	up  net.Conn
	eof bool
}

func (b *cutShort) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	if err == io.EOF {
		b.eof = true
	}
	return n, err
}

func (b *cutShort) Close() error {
	if !b.eof {
		_ = b.up.Close()
	}
	return b.ReadCloser.Close()
}

// awaitResponse reads the server's answer while watching the browser's
// side: a browser that gives up on the request before the answer (a
// cancelled navigation, a fetch aborted) closes its connection, and the
// server must see the request dropped too, so the upstream connection is
// closed then. The browser sends nothing else on the connection meanwhile
// (no pipelining), so the watch peeks without consuming.
func awaitResponse(c net.Conn, cbr *bufio.Reader, up *upstream, req *http.Request) (*http.Response, error) {
	watched := make(chan struct{})
	go func() {
		defer close(watched)
		if _, err := cbr.Peek(1); err != nil {
			if ne, ok := err.(net.Error); ok && ne.Timeout() {
				return // the answer came (or the connection idled past its bound)
			}
			_ = up.c.Close()
		}
	}()
	resp, err := http.ReadResponse(up.br, req)
	_ = c.SetReadDeadline(time.Unix(1, 0)) // ends the watch
	<-watched
	_ = c.SetDeadline(time.Now().Add(idleWait))
	return resp, err
}

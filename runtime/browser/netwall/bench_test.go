package netwall

import (
	"io"
	"net/http"
	"testing"
)

// BenchmarkRoundTrip is one kept-alive loopback GET, direct and through the
// proxy with a host and an address decision: the proxy's own cost per request.
func BenchmarkRoundTrip(b *testing.B) {
	h := listen(b, "127.0.0.1")
	p, err := Start(Config{Rules: func() Rules { return Rules{Host: denyHost("127.0.0.2"), Addr: denyAddr("127.0.0.2")} }})
	if err != nil {
		b.Fatal(err)
	}
	defer p.Close()
	u := "http://127.0.0.1:" + h.port() + "/x"
	for _, c := range []struct {
		name string
		cl   *http.Client
	}{{"direct", &http.Client{Transport: &http.Transport{}}}, {"proxy", client(p)}} {
		b.Run(c.name, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				resp, err := c.cl.Get(u)
				if err != nil {
					b.Fatal(err)
				}
				_, _ = io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
			}
		})
	}
}

package evidence

import (
	"strconv"
	"strings"
	"testing"

	"github.com/go-rod/rod/lib/proto"
)

func all() Query { return Query{Console: true, Network: true, Limit: 100} }

func TestRingEvictsOldest(t *testing.T) {
	c := New(Limits{Capacity: 3, TextMax: 10})
	for _, s := range []string{"a", "b", "c", "d", "e"} {
		c.Add(Entry{Kind: KindConsole, Level: "log", Text: s})
	}
	r := c.Read(all())
	if r.Evicted != 2 || len(r.Entries) != 3 || r.Entries[0].Text != "c" || r.Entries[2].Text != "e" || r.Truncated {
		t.Fatalf("after 5 adds to a ring of 3: %+v", r)
	}
	if r.Next != r.Entries[2].Seq {
		t.Fatalf("next %d, last %d", r.Next, r.Entries[2].Seq)
	}
	// Reads are non-destructive.
	if again := c.Read(all()); len(again.Entries) != 3 || again.Entries[0].Seq != r.Entries[0].Seq {
		t.Fatalf("second read: %+v", again)
	}
	// Nothing after the last cursor; the cursor stays.
	q := all()
	q.After = r.Next
	if e := c.Read(q); len(e.Entries) != 0 || e.Next != r.Next || e.Truncated {
		t.Fatalf("read past the end: %+v", e)
	}
}

func TestReadFiltersAndPages(t *testing.T) {
	c := New(Limits{Capacity: 100, TextMax: 5})
	c.Add(Entry{Kind: KindConsole, Level: "log", Text: "hello world"})
	c.Add(Entry{Kind: KindConsole, Level: "error", Text: "Boom"})
	c.Add(Entry{Kind: KindException, Level: LevelError, Text: "Error: x"})
	c.Add(Entry{Kind: KindRequest, Level: LevelOK, Text: "GET /a", Status: 200, Host: "a.test"})
	c.Add(Entry{Kind: KindRequest, Level: LevelError, Text: "GET /b", Status: 404, Host: "b.test"})
	c.Add(Entry{Kind: KindRequest, Level: LevelFailed, Text: "GET /c", Host: "a.test"})

	r := c.Read(all())
	if len(r.Entries) != 6 || r.Entries[0].Text != "hello" {
		t.Fatalf("text is bounded: %+v", r.Entries)
	}
	p := all()
	p.Problems = true
	if r := c.Read(p); len(r.Entries) != 4 || r.Entries[0].Level != "error" {
		t.Fatalf("problems: %+v", r.Entries)
	}
	p.Console = false
	if r := c.Read(p); len(r.Entries) != 2 || r.Entries[0].Status != 404 || r.Entries[1].Level != LevelFailed {
		t.Fatalf("network problems: %+v", r.Entries)
	}
	m := all()
	m.Match = "get /"
	if r := c.Read(m); len(r.Entries) != 3 {
		t.Fatalf("match: %+v", r.Entries)
	}
	h := all()
	h.Admit = func(host string) bool { return host == "a.test" }
	if r := c.Read(h); len(r.Entries) != 5 || r.HostFiltered != 1 {
		t.Fatalf("host filter: %+v", r)
	}
	// Pages of two.
	pg := all()
	pg.Limit = 2
	var seen []string
	for i := 0; ; i++ {
		r := c.Read(pg)
		for _, e := range r.Entries {
			seen = append(seen, e.Text)
		}
		if !r.Truncated {
			break
		}
		if len(r.Entries) != 2 || i > 5 {
			t.Fatalf("page %d: %+v", i, r)
		}
		pg.After = r.Next
	}
	if strings.Join(seen, ",") != "hello,Boom,Error,GET /,GET /,GET /" {
		t.Fatalf("paged: %q", seen)
	}
}

func TestRequestKeepsNoQueryOrFragment(t *testing.T) {
	r := newRequest("POST", "https://user:pw@Example.test:8443/a/b%20c?token=secret#frag")
	e := r.entry(false)
	if e.Text != "POST /a/b%20c" || e.Host != "Example.test:8443" || strings.Contains(e.Text+e.Host, "secret") || strings.Contains(e.Text, "frag") || strings.Contains(e.Host, "pw") {
		t.Fatalf("request entry: %+v", e)
	}
	if newRequest("GET", "data:text/plain,hi") != nil {
		t.Fatal("a data: URL is not a request to a host")
	}
	if e := newRequest("GET", "http://x.test").entry(true); e.Text != "GET /" || e.Level != LevelFailed || !e.Problem() {
		t.Fatalf("failed request: %+v", e)
	}
}

func TestExceptionTextDropsStack(t *testing.T) {
	d := &proto.RuntimeExceptionDetails{Text: "Uncaught", Exception: &proto.RuntimeRemoteObject{Description: "Error: boom\n    at f (http://x.test/a.js?k=secret:1:2)"}}
	if s := exceptionText(d); s != "Error: boom" {
		t.Fatalf("exception text %q", s)
	}
}

// Recorded protocol events, in the order Chromium sends them.
func feed(c *Collector, events ...[2]string) {
	for _, e := range events {
		c.record(e[0], []byte(e[1]))
	}
}

func sent(id, url string) [2]string {
	return [2]string{"Network.requestWillBeSent", `{"requestId":"` + id + `","request":{"method":"GET","url":"` + url + `"},"type":"Fetch"}`}
}

func responded(id string, status int) [2]string {
	return [2]string{"Network.responseReceived", `{"requestId":"` + id + `","type":"Fetch","response":{"url":"u","status":` + strconv.Itoa(status) + `}}`}
}

// A response is evidence as soon as it arrives: a page that read a status
// (and never its body) has its entry, before the request finishes.
func TestResponseIsEvidenceBeforeTheBody(t *testing.T) {
	c := New(Limits{Capacity: 10, TextMax: 100})
	feed(c, sent("1", "http://a.test/x.json?k=secret"), responded("1", 404))
	r := c.Read(all())
	if len(r.Entries) != 1 || r.Entries[0].Text != "GET /x.json" || r.Entries[0].Status != 404 || r.Entries[0].Level != LevelError {
		t.Fatalf("after the response: %+v", r.Entries)
	}
	// Its finish adds nothing more.
	feed(c, [2]string{"Network.loadingFinished", `{"requestId":"1"}`})
	if r := c.Read(all()); len(r.Entries) != 1 {
		t.Fatalf("after the finish: %+v", r.Entries)
	}
}

// A body that fails after its response turns the entry failed; a request
// that fails before any response is one failed entry.
func TestFailureAfterAndBeforeTheResponse(t *testing.T) {
	c := New(Limits{Capacity: 10, TextMax: 100})
	feed(c, sent("1", "http://a.test/body"), responded("1", 200),
		[2]string{"Network.loadingFailed", `{"requestId":"1","errorText":"net::ERR_CONNECTION_RESET"}`},
		sent("2", "http://a.test/refused"),
		[2]string{"Network.loadingFailed", `{"requestId":"2","errorText":"net::ERR_CONNECTION_REFUSED"}`})
	r := c.Read(all())
	if len(r.Entries) != 2 || r.Entries[0].Level != LevelFailed || r.Entries[0].Status != 200 || r.Entries[1].Level != LevelFailed || r.Entries[1].Text != "GET /refused" {
		t.Fatalf("%+v", r.Entries)
	}
}

// A redirect hop is its own entry, with the redirect's status.
func TestRedirectHopIsAnEntry(t *testing.T) {
	c := New(Limits{Capacity: 10, TextMax: 100})
	feed(c, sent("1", "http://a.test/old"),
		[2]string{"Network.requestWillBeSent", `{"requestId":"1","request":{"method":"GET","url":"http://a.test/new"},"redirectResponse":{"url":"http://a.test/old","status":301},"type":"Fetch"}`},
		responded("1", 200))
	r := c.Read(all())
	if len(r.Entries) != 2 || r.Entries[0].Text != "GET /old" || r.Entries[0].Status != 301 || r.Entries[1].Text != "GET /new" || r.Entries[1].Status != 200 {
		t.Fatalf("%+v", r.Entries)
	}
}

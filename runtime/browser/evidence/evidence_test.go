package evidence

import (
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

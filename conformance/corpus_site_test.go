package conformance

import (
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
)

// The widget corpus: pages built from real UI libraries (corpus/, pinned in
// its package-lock.json, bundled by its build.sh) that report their widgets'
// state to the test server on every change. Tests drive them through the
// shipped binary as a model would and assert on what the page reported.

var (
	corpusOnce sync.Once
	corpusErr  error
	corpusOut  []byte
)

// corpusDist runs corpus/build.sh once (npm ci when the lockfile changed,
// esbuild) and returns its dist/.
func corpusDist(t *testing.T) string {
	t.Helper()
	corpusOnce.Do(func() {
		corpusOut, corpusErr = exec.Command("bash", filepath.Join("corpus", "build.sh")).CombinedOutput()
	})
	if corpusErr != nil {
		t.Fatalf("corpus/build.sh (npm ci and esbuild): %v\n%s", corpusErr, corpusOut)
	}
	return filepath.Join("corpus", "dist")
}

// corpusSite serves the corpus pages on 127.0.0.1 (A) and the payment
// frame's form on 127.0.0.2 (B, another site: an out-of-process frame), and
// records the latest state each page reported.
type corpusSite struct {
	A, B   string
	mu     sync.Mutex
	states map[string]corpusReport
}

type corpusReport struct {
	seq int
	raw json.RawMessage
}

const corpusPayForm = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Payment</title></head>
<body style="margin:8px"><form id="pay" style="display:flex;flex-direction:column;gap:8px;width:300px">
<label>Card holder <input name="holder" autocomplete="off"></label>
<label>City <input name="city" autocomplete="off"></label>
<label>Country <select name="country"><option value="">Choose...</option><option value="fr">France</option><option value="jp">Japan</option><option value="br">Brazil</option></select></label>
<label><input type="checkbox" name="save"> Remember card</label>
<button type="submit">Pay now</button></form>
<script>
let seq = 0;
const f = document.getElementById('pay');
const send = (submitted) => fetch('/state?page=frame&seq=' + (++seq), {method: 'POST', body: JSON.stringify({
  holder: f.holder.value, city: f.city.value, country: f.country.value, save: f.save.checked, submitted})});
let submitted = false;
f.addEventListener('input', () => send(submitted));
f.addEventListener('change', () => send(submitted));
f.addEventListener('submit', (e) => { e.preventDefault(); submitted = true; send(true); });
send(false);
</script></body></html>`

func newCorpusSite(t *testing.T) *corpusSite {
	t.Helper()
	dist := corpusDist(t)
	c := &corpusSite{states: map[string]corpusReport{}}
	files := http.StripPrefix("/dist/", http.FileServer(http.Dir(dist)))
	mux := http.NewServeMux()
	mux.HandleFunc("/state", c.record)
	mux.Handle("/dist/", files)
	mux.HandleFunc("/checkout", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Checkout</title></head><body>
<h1>Checkout</h1><p>Pay with our provider below.</p>
<iframe title="Payment" src="`+c.B+`/pay" style="width:420px;height:260px;border:1px solid #333"></iframe></body></html>`)
	})
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		page := strings.TrimPrefix(r.URL.Path, "/")
		if _, err := os.Stat(filepath.Join(dist, page+".js")); page == "" || strings.Contains(page, "/") || err != nil {
			http.NotFound(w, r)
			return
		}
		css := ""
		if _, err := os.Stat(filepath.Join(dist, page+".css")); err == nil {
			css = `<link rel="stylesheet" href="/dist/` + page + `.css">`
		}
		if page == "shoelace" {
			css = `<link rel="stylesheet" href="/dist/shoelace/light.css">`
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>`+page+`</title>`+css+
			`</head><body><main><h1>`+page+`</h1><div id="root"></div></main><script src="/dist/`+page+`.js"></script></body></html>`)
	})
	c.A = serveOn(t, "127.0.0.1:0", mux)
	frame := http.NewServeMux()
	frame.HandleFunc("/state", c.record)
	frame.HandleFunc("/pay", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, corpusPayForm)
	})
	c.B = serveOn(t, "127.0.0.2:0", frame)
	return c
}

func serveOn(t *testing.T, addr string, h http.Handler) string {
	t.Helper()
	l, err := net.Listen("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: h}
	go srv.Serve(l)
	t.Cleanup(func() { srv.Close() })
	return "http://" + l.Addr().String()
}

// record keeps a page's report unless a later one (by seq) already arrived.
func (c *corpusSite) record(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		http.Error(w, "POST only", http.StatusMethodNotAllowed)
		return
	}
	body, _ := io.ReadAll(io.LimitReader(r.Body, 1<<20))
	page := r.URL.Query().Get("page")
	seq, _ := strconv.Atoi(r.URL.Query().Get("seq"))
	c.mu.Lock()
	if prev, ok := c.states[page]; !ok || seq > prev.seq {
		c.states[page] = corpusReport{seq: seq, raw: append(json.RawMessage(nil), body...)}
	}
	c.mu.Unlock()
	w.WriteHeader(http.StatusNoContent)
}

// wait polls the page's latest report until ok holds, for at most 5 s, and
// fails the test with the last report otherwise.
func (c *corpusSite) wait(t *testing.T, page, what string, ok func(map[string]any) bool) map[string]any {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	var last json.RawMessage
	for {
		c.mu.Lock()
		last = c.states[page].raw
		c.mu.Unlock()
		var st map[string]any
		if last != nil && json.Unmarshal(last, &st) == nil && ok(st) {
			return st
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s: the page never reported %s; its last report: %s", page, what, last)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// must runs a tool and fails the test unless it succeeded.
func (s *liveServer) must(t *testing.T, tool string, args map[string]any) surface.Envelope {
	t.Helper()
	res, env := s.call(t, tool, args)
	if env.Status != surface.StatusSucceeded {
		t.Fatalf("%s %v: %s\n%s", tool, mustJSON(args), env.Status, textOf(res))
	}
	return env
}

func mustJSON(v any) string { b, _ := json.Marshal(v); return string(b) }

// observe lists the page's controls as a model would first, and returns the
// target of the one with this role and name (it fails the test, listing what
// inspect saw, when there is none).
func (s *liveServer) observe(t *testing.T, role, name string) string {
	t.Helper()
	env := s.must(t, "browser_inspect", map[string]any{"max_items": 200})
	var f surface.BrowserInspectFacts
	if err := json.Unmarshal(env.Facts, &f); err != nil {
		t.Fatal(err)
	}
	var seen []string
	for _, it := range f.Items {
		if string(it.Role) == role && it.Name == name {
			return it.Target
		}
		seen = append(seen, string(it.Role)+" "+strconv.Quote(it.Name))
	}
	t.Fatalf("inspect lists no %s %q; it lists: %s", role, name, strings.Join(seen, ", "))
	return ""
}

// sel is a semantic selector, as a model writes one from inspect's list.
func sel(role, name string) map[string]any {
	return map[string]any{"role": role, "name": name, "exact": true}
}

type found struct{ role, target string }

// findAll runs browser_find and returns the best match of each name.
func (s *liveServer) findAll(t *testing.T, text string) map[string]found {
	t.Helper()
	env := s.must(t, "browser_find", map[string]any{"text": text})
	var f surface.BrowserFindFacts
	if err := json.Unmarshal(env.Facts, &f); err != nil {
		t.Fatal(err)
	}
	byName := map[string]found{}
	for _, m := range f.Matches {
		if _, ok := byName[m.Name]; !ok {
			byName[m.Name] = found{string(m.Role), m.Target}
		}
	}
	return byName
}

// find runs browser_find for text and returns the match named name (it
// fails the test, listing the matches, when there is none).
func (s *liveServer) find(t *testing.T, text, name string) found {
	t.Helper()
	all := s.findAll(t, text)
	m, ok := all[name]
	if !ok {
		t.Fatalf("find %q has no match named %q: %v", text, name, all)
	}
	return m
}

// appear waits (bounded, 5 s) for a control an action just brought up, as a
// careful model does with browser_wait, then observes it.
func (s *liveServer) appear(t *testing.T, role, name string) string {
	t.Helper()
	s.must(t, "browser_wait", map[string]any{"condition": "selector_present", "selector": sel(role, name), "timeout_ms": 5000})
	return s.observe(t, role, name)
}

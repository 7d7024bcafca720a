// Package corpussite serves the widget corpus (conformance/corpus: pages
// built from real UI libraries, pinned in its package-lock.json and bundled
// by its build.sh) on two loopback sites, and keeps the latest state each
// page reports, so a test or a benchmark asserts on what the page holds,
// not on what a server says. The conformance tests and tools/bench-live
// share it.
package corpussite

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
	"time"
)

// Build runs dir/build.sh (npm ci when the lockfile changed, esbuild) and
// returns the bundles' directory.
func Build(dir string) (string, error) {
	out, err := exec.Command("bash", filepath.Join(dir, "build.sh")).CombinedOutput()
	if err != nil {
		return "", fmt.Errorf("%s/build.sh (npm ci and esbuild): %v\n%s", dir, err, out)
	}
	return filepath.Join(dir, "dist"), nil
}

// Site serves the corpus pages on 127.0.0.1 (A) and the payment frame's
// form on 127.0.0.2 (B, another site: an out-of-process frame).
type Site struct {
	A, B    string
	mu      sync.Mutex
	states  map[string]report
	servers []*http.Server
}

type report struct {
	seq int
	raw json.RawMessage
}

const payForm = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Payment</title></head>
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

// New serves the bundles in dist. Close stops both sites.
func New(dist string) (*Site, error) {
	c := &Site{states: map[string]report{}}
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
	var err error
	if c.A, err = c.serve("127.0.0.1:0", mux); err != nil {
		return nil, err
	}
	frame := http.NewServeMux()
	frame.HandleFunc("/state", c.record)
	frame.HandleFunc("/pay", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, payForm)
	})
	if c.B, err = c.serve("127.0.0.2:0", frame); err != nil {
		c.Close()
		return nil, err
	}
	return c, nil
}

func (c *Site) serve(addr string, h http.Handler) (string, error) {
	l, err := net.Listen("tcp", addr)
	if err != nil {
		return "", err
	}
	srv := &http.Server{Handler: h}
	go srv.Serve(l)
	c.servers = append(c.servers, srv)
	return "http://" + l.Addr().String(), nil
}

// Close stops the sites.
func (c *Site) Close() {
	for _, s := range c.servers {
		s.Close()
	}
}

// record keeps a page's report unless a later one (by seq) already arrived.
func (c *Site) record(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		http.Error(w, "POST only", http.StatusMethodNotAllowed)
		return
	}
	body, _ := io.ReadAll(io.LimitReader(r.Body, 1<<20))
	page := r.URL.Query().Get("page")
	seq, _ := strconv.Atoi(r.URL.Query().Get("seq"))
	c.mu.Lock()
	if prev, ok := c.states[page]; !ok || seq > prev.seq {
		c.states[page] = report{seq: seq, raw: append(json.RawMessage(nil), body...)}
	}
	c.mu.Unlock()
	w.WriteHeader(http.StatusNoContent)
}

// Reset forgets what the pages reported (a benchmark reopens pages).
func (c *Site) Reset() {
	c.mu.Lock()
	c.states = map[string]report{}
	c.mu.Unlock()
}

// Wait polls the page's latest report until ok holds, for at most within,
// and answers an error quoting the last report otherwise.
func (c *Site) Wait(page, what string, within time.Duration, ok func(map[string]any) bool) (map[string]any, error) {
	deadline := time.Now().Add(within)
	for {
		c.mu.Lock()
		last := c.states[page].raw
		c.mu.Unlock()
		var st map[string]any
		if last != nil && json.Unmarshal(last, &st) == nil && ok(st) {
			return st, nil
		}
		if time.Now().After(deadline) {
			return nil, fmt.Errorf("%s: the page never reported %s; its last report: %s", page, what, last)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

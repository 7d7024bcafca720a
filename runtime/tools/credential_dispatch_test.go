package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
	"github.com/ghostlight-dev/ghostlight/runtime/browser"
	"github.com/ghostlight-dev/ghostlight/runtime/browser/action"
	"github.com/ghostlight-dev/ghostlight/runtime/browser/input"
	"github.com/ghostlight-dev/ghostlight/runtime/pipeline"
)

type pipelineResult = pipeline.Result

var jsonUnmarshal = json.Unmarshal

// credField is one field of the credential test page: its id (neutral, so
// only what the case means to test makes it a credential), its markup's
// attributes, the accessible name selectors use, and whether it is a
// credential field.
type credField struct {
	id, attrs, name, wrap string
	cred                  bool
}

// Each class with and without autocomplete, and a control.
var credFields = []credField{
	{id: "f1", attrs: `type="password" autocomplete="current-password"`, name: "Field one", cred: true},
	{id: "f2", attrs: `type="password"`, name: "Field two", cred: true},
	{id: "f3", attrs: `type="text" autocomplete="new-password"`, name: "Field three", cred: true},
	{id: "f4", attrs: `autocomplete="one-time-code"`, name: "Field four", cred: true},
	{id: "f5", attrs: `name="otp"`, name: "Field five", cred: true},
	{id: "f6", attrs: `inputmode="numeric" maxlength="6"`, name: "Field six", wrap: "Enter the verification code we sent you", cred: true},
	{id: "f7", attrs: `autocomplete="cc-number"`, name: "Field seven", cred: true},
	{id: "f8", attrs: ``, name: "Card number", cred: true},
	{id: "f9", attrs: `autocomplete="cc-exp"`, name: "Field nine", cred: true},
	{id: "f10", attrs: `placeholder="MM/YY"`, name: "Expiry date", cred: true},
	{id: "f11", attrs: `autocomplete="cc-csc"`, name: "Field eleven", cred: true},
	{id: "f12", attrs: ``, name: "CVC", cred: true},
	{id: "c", attrs: ``, name: "Nickname"},
}

// credPlaces: where the fields are. Names are suffixed with the place, so
// each is found once.
var credPlaces = []string{"light", "open", "closed", "same", "cross"}

// credFieldsHTML is the fields of one place, each in its own box.
func credFieldsHTML(place string) string {
	var b strings.Builder
	for _, f := range credFields {
		fmt.Fprintf(&b, `<div><p>%s</p><input id="%s" %s aria-label="%s %s"></div>`, f.wrap, f.id, f.attrs, f.name, place)
	}
	return b.String()
}

// credWatchJS reports every key and text event of a root to the document's
// own server with a synchronous request: the event's handler finishes (and
// so the server has counted it) before the browser acknowledges the key.
const credWatchJS = `
function credWatch(root, place) {
  for (const ev of ['keydown', 'keypress', 'keyup', 'beforeinput', 'input', 'paste', 'change']) {
    root.addEventListener(ev, function (e) {
      const t = e.composedPath()[0] || {};
      const x = new XMLHttpRequest();
      x.open('GET', '/ev?p=' + place + '&f=' + encodeURIComponent(t.id || '?') + '&t=' + ev + '&v=' + encodeURIComponent(t.value || ''), false);
      try { x.send(); } catch (_) {}
    }, true);
  }
}
window.__roots = {};
function credRoot(place) { return place === 'open' || place === 'closed' ? window.__roots[place] : document; }
window.__center = function (place, id) {
  const el = credRoot(place).getElementById(id);
  // A cross-origin frame's scrollIntoView scrolls its embedder later, from
  // another process: its fields fit its box, so it scrolls nothing.
  if (place !== 'cross') el.scrollIntoView({block: 'center'});
  const r = el.getBoundingClientRect();
  return [r.left + r.width / 2, r.top + r.height / 2];
};
`

// credServer serves the page on 127.0.0.1 and the cross-origin frame on
// 127.0.0.2, and counts what each field received.
type credServer struct {
	A, B string
	mu   sync.Mutex
	evs  map[string]int    // place/id → events
	vals map[string]string // place/id → last value reported
	subs int               // form submissions received
}

func (s *credServer) events(place, id string) (int, string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.evs[place+"/"+id], s.vals[place+"/"+id]
}

func (s *credServer) submissions() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.subs
}

func newCredServer(t *testing.T) *credServer {
	t.Helper()
	s := &credServer{evs: map[string]int{}, vals: map[string]string{}}
	la, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	lb, err := net.Listen("tcp", "127.0.0.2:0")
	if err != nil {
		t.Fatal(err)
	}
	s.A, s.B = "http://"+la.Addr().String(), "http://"+lb.Addr().String()
	mux := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		switch r.URL.Path {
		case "/ev":
			q := r.URL.Query()
			s.mu.Lock()
			k := q.Get("p") + "/" + q.Get("f")
			s.evs[k]++
			s.vals[k] = q.Get("v")
			s.mu.Unlock()
		case "/submit":
			s.mu.Lock()
			s.subs++
			s.mu.Unlock()
			fmt.Fprint(w, `<title>Submitted</title><p>Submitted</p>`)
		case "/frame":
			place := r.URL.Query().Get("p")
			fmt.Fprintf(w, `<link rel="icon" href="data:,"><style>p{margin:0;font-size:10px}input{display:block}</style><body style="margin:0"><script>%s</script>%s<script>credWatch(document, %q)</script></body>`, credWatchJS, credFieldsHTML(place), place)
		case "/main":
			fmt.Fprintf(w, `<link rel="icon" href="data:,"><title>Credentials</title><style>p{margin:0;font-size:10px}input{display:block}</style><body style="margin:0"><script>%s</script>
<div id="light">%s</div>
<x-open id="host-open"></x-open><x-closed id="host-closed"></x-closed>
<iframe id="frame-same" src="/frame?p=same" style="display:block;width:500px;height:560px;border:0"></iframe>
<iframe id="frame-cross" src="%s/frame?p=cross" style="display:block;width:500px;height:560px;border:0"></iframe>
<script>
credWatch(document.getElementById('light'), 'light');
for (const mode of ['open', 'closed']) {
  const root = document.getElementById('host-' + mode).attachShadow({mode: mode});
  root.innerHTML = mode === 'open' ? %q : %q;
  window.__roots[mode] = root;
  credWatch(root, mode);
}
</script></body>`, credWatchJS, credFieldsHTML("light"), s.B, credFieldsHTML("open"), credFieldsHTML("closed"))
		case "/form":
			fmt.Fprint(w, `<link rel="icon" href="data:,"><title>Form</title><body>
<form action="/submit" method="get"><input name="q" aria-label="Query"><button type="submit">Go</button></form>
<form action="/submit" method="get"><textarea name="t" aria-label="Notes"></textarea></form></body>`)
		default:
			http.NotFound(w, r)
		}
	})
	sa, sb := &http.Server{Handler: mux}, &http.Server{Handler: mux}
	go sa.Serve(la)
	go sb.Serve(lb)
	t.Cleanup(func() { sa.Close(); sb.Close() })
	return s
}

// credClick clicks the field's centre with a real mouse event, as a person
// would before typing: the field has focus then, wherever it is.
func (h *harness) credClick(tab string, s *credServer, place, id string) {
	h.t.Helper()
	h.actOnTab(tab, func(ctx context.Context, t *browser.Tab) {
		var x, y float64
		center := func(p interface {
			Call(context.Context, string, string, any) ([]byte, error)
		}, session, expr string) {
			raw, err := p.Call(ctx, session, "Runtime.evaluate", map[string]any{"expression": expr, "returnByValue": true})
			if err != nil {
				h.t.Fatalf("centre %s/%s: %v", place, id, err)
			}
			var res struct {
				Result struct {
					Value []float64 `json:"value"`
				} `json:"result"`
			}
			if err := jsonUnmarshal(raw, &res); err != nil || len(res.Result.Value) != 2 {
				h.t.Fatalf("centre %s/%s: %s", place, id, raw)
			}
			x, y = x+res.Result.Value[0], y+res.Result.Value[1]
		}
		page := t.Page()
		switch place {
		case "light", "open", "closed":
			center(page, string(page.SessionID), fmt.Sprintf("__center(%q, %q)", place, id))
		case "same":
			// The field first: scrolling it into view scrolls the page too.
			center(page, string(page.SessionID), fmt.Sprintf("document.getElementById('frame-same').contentWindow.__center('same', %q)", id))
			center(page, string(page.SessionID), `(function(){const r=document.getElementById('frame-same').getBoundingClientRect();return [r.left,r.top]})()`)
		case "cross":
			found := false
			for _, f := range t.Frames(ctx) {
				if strings.HasPrefix(f.URL, s.B) && !f.InProcess {
					center(f.Page, string(f.Page.SessionID), fmt.Sprintf("__center('cross', %q)", id))
					found = true
				}
			}
			if !found {
				h.t.Fatalf("no out-of-process frame of %s", s.B)
			}
			center(page, string(page.SessionID), `(function(){document.getElementById('frame-cross').scrollIntoView({block:'start'});return [0,0]})()`)
			center(page, string(page.SessionID), `(function(){const r=document.getElementById('frame-cross').getBoundingClientRect();return [r.left,r.top]})()`)
		}
		if _, err := input.Click(input.WithFrames(ctx, action.Frames(t)), page, input.Point{X: x, Y: y}, surface.BrowserClickButtonPrimary, 1); err != nil {
			h.t.Fatalf("click %s/%s: %v", place, id, err)
		}
	})
}

// credRefused holds a result to the handoff answer.
func credRefused(t *testing.T, what string, r pipelineResult) {
	t.Helper()
	// A sequence reports its step's refusal in the step's own summary.
	if r.Envelope.Status != surface.StatusAttentionRequired || !strings.Contains(string(r.JSON), `"credential_handoff"`) && !strings.Contains(string(r.JSON), "is a credential field, so Ghostlight typed nothing") {
		t.Fatalf("%s: want the credential handoff, got %s", what, r.JSON)
	}
}

// TestCredentialFieldsReceiveNothing: every credential class, with and
// without autocomplete, in the light DOM, an open and a closed shadow root,
// a same-origin frame and a cross-origin (out-of-process) frame: press_key
// after a click (printable keys, then Control+V), type_text into the focused
// field and by selector, fill_form, upload aimed at it, and a sequence's type_text step are each
// refused with the handoff, and the page's own server heard no key or text
// event from the field. The control field in each place is typed into, so
// the page would have told.
func TestCredentialFieldsReceiveNothing(t *testing.T) {
	s := newCredServer(t)
	h := newHarness(t)
	tab := h.actOpen(s.A + "/main")
	for _, name := range []string{"Nickname same", "Nickname cross"} {
		h.must("browser_wait", `{"tab":"`+tab+`","condition":"selector_present","selector":{"name":`+quote(name)+`},"timeout_ms":10000}`)
	}
	on := `"tab":"` + tab + `"`
	for _, place := range credPlaces {
		for _, f := range credFields {
			what := place + "/" + f.id + " (" + f.name + ")"
			name := quote(f.name + " " + place)
			check := func(tool string, r pipelineResult) {
				t.Helper()
				if f.cred {
					credRefused(t, what+" "+tool, r)
				} else if r.Envelope.Status != surface.StatusSucceeded {
					t.Fatalf("%s %s: the control was not typed into: %s", what, tool, r.JSON)
				}
			}
			h.credClick(tab, s, place, f.id)
			check("press_key", h.call("browser_press_key", `{`+on+`,"strokes":["a","b","1"]}`))
			if f.cred {
				check("paste", h.call("browser_press_key", `{`+on+`,"key":"v","modifiers":["Control"]}`))
			}
			h.credClick(tab, s, place, f.id)
			check("type_text focused", h.call("browser_type_text", `{`+on+`,"focused":true,"text":"x9"}`))
			if place != "closed" { // page code cannot address a closed root's field
				check("type_text selector", h.call("browser_type_text", `{`+on+`,"selector":{"name":`+name+`},"text":"t"}`))
				check("fill_form", h.call("browser_fill_form", `{`+on+`,"fields":[{"selector":{"name":`+name+`},"value":"F"}]}`))
				if f.cred { // the control is no file input: upload has nothing to say of it here
					check("upload", h.call("browser_upload", `{`+on+`,"selector":{"name":`+name+`},"files":[{"name":"a.txt","data_base64":"YQ=="}]}`))
				}
			} else {
				r := h.call("browser_fill_form", `{`+on+`,"timeout_ms":500,"fields":[{"selector":{"name":`+name+`},"value":"F"}]}`)
				if r.Envelope.Status == surface.StatusSucceeded {
					t.Fatalf("%s fill_form reached a closed root: %s", what, r.JSON)
				}
			}
			h.credClick(tab, s, place, f.id)
			check("sequence", h.call("browser_sequence", `{`+on+`,"steps":[{"action":"type_text","focused":true,"text":"s1"},{"action":"press_key","key":"End"}]}`))
			n, v := s.events(place, f.id)
			switch {
			case f.cred && (n != 0 || v != ""):
				t.Fatalf("%s: the page received %d key or text events (value %q)", what, n, v)
			case !f.cred && (n == 0 || !strings.Contains(v, "s1")):
				t.Fatalf("%s: the control received %d events, value %q", what, n, v)
			}
		}
	}
}

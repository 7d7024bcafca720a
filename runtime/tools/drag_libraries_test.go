package tools

import (
	"net/http"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
)

// Drags real drag-and-drop libraries accept: SortableJS 1.15.7 and @dnd-kit
// 6.3.1 (pinned in testdata/draglibs, installed and bundled by its build.sh),
// and native HTML5 drag and drop; a list and a board each. Every page reports
// its order to the test server after a drop (/order?list=ID&v=A,B,...), and
// the test asserts on that report, not on the receipt.

var (
	dragLibsOnce sync.Once
	dragLibsErr  error
	dragLibsOut  []byte
)

// dragLibs runs testdata/draglibs/build.sh once and returns its dist/.
func dragLibs(t *testing.T) string {
	t.Helper()
	dragLibsOnce.Do(func() {
		dragLibsOut, dragLibsErr = exec.Command("bash", filepath.Join("testdata", "draglibs", "build.sh")).CombinedOutput()
	})
	if dragLibsErr != nil {
		t.Fatalf("testdata/draglibs/build.sh (npm ci and esbuild): %v\n%s", dragLibsErr, dragLibsOut)
	}
	return filepath.Join("testdata", "draglibs", "dist")
}

// orders records the latest order each list reported.
type orders struct {
	mu sync.Mutex
	v  map[string]string
	n  int
}

func (o *orders) handler(w http.ResponseWriter, r *http.Request) {
	o.mu.Lock()
	if o.v == nil {
		o.v = map[string]string{}
	}
	o.v[r.URL.Query().Get("list")] = r.URL.Query().Get("v")
	o.n++
	o.mu.Unlock()
	w.WriteHeader(http.StatusNoContent)
}

func (o *orders) get(list string) (string, int) {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.v[list], o.n
}

const dragListStyle = `<style>li,.card{padding:10px;margin:4px;border:1px solid #888;width:200px;list-style:none;background:#fff}
ul{padding:0;margin:0 0 0 20px} .col{display:inline-block;vertical-align:top;width:240px;min-height:300px;margin:8px;border:2px solid #ccc}</style>`

func dragItems(prefix string, ids ...string) string {
	var b strings.Builder
	for _, id := range ids {
		b.WriteString(`<li data-id="` + id + `">` + prefix + ` ` + id + `</li>`)
	}
	return b.String()
}

var dragPages = map[string]string{
	"/sortable-list": `<title>Sortable list</title>` + dragListStyle +
		`<ul id="list" data-sortable="l">` + dragItems("Item", "A", "B", "C", "D", "E") + `</ul><script src="/dist/sortable.js"></script>`,
	"/sortable-board": `<title>Sortable board</title>` + dragListStyle +
		`<div class="col"><h2>Todo</h2><ul id="todo" data-sortable="board">` + dragItems("Card", "T1", "T2", "T3") + `</ul></div>` +
		`<div class="col"><h2>Done</h2><ul id="done" data-sortable="board">` + dragItems("Card", "D1", "D2") + `</ul></div><script src="/dist/sortable.js"></script>`,
	"/dndkit-list":  `<title>dnd-kit list</title><div id="root" data-kind="list"></div><script src="/dist/dndkit.js"></script>`,
	"/dndkit-board": `<title>dnd-kit board</title><div id="root" data-kind="board"></div><script src="/dist/dndkit.js"></script>`,
	"/native-list": `<title>Native list</title>` + dragListStyle + `<ul id="list">` + dragItems("Item", "A", "B", "C", "D", "E") + `</ul>
<script>
const list = document.getElementById('list');
const report = () => fetch('/order?list=list&v=' + Array.from(list.children).map((li) => li.dataset.id).join(','));
for (const li of list.children) {
  li.draggable = true;
  li.addEventListener('dragstart', (e) => { e.dataTransfer.setData('text/plain', li.dataset.id); e.dataTransfer.effectAllowed = 'move'; });
  li.addEventListener('dragover', (e) => e.preventDefault());
  li.addEventListener('drop', (e) => {
    e.preventDefault();
    const s = list.querySelector('[data-id="' + e.dataTransfer.getData('text/plain') + '"]');
    const kids = Array.from(list.children);
    if (kids.indexOf(s) < kids.indexOf(li)) li.after(s); else li.before(s);
    report();
  });
}
</script>`,
	"/native-board": `<title>Native board</title>` + dragListStyle +
		`<section class="col" id="todo" aria-label="Column todo"><h2>Todo</h2>` + strings.ReplaceAll(dragItems("Card", "T1", "T2", "T3"), "<li", `<li draggable="true"`) + `</section>` +
		`<section class="col" id="done" aria-label="Column done"><h2>Done</h2>` + strings.ReplaceAll(dragItems("Card", "D1"), "<li", `<li draggable="true"`) + `</section>
<script>
const cols = document.querySelectorAll('section');
const ids = (c) => Array.from(c.querySelectorAll('li')).map((li) => li.dataset.id).join(',');
for (const li of document.querySelectorAll('li')) li.addEventListener('dragstart', (e) => e.dataTransfer.setData('text/plain', li.dataset.id));
for (const c of cols) {
  c.addEventListener('dragover', (e) => e.preventDefault());
  c.addEventListener('drop', (e) => {
    e.preventDefault();
    c.appendChild(document.querySelector('[data-id="' + e.dataTransfer.getData('text/plain') + '"]'));
    for (const k of cols) fetch('/order?list=' + k.id + '&v=' + ids(k));
  });
}
</script>`,
}

func dragSite(t *testing.T, o *orders) string {
	dist := dragLibs(t)
	files := http.StripPrefix("/dist/", http.FileServer(http.Dir(dist)))
	srv := actSite(t, dragPages, map[string]http.HandlerFunc{
		"/order":            o.handler,
		"/dist/sortable.js": files.ServeHTTP,
		"/dist/dndkit.js":   files.ServeHTTP,
	})
	return srv.URL
}

// dragCase drags source onto destination on page and checks the lists the
// page reported.
func dragCase(t *testing.T, page, source, destination string, want map[string]string) {
	h := newHarness(t)
	var o orders
	base := dragSite(t, &o)
	tab := h.actOpen(base + page)
	src, dst := h.actTarget(tab, source), h.actTarget(tab, destination)
	r := h.call("browser_drag", `{"source_target":"`+src+`","destination_target":"`+dst+`"}`)
	if r.Envelope.Status != surface.StatusSucceeded {
		t.Fatalf("drag: %s", r.JSON)
	}
	for list, w := range want {
		if got, n := o.get(list); got != w {
			t.Errorf("%s reported %s = %q (%d reports), want %q; receipt: %s", page, list, got, n, w, r.Envelope.Summary)
		}
	}
	var f surface.BrowserDragFacts
	h.facts(r, &f)
	if !f.SourceMoved || !strings.Contains(r.Envelope.Summary, "; the page moved the dragged element.") {
		t.Errorf("receipt does not say the page moved the source: %s", r.JSON)
	}
}

func TestDragSortableList(t *testing.T) {
	dragCase(t, "/sortable-list", "Item A", "Item D", map[string]string{"list": "B,C,D,A,E"})
}

// SortableJS puts an item dropped on another at that item's place.
func TestDragSortableBoard(t *testing.T) {
	dragCase(t, "/sortable-board", "Card T1", "Card D2", map[string]string{"todo": "T2,T3", "done": "D1,T1,D2"})
}

func TestDragDndKitList(t *testing.T) {
	dragCase(t, "/dndkit-list", "Item A", "Item D", map[string]string{"list": "B,C,D,A,E"})
}

func TestDragDndKitBoard(t *testing.T) {
	dragCase(t, "/dndkit-board", "Card T1", "Column done", map[string]string{"todo": "T2,T3", "done": "D1,T1"})
}

func TestDragNativeList(t *testing.T) {
	dragCase(t, "/native-list", "Item A", "Item D", map[string]string{"list": "B,C,D,A,E"})
}

func TestDragNativeBoard(t *testing.T) {
	dragCase(t, "/native-board", "Card T1", "Column done", map[string]string{"todo": "T2,T3", "done": "D1,T1"})
}

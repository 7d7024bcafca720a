package browser

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"testing"
	"time"

	"github.com/ghostlight-dev/ghostlight/runtime/browser/input"
)

const dragPage = `<title>drag</title><div id=src draggable=true style="position:absolute;left:20px;top:20px;width:80px;height:80px;background:red">src</div>
<div id=dst style="position:absolute;left:300px;top:20px;width:120px;height:120px;background:blue">dst</div>
<script>
window.log = [];
src.addEventListener('dragstart', e => { log.push('dragstart'); e.dataTransfer.setData('text/plain', e.target.id); });
src.addEventListener('dragend', e => log.push('dragend'));
dst.addEventListener('dragenter', e => { e.preventDefault(); log.push('dragenter'); });
dst.addEventListener('dragover', e => { e.preventDefault(); if (log[log.length - 1] !== 'dragover') log.push('dragover'); });
dst.addEventListener('drop', e => { e.preventDefault(); log.push('drop:' + e.dataTransfer.getData('text/plain')); });
</script>`

const sliderPage = `<title>slider</title><div id=track style="position:absolute;left:50px;top:100px;width:400px;height:10px;background:#ccc">
<div id=thumb style="position:absolute;left:0;top:-5px;width:20px;height:20px;background:#333"></div></div>
<script>
window.log = []; window.moves = 0; let dragging = false;
thumb.addEventListener('mousedown', e => { dragging = true; log.push('down'); e.preventDefault(); });
document.addEventListener('mousemove', e => { if (!dragging) return; moves++;
  const x = Math.max(0, Math.min(380, e.clientX - 50 - 10)); thumb.style.left = x + 'px'; });
document.addEventListener('mouseup', e => { if (dragging) log.push('up:' + Math.round(e.clientX)); dragging = false; });
</script>`

func dragSite(t testing.TB) string {
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		body := dragPage
		if r.URL.Path == "/slider" {
			body = sliderPage
		}
		fmt.Fprint(w, `<!doctype html><link rel="icon" href="data:,"><body style="margin:0">`+body)
	}))
	t.Cleanup(s.Close)
	return s.URL
}

// tabDrag drags through the tab's ordered interception check, as browser_drag does.
func tabDrag(t testing.TB, ctx context.Context, tab *Tab, from, to input.Point, steps int) input.Effect {
	t.Helper()
	w, err := tab.WatchDrags()
	if err != nil {
		t.Fatal(err)
	}
	defer w.Stop()
	eff, err := input.Drag(ctx, tab.Page(), from, to, steps, w)
	if err != nil {
		t.Fatalf("drag: %v", err)
	}
	return eff
}

func evalAs(t testing.TB, tab *Tab, expr string, out any) {
	t.Helper()
	if err := json.Unmarshal([]byte(eval(t, tab, "JSON.stringify("+expr+")")), out); err != nil {
		t.Fatal(err)
	}
}

func centerOf(t testing.TB, tab *Tab, sel string) input.Point {
	t.Helper()
	var c [2]float64
	evalAs(t, tab, `(r => [r.x + r.width / 2, r.y + r.height / 2])(document.querySelector("`+sel+`").getBoundingClientRect())`, &c)
	return input.Point{X: c[0], Y: c[1]}
}

// An HTML5 drag is told from a mouse drag by an exact check after each move:
// the whole event sequence arrives however loaded the machine (this test
// missed drop and dragend 1 run in 10 under load when a 25 ms wait decided).
func TestDragHTML5(t *testing.T) {
	site := dragSite(t)
	for _, steps := range []int{1, 8} {
		ws := newWS(t)
		tab := openTab(t, ws, site+"/drag")
		eff := tabDrag(t, ctxT(t, 10*time.Second), tab, centerOf(t, tab, "#src"), centerOf(t, tab, "#dst"), steps)
		if eff != input.EffectApplied {
			t.Fatalf("steps %d: effect %v", steps, eff)
		}
		var log []string
		evalAs(t, tab, "log", &log)
		want := []string{"dragstart", "dragenter", "dragover", "drop:src", "dragend"}
		if !slices.Equal(log, want) {
			t.Errorf("steps %d: log %v, want %v", steps, log, want)
		}
		// Interception is off again and the page takes ordinary clicks.
		eval(t, tab, "log = []; document.addEventListener('click', () => log.push('click')); 1")
		if _, err := input.Click(ctxT(t, 5*time.Second), tab.Page(), input.Point{X: 200, Y: 300}, "primary", 1); err != nil {
			t.Fatal(err)
		}
		evalAs(t, tab, "log", &log)
		if !slices.Equal(log, []string{"click"}) {
			t.Errorf("steps %d: click after drag logged %v", steps, log)
		}
	}
}

// A plain mouse drag (a slider) gets its moves and a mouseup where it ends.
func TestDragMouseSlider(t *testing.T) {
	ws := newWS(t)
	tab := openTab(t, ws, dragSite(t)+"/slider")
	from := centerOf(t, tab, "#thumb")
	to := input.Point{X: from.X + 200, Y: from.Y}
	if eff := tabDrag(t, ctxT(t, 10*time.Second), tab, from, to, 10); eff != input.EffectApplied {
		t.Fatalf("effect %v", eff)
	}
	var log []string
	evalAs(t, tab, "log", &log)
	if !slices.Equal(log, []string{"down", "up:260"}) {
		t.Errorf("log %v, want down then up at x=260", log)
	}
	var moves float64
	evalAs(t, tab, "moves", &moves)
	if moves != 10 {
		t.Errorf("saw %v moves, want 10", moves)
	}
}

// BenchmarkDragHTML5 drags a draggable onto a drop zone through interception.
func BenchmarkDragHTML5(b *testing.B) {
	ws := newWS(b)
	tab := openTab(b, ws, dragSite(b)+"/drag")
	ctx := ctxT(b, time.Hour)
	from, to := centerOf(b, tab, "#src"), centerOf(b, tab, "#dst")
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		tabDrag(b, ctx, tab, from, to, 4)
	}
	b.StopTimer()
	var n int
	evalAs(b, tab, "log.filter(x => x.startsWith('drop')).length", &n)
	if n != b.N {
		b.Fatalf("%d drops, want %d", n, b.N)
	}
}

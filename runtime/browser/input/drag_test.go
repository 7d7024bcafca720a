package input

import (
	"slices"
	"testing"
	"time"
)

const dragPage = `<div id=src draggable=true style="position:absolute;left:20px;top:20px;width:80px;height:80px;background:red">src</div>
<div id=dst style="position:absolute;left:300px;top:20px;width:120px;height:120px;background:blue">dst</div>
<script>
window.log = [];
src.addEventListener('dragstart', e => { log.push('dragstart'); e.dataTransfer.setData('text/plain', e.target.id); });
src.addEventListener('dragend', e => log.push('dragend'));
dst.addEventListener('dragenter', e => { e.preventDefault(); log.push('dragenter'); });
dst.addEventListener('dragover', e => { e.preventDefault(); if (log[log.length - 1] !== 'dragover') log.push('dragover'); });
dst.addEventListener('drop', e => { e.preventDefault(); log.push('drop:' + e.dataTransfer.getData('text/plain')); });
</script>`

func TestDragHTML5(t *testing.T) {
	for _, steps := range []int{1, 8} {
		p := newPage(t, doc(dragPage))
		eff, err := Drag(tctx(t, 5*time.Second), p, center(t, p, "#src"), center(t, p, "#dst"), steps)
		if err != nil || eff != EffectApplied {
			t.Fatalf("steps %d: Drag = %v, %v", steps, eff, err)
		}
		var log []string
		evalInto(t, p, "log", &log)
		want := []string{"dragstart", "dragenter", "dragover", "drop:src", "dragend"}
		if !slices.Equal(log, want) {
			t.Errorf("steps %d: log %v, want %v", steps, log, want)
		}
		// Interception is switched off again and the page takes ordinary clicks.
		evalInto(t, p, "log = []; document.addEventListener('click', () => log.push('click'))", nil)
		if _, err := Click(tctx(t, 5*time.Second), p, Point{200, 300}, "primary", 1); err != nil {
			t.Fatal(err)
		}
		evalInto(t, p, "log", &log)
		if !slices.Equal(log, []string{"click"}) {
			t.Errorf("steps %d: click after drag logged %v", steps, log)
		}
	}
}

func TestDragMouseSlider(t *testing.T) {
	p := newPage(t, doc(`<div id=track style="position:absolute;left:50px;top:100px;width:400px;height:10px;background:#ccc">
<div id=thumb style="position:absolute;left:0;top:-5px;width:20px;height:20px;background:#333"></div></div>
<script>
window.log = []; window.moves = 0; let dragging = false;
thumb.addEventListener('mousedown', e => { dragging = true; log.push('down'); e.preventDefault(); });
document.addEventListener('mousemove', e => { if (!dragging) return; moves++;
  const x = Math.max(0, Math.min(380, e.clientX - 50 - 10)); thumb.style.left = x + 'px'; });
document.addEventListener('mouseup', e => { if (dragging) log.push('up:' + Math.round(e.clientX)); dragging = false; });
</script>`))
	from := center(t, p, "#thumb")
	to := Point{X: from.X + 200, Y: from.Y}
	eff, err := Drag(tctx(t, 5*time.Second), p, from, to, 10)
	if err != nil || eff != EffectApplied {
		t.Fatalf("Drag = %v, %v", eff, err)
	}
	var log []string
	evalInto(t, p, "log", &log)
	if !slices.Equal(log, []string{"down", "up:260"}) {
		t.Errorf("log %v, want down then up at x=260", log)
	}
	if moves := evalNum(t, p, "moves"); moves != 10 {
		t.Errorf("saw %v moves, want 10", moves)
	}
	if left := evalStr(t, p, "thumb.style.left"); left != "200px" {
		t.Errorf("thumb at %s, want 200px", left)
	}
}

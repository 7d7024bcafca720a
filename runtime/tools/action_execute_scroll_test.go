package tools

import (
	"strconv"
	"testing"
)

// virtualPage renders only the rows in view, from its scroll event, in a task
// of its own after it (as React's scheduler does): a script that moves
// scrollTop changes nothing until the next frame fires the event.
const virtualPage = `<title>Virtual</title><div id="box" aria-label="Rows" role="region" style="height:200px;overflow:auto">
<div id="inner" style="height:40000px;position:relative"></div></div><script>
var box = document.getElementById('box'), inner = document.getElementById('inner'), ch = new MessageChannel();
function render() {
  var first = Math.floor(box.scrollTop / 40), html = '';
  for (var i = first; i < first + 6; i++) html += '<button style="position:absolute;top:' + (i * 40) + 'px;height:40px">Row ' + i + '</button>';
  inner.innerHTML = html;
}
ch.port1.onmessage = render;
box.addEventListener('scroll', function () { ch.port2.postMessage(0); });
render();
</script>`

// TestExecuteScrollSettlesAfterTheListRenders: after a script scrolls a
// virtualized list, the call answers once the list re-rendered for the new
// position, so the next read sees the new rows (issue 23's TanStack task).
func TestExecuteScrollSettlesAfterTheListRenders(t *testing.T) {
	h := newHarness(t)
	srv := actSite(t, map[string]string{"/": virtualPage}, nil)
	h.actOpen(srv.URL + "/")
	for step := 1; step <= 8; step++ {
		h.must("browser_execute", `{"script":"document.getElementById('box').scrollTop += 240"}`)
		row := "Row " + strconv.Itoa(step*6)
		f, _ := h.find(`{"text":"` + row + `","scope":"control"}`)
		if f.Total < 1 || f.Matches[0].Name != row {
			var items []string
			for _, it := range f.Matches {
				items = append(items, it.Name)
			}
			t.Fatalf("scroll %d: find %q saw %v (the list was not re-rendered when the script's call answered)", step, row, items)
		}
	}
}

package pagejs

import (
	"context"
	"encoding/json"
	"math"
	"strconv"
	"time"

	"github.com/ghostlight-dev/ghostlight/generated/limits"
)

// Small page programs run as one function call, outside the installed API
// (they keep no state in the page).

// wheelOffsetsJS reads the scroll offsets of what a wheel at (x, y) scrolls:
// the nearest scrollable ancestor of the element there, else the window.
const wheelOffsetsJS = `function (x, y) {
  var el = document.elementFromPoint(x, y);
  for (var n = el; n && n !== document.body && n !== document.documentElement; n = n.parentElement) {
    var cs = getComputedStyle(n);
    if ((/(auto|scroll|overlay)/.test(cs.overflowY) && n.scrollHeight > n.clientHeight) ||
        (/(auto|scroll|overlay)/.test(cs.overflowX) && n.scrollWidth > n.clientWidth))
      return { x: n.scrollLeft, y: n.scrollTop, maxY: n.scrollHeight - n.clientHeight };
  }
  var d = document.scrollingElement || document.documentElement;
  return { x: scrollX, y: scrollY, maxY: d.scrollHeight - innerHeight };
}`

// WheelOffsets are the scroll offsets (CSS pixels) of what a wheel at a
// point scrolls, and how far down it can go.
type WheelOffsets struct {
	X    float64 `json:"x"`
	Y    float64 `json:"y"`
	MaxY float64 `json:"maxY"`
}

// WheelOffsetsAt reads the offsets of what a wheel at (x, y) scrolls.
func WheelOffsetsAt(ctx context.Context, w *World, x, y float64) (WheelOffsets, error) {
	var o WheelOffsets
	raw, err := w.call(ctx, wheelOffsetsJS, x, y)
	if err != nil {
		return o, err
	}
	err = json.Unmarshal(raw, &o)
	return o, err
}

// wheelPoll spaces the reads of a scroll position that may still be moving.
const wheelPoll = limits.ScrollPollMsMax * time.Millisecond

// FollowWheel reads the offsets at (x, y) while a wheel scroll lands (it
// may animate over several frames): until they reach the goal, or stop
// moving for the quiet window after moving, or never move within
// settle_dom_ms. It returns the last offsets read.
func FollowWheel(ctx context.Context, w *World, x, y float64, before WheelOffsets, goal float64) WheelOffsets {
	cur, last, moved := before, time.Now(), false
	for ctx.Err() == nil && math.Abs(cur.Y-goal) >= 1 {
		patience := time.Duration(limits.SettleQuietMsMax) * time.Millisecond
		if !moved {
			patience = time.Duration(limits.SettleDomMsMax) * time.Millisecond
		}
		if time.Since(last) >= patience {
			break
		}
		select {
		case <-time.After(wheelPoll):
		case <-ctx.Done():
		}
		o, err := WheelOffsetsAt(ctx, w, x, y)
		if err != nil {
			break
		}
		if o.X != cur.X || o.Y != cur.Y {
			cur, last, moved = o, time.Now(), true
		}
	}
	return cur
}

// caretEndJS puts the caret at the end of the focused control, as a person
// clicking into a field and typing would append. It reads only the length.
// It descends at most page_shadow_steps open shadow roots, as the page code does.
var caretEndJS = `function () {
  var el = document.activeElement;
  for (var i = 0; el && el.shadowRoot && el.shadowRoot.activeElement && i < ` + strconv.Itoa(limits.PageShadowStepsMax) + `; i++) el = el.shadowRoot.activeElement;
  if (!el) return false;
  try {
    if (typeof el.setSelectionRange === 'function' && typeof el.value === 'string') {
      el.setSelectionRange(el.value.length, el.value.length);
      return true;
    }
  } catch (e) { return false; }
  if (el.isContentEditable) {
    var s = el.ownerDocument.getSelection();
    s.selectAllChildren(el);
    s.collapseToEnd();
    return true;
  }
  return false;
}`

// CaretToEnd puts the caret at the end of the focused control.
func CaretToEnd(ctx context.Context, w *World) error {
	_, err := w.call(ctx, caretEndJS)
	return err
}

package pagejs

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/ghostlight-dev/ghostlight/generated/limits"
)

// long pads a function source past the size worlds keep.
func long(body string) string {
	return "function (a, b) { /*" + strings.Repeat(" ", limits.KeptFunctionCharsMin) + "*/ " + body + " }"
}

func TestKeptFunctionsAnswerAsSentWhole(t *testing.T) {
	p, w := openPage(t, page(`<button>A</button>`))
	ctx := testCtx(t)
	fn := long(`return {sum: a + b, api: typeof this.inspect, n: arguments.length};`)
	want := `{"sum":5,"api":"function","n":2}`
	for i := range 3 {
		raw, err := w.call(ctx, fn, 2, 3)
		if err != nil || string(raw) != want {
			t.Fatalf("call %d: %s %v, want %s", i, raw, err, want)
		}
		api, _ := w.ensure(ctx)
		decl, slot := w.declaration(fn, api)
		if slot != -1 || len(decl) > 80 || !strings.Contains(decl, "__kept") {
			t.Fatalf("after call %d the next declaration is %d bytes (slot %d), want a stub", i, len(decl), slot)
		}
	}
	// callAwait keeps its functions the same way.
	afn := long(`return new Promise(r => setTimeout(() => r(a * b), 1));`)
	for i := range 2 {
		if raw, err := w.callAwait(ctx, afn, 4, 5); err != nil || string(raw) != "20" {
			t.Fatalf("await %d: %s %v", i, raw, err)
		}
	}
	// A new document is a new installation: the source goes whole again.
	navigate(t, p, siteA.add(page(`<button>B</button>`)))
	if raw, err := w.call(ctx, fn, 1, 1); err != nil || string(raw) != `{"sum":2,"api":"function","n":2}` {
		t.Fatalf("after navigation: %s %v", raw, err)
	}
}

func TestKeptFunctionThatThrowsIsSentWholeAgain(t *testing.T) {
	_, w := openPage(t, page(`<p>x</p>`))
	ctx := testCtx(t)
	fn := long(`if (a) throw new Error('boom ' + a); return 'ok';`)
	if _, err := w.call(ctx, fn, 1); err == nil || !strings.Contains(err.Error(), "boom 1") {
		t.Fatalf("throw: %v", err)
	}
	api, _ := w.ensure(ctx)
	if _, slot := w.declaration(fn, api); slot < 0 {
		t.Fatal("a function answered with an exception is used as a stub next")
	}
	if raw, err := w.call(ctx, fn, 0); err != nil || string(raw) != `"ok"` {
		t.Fatalf("after the throw: %s %v", raw, err)
	}
}

func TestKeptFunctionsAreBounded(t *testing.T) {
	_, w := openPage(t, page(`<p>x</p>`))
	ctx := testCtx(t)
	for i := range limits.KeptFunctionsMax + 2 {
		fn := long(fmt.Sprintf(`return %d;`, i))
		for range 2 {
			raw, err := w.call(ctx, fn)
			var n int
			if err != nil || json.Unmarshal(raw, &n) != nil || n != i {
				t.Fatalf("function %d: %s %v", i, raw, err)
			}
		}
	}
	if n := len(w.kept.slot); n != limits.KeptFunctionsMax {
		t.Fatalf("%d functions kept, bound %d", n, limits.KeptFunctionsMax)
	}
	api, _ := w.ensure(ctx)
	last := long(fmt.Sprintf(`return %d;`, limits.KeptFunctionsMax+1))
	if decl, slot := w.declaration(last, api); decl != last || slot != -1 {
		t.Fatalf("a function past the bound is not sent whole (slot %d)", slot)
	}
}

package pagejs

import (
	"testing"
)

const formPage = `
<label>Name <input id="name"></label>
<label>Age <input id="age" type="number"></label>
<label>Born <input id="born" type="date"></label>
<label>Bio <textarea id="bio"></textarea></label>
<label><input type="checkbox" id="news"> Newsletter</label>
<label><input type="radio" name="plan" id="basic" checked> Basic</label>
<label><input type="radio" name="plan" id="pro"> Pro</label>
<label>Color <select id="color"><option value="r">Red</option><option value="g">Green</option><option value="b" disabled>Blue</option></select></label>
<div contenteditable="true" aria-label="Rich" id="rich">old</div>
<label>Locked <input id="locked" disabled></label>
<label>Fixed <input id="fixed" readonly value="keep"></label>
<label>Secret <input id="pw" type="password"></label>
<label>Code <input id="otp" autocomplete="one-time-code"></label>
<label>Stubborn <input type="checkbox" id="stub" onclick="return false"></label>
<div role="switch" aria-checked="false" aria-label="Wifi" tabindex="0" id="wifi" style="width:20px;height:10px"
     onclick="this.setAttribute('aria-checked', this.getAttribute('aria-checked') === 'true' ? 'false' : 'true')"></div>
<button>Plain button</button>
<label>Short <input id="short" maxlength="3"></label>
<script>
  // React-like: a controlled input that records the events it reconciles on,
  // and a value tracker installed on the instance the way React does.
  window.events = [];
  for (const el of document.querySelectorAll('input,textarea,select,[contenteditable]')) {
    for (const ty of ['input', 'change', 'click']) el.addEventListener(ty, e => events.push(el.id + ':' + ty + ':' + (el.value ?? el.textContent)));
  }
  const name = document.getElementById('name');
  const proto = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value');
  let tracked = '';
  Object.defineProperty(name, 'value', { configurable: true,
    get() { return proto.get.call(this); },
    set(v) { tracked = v; proto.set.call(this, v); } });
  window.reactState = () => ({ tracked, dom: proto.get.call(name) });
</script>`

func TestSetValue(t *testing.T) {
	p, w := openPage(t, page(formPage))
	ctx := testCtx(t)
	id := func(n string) int { return idByName(t, w, n) }
	events := func() string {
		return mainEval(t, p, `() => { const e = events.join('|'); events.length = 0; return e; }`)
	}

	if err := SetValue(ctx, w, id("Name"), StringValue("Ada")); err != nil {
		t.Fatal(err)
	}
	// The page's instance setter was bypassed, the DOM changed, and input
	// then change fired: what React's onChange needs.
	if got := mainEval(t, p, `() => JSON.stringify(reactState())`); got != `{"tracked":"","dom":"Ada"}` {
		t.Errorf("react-like state %s", got)
	}
	if e := events(); e != "name:input:Ada|name:change:Ada" {
		t.Errorf("events %q", e)
	}
	if err := SetValue(ctx, w, id("Age"), NumberValue(42.5)); err != nil {
		t.Fatal(err)
	}
	if err := SetValue(ctx, w, id("Born"), StringValue("2001-02-03")); err != nil {
		t.Fatal(err)
	}
	mustKind(t, SetValue(ctx, w, id("Born"), StringValue("yesterday")), KindMismatch)
	mustKind(t, SetValue(ctx, w, id("Age"), StringValue("lots")), KindMismatch)
	if err := SetValue(ctx, w, id("Bio"), StringValue("Line one\nLine two")); err != nil {
		t.Fatal(err)
	}
	if err := SetValue(ctx, w, id("Rich"), StringValue("new rich")); err != nil {
		t.Fatal(err)
	}
	if err := SetValue(ctx, w, id("Newsletter"), BoolValue(true)); err != nil {
		t.Fatal(err)
	}
	if err := SetValue(ctx, w, id("Pro"), BoolValue(true)); err != nil {
		t.Fatal(err)
	}
	// Select: visible text first, then value.
	if err := SetValue(ctx, w, id("Color"), StringValue("green")); err != nil {
		t.Fatal(err)
	}
	got := mainEval(t, p, `() => [name.value, age.value, born.value, bio.value, rich.textContent, news.checked, pro.checked, basic.checked, color.value].join(';')`)
	if got != "Ada;42.5;2001-02-03;Line one\nLine two;new rich;true;true;false;g" {
		t.Errorf("values %q", got)
	}
	e := events()
	for _, want := range []string{"age:input:42.5", "bio:change:", "news:click:on", "news:change:on", "pro:change:on", "color:change:g", "rich:input:"} {
		if !containsSub(e, want) {
			t.Errorf("events lack %q: %s", want, e)
		}
	}
	if err := SetValue(ctx, w, id("Color"), StringValue("r")); err != nil {
		t.Fatal(err)
	}
	if v := mainEval(t, p, `() => color.value`); v != "r" {
		t.Errorf("select by value: %s", v)
	}
	if err := SetValue(ctx, w, id("Wifi"), BoolValue(true)); err != nil {
		t.Fatal(err)
	}
	if v := mainEval(t, p, `() => wifi.getAttribute('aria-checked')`); v != "true" {
		t.Errorf("aria switch: %s", v)
	}
	// Refusals.
	mustKind(t, SetValue(ctx, w, id("Color"), StringValue("Purple")), KindNoMatch)
	mustKind(t, SetValue(ctx, w, id("Color"), StringValue("Blue")), KindDisabled)
	mustKind(t, SetValue(ctx, w, id("Name"), BoolValue(true)), KindMismatch)
	mustKind(t, SetValue(ctx, w, id("Newsletter"), StringValue("yes")), KindMismatch)
	mustKind(t, SetValue(ctx, w, id("Pro"), BoolValue(false)), KindMismatch)
	mustKind(t, SetValue(ctx, w, id("Stubborn"), BoolValue(true)), KindRejected)
	mustKind(t, SetValue(ctx, w, id("Plain button"), StringValue("x")), KindNotEditable)
	mustKind(t, SetValue(ctx, w, id("Fixed"), StringValue("x")), KindReadOnly)
	mustKind(t, SetValue(ctx, w, mustInspectID(t, w, "Locked"), StringValue("x")), KindDisabled)
	mustKind(t, SetValue(ctx, w, id("Age"), Value{Kind: "date"}), KindBadRequest)
	mustKind(t, SetValue(ctx, w, id("Short"), StringValue("abcd")), KindMismatch)
	if err := SetValue(ctx, w, id("Short"), StringValue("abc")); err != nil {
		t.Error(err)
	}
	events()
	// Credential-class fields are refused before anything touches them.
	mainEval(t, p, `() => { pw.addEventListener('focus', () => events.push('pw:focus')); otp.addEventListener('focus', () => events.push('otp:focus')); }`)
	mustKind(t, SetValue(ctx, w, id("Secret"), StringValue("hunter2")), KindCredential)
	mustKind(t, SetValue(ctx, w, id("Code"), StringValue("123456")), KindCredential)
	mustKind(t, Clear(ctx, w, id("Secret")), KindCredential)
	if got := mainEval(t, p, `() => pw.value + '|' + otp.value + '|' + events.join(',')`); got != "||" {
		t.Errorf("credential field touched: %q", got)
	}
}

func containsSub(s, sub string) bool {
	return len(sub) == 0 || (len(s) >= len(sub) && indexOf(s, sub) >= 0)
}

func indexOf(s, sub string) int {
	for i := 0; i+len(sub) <= len(s); i++ {
		if s[i:i+len(sub)] == sub {
			return i
		}
	}
	return -1
}

func TestFocusClearFocusedEditable(t *testing.T) {
	p, w := openPage(t, page(formPage+`<div id="host"></div><script>document.getElementById('host').attachShadow({mode:'open'}).innerHTML='<input aria-label="Deep">';</script>`))
	ctx := testCtx(t)
	if _, ok, err := FocusedEditable(ctx, w); err != nil || ok {
		t.Errorf("nothing focused: %v %v", ok, err)
	}
	name := idByName(t, w, "Name")
	if err := SetValue(ctx, w, name, StringValue("Ada")); err != nil {
		t.Fatal(err)
	}
	if err := Focus(ctx, w, name); err != nil {
		t.Fatal(err)
	}
	if d, _ := Describe(ctx, w, name); !d.State.Focused {
		t.Error("focused state not reported")
	}
	if got, ok, err := FocusedEditable(ctx, w); err != nil || !ok || got != name {
		t.Errorf("focused editable %d %v %v, want %d", got, ok, err, name)
	}
	if err := Clear(ctx, w, name); err != nil {
		t.Fatal(err)
	}
	if v := mainEval(t, p, `() => document.getElementById('name').value`); v != "" {
		t.Errorf("clear left %q", v)
	}
	if err := Clear(ctx, w, idByName(t, w, "Rich")); err != nil {
		t.Fatal(err)
	}
	if v := mainEval(t, p, `() => rich.textContent`); v != "" {
		t.Errorf("clear editable left %q", v)
	}
	mustKind(t, Clear(ctx, w, idByName(t, w, "Plain button")), KindNotEditable)
	// Focus through a shadow root; FocusedEditable registers it.
	mainEval(t, p, `() => host.shadowRoot.querySelector('input').focus()`)
	deep, ok, err := FocusedEditable(ctx, w)
	if err != nil || !ok {
		t.Fatalf("deep focus: %v %v", ok, err)
	}
	if d, err := Describe(ctx, w, deep); err != nil || d.Name != "Deep" || !d.Editable {
		t.Errorf("deep describe %+v %v", d, err)
	}
	// A non-focusable element.
	mainEval(t, p, `() => { const p = document.createElement('p'); p.textContent = 'Plain prose'; document.body.append(p); }`)
	pf, err := Find(ctx, w, FindRequest{Text: "Plain prose", Scope: FindText, Max: 1})
	if err != nil || len(pf.Matches) != 1 {
		t.Fatal(err)
	}
	mustKind(t, Focus(ctx, w, pf.Matches[0].ID), KindNotFocusable)
}

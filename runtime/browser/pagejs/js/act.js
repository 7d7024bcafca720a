// act.js: what actions need from the page: a verified point to press, value
// setting with the events frameworks listen for, focus, and scrolling.

// frameOffset: where el's document viewport sits in the top viewport.
function frameOffset(el) {
  let x = 0, y = 0;
  let d = el.ownerDocument;
  for (let i = 0; d && d !== document && i < FRAME_STEPS; i++) {
    const w = d.defaultView;
    let fe = null;
    try { fe = w && w.frameElement; } catch (e) { fe = null; }
    if (!fe) break;
    const r = fe.getBoundingClientRect();
    const cs = styleOf(fe);
    x += r.left + fe.clientLeft + parseFloat(cs.paddingLeft);
    y += r.top + fe.clientTop + parseFloat(cs.paddingTop);
    d = fe.ownerDocument;
  }
  return { x: x, y: y };
}

// boxOf: el's largest client rect (inline boxes can wrap) in top-viewport
// CSS pixels.
function boxOf(el) {
  let best = null, area = -1;
  const rs = el.getClientRects();
  for (let i = 0; i < rs.length; i++) {
    const r = rs[i];
    if (r.width * r.height > area) { best = r; area = r.width * r.height; }
  }
  if (!best || area <= 0) {
    best = el.getBoundingClientRect();
    if (!(best.width > 0 && best.height > 0)) {
      for (let c = el.firstElementChild; c; c = c.nextElementSibling) {
        const q = c.getBoundingClientRect();
        if (q.width > 0 && q.height > 0) { best = q; break; }
      }
    }
  }
  const o = frameOffset(el);
  return { x: best.left + o.x, y: best.top + o.y, width: best.width, height: best.height };
}

// viewport: its size without scrollbars. The scrolling element reports it:
// the root in standards mode, the body in quirks mode, whose root measures
// the whole document instead.
function viewport() {
  const se = document.scrollingElement || document.documentElement;
  return { w: (se && se.clientWidth) || innerWidth, h: (se && se.clientHeight) || innerHeight };
}

// inView: fully inside the viewport, or (when larger) centred in it.
function inView(b) {
  const v = viewport();
  const cx = b.x + b.width / 2, cy = b.y + b.height / 2;
  if (cx < 0 || cy < 0 || cx >= v.w || cy >= v.h) return false;
  const fitsW = b.width <= v.w, fitsH = b.height <= v.h;
  if (fitsW && (b.x < 0 || b.x + b.width > v.w)) return false;
  if (fitsH && (b.y < 0 || b.y + b.height > v.h)) return false;
  return true;
}

function bringIntoView(el) {
  el.scrollIntoView({ block: 'center', inline: 'center', behavior: 'instant' });
}

// deepHit: the element that receives input at a top-viewport point,
// descending open shadow roots and same-origin frames.
function deepHit(x, y) {
  let ox = 0, oy = 0;
  let e = document.elementFromPoint(x, y);
  for (let i = 0; e && i < SHADOW_STEPS; i++) {
    if (e.shadowRoot) {
      const e2 = e.shadowRoot.elementFromPoint(x - ox, y - oy);
      if (e2 && e2 !== e) { e = e2; continue; }
    }
    if (isFrame(e.localName)) {
      const d = frameDoc(e);
      if (d) {
        const r = e.getBoundingClientRect();
        const cs = styleOf(e);
        ox += r.left + e.clientLeft + parseFloat(cs.paddingLeft);
        oy += r.top + e.clientTop + parseFloat(cs.paddingTop);
        const e2 = d.elementFromPoint(x - ox, y - oy);
        if (e2) { e = e2; continue; }
      }
    }
    break;
  }
  return e;
}

// receives: does a press on hit reach el (or what el stands for)?
function receives(el, tgt, hit) {
  if (!hit) return false;
  if (containsDeep(el, hit)) return true;
  if (tgt !== el && containsDeep(tgt, hit)) return true;
  const lab = hit.closest ? hit.closest('label') : null;
  if (lab && (lab.control === tgt || lab.control === el)) return true;
  // pointer-events:none passes the press to what lies beneath, usually an
  // ancestor that handles it.
  if (containsDeep(hit, el) && hit.localName !== 'html' && hit.localName !== 'body' && styleOf(el).pointerEvents === 'none') return true;
  return false;
}

function hitPoint(el, tgt, b) {
  const v = viewport();
  const l = Math.max(b.x, 0), t = Math.max(b.y, 0);
  const r = Math.min(b.x + b.width, v.w), btm = Math.min(b.y + b.height, v.h);
  if (r <= l || btm <= t) return null;
  const w = r - l, h = btm - t;
  const pts = [[0.5, 0.5], [0.25, 0.25], [0.75, 0.25], [0.25, 0.75], [0.75, 0.75]];
  for (const [fx, fy] of pts) {
    const x = l + w * fx, y = t + h * fy;
    if (receives(el, tgt, deepHit(x, y))) return { x: x, y: y };
  }
  return null;
}

// describeCover names the covering element by its nearest ancestor with a
// meaningful role, else by the hit element itself.
function describeCover(hit, el, cx) {
  if (!hit) return { role: '', name: '' };
  // Climb only while still outside el's ancestors: a common ancestor (say
  // the main landmark) is not what covers it.
  for (let n = hit, i = 0; n && n.nodeType === 1 && i < COVER_STEPS && !containsDeep(n, el); n = flatParent(n), i++) {
    const role = classifyQuiet(n);
    if (role && role !== 'generic' && role !== 'presentation' && role !== 'none') {
      return { role: role, name: cut(nameOf(n, n.localName, role, cx), cx.nameMax) };
    }
  }
  return { role: 'generic', name: cut(norm(hit.getAttribute('aria-label') || hit.getAttribute('title') || ''), cx.nameMax) };
}

function checkUsable(el, tgt, allowDisabled) {
  if (visState(el) !== VIS_SHOWN) fail('hidden', 'the element is not rendered or has no size');
  if (el.closest('[inert]')) fail('disabled', 'the element is inert');
  if (!allowDisabled && isDisabled(tgt, tgt.localName)) fail('disabled', 'the control is disabled');
}

function locate(a) {
  const cx = mkcx(a);
  const el = lookup(a.id);
  const tgt = effective(el);
  checkUsable(el, tgt, !!a.allowDisabled);
  let scrolled = false;
  let b = boxOf(el);
  if (!inView(b)) {
    bringIntoView(el);
    scrolled = true;
    b = boxOf(el);
  }
  let p = hitPoint(el, tgt, b);
  if (!p && !scrolled) {
    bringIntoView(el);
    scrolled = true;
    b = boxOf(el);
    p = hitPoint(el, tgt, b);
  }
  if (!p) {
    const v = viewport();
    const x = b.x + b.width / 2, y = b.y + b.height / 2;
    if (x < 0 || y < 0 || x >= v.w || y >= v.h) fail('hidden', 'the element cannot be brought into view');
    if (!a.allowObscured) {
      const c = describeCover(deepHit(x, y), el, cx);
      fail('obscured', 'another element covers it' + (c.role ? ' (' + c.role + (c.name ? ' "' + c.name + '"' : '') + ')' : ''), c);
    }
    p = { x: x, y: y };
  }
  const tag = el.localName;
  const role = classify(el, tag);
  const ttag = tgt.localName;
  const out = {
    x: p.x, y: p.y, box: b, role: role || 'generic', name: cut(nameOf(el, tag, role, cx), cx.nameMax),
    tag: ttag, inputType: ttag === 'input' ? tgt.type : '', scrolled: scrolled,
    sx: scrollX, sy: scrollY,
  };
  if (isCredential(tgt, ttag, cx)) out.credential = true;
  if (isEditable(tgt, ttag)) out.editable = true;
  const sub = submitTarget(tgt, ttag), ent = enterTarget(tgt, ttag);
  if (sub) out.submit = sub;
  if (ent) out.enter = ent;
  return out;
}

function describe(a) {
  const cx = mkcx(a);
  const el = lookup(a.id);
  const tag = el.localName;
  const it = itemOf(el, tag, classify(el, tag), cx);
  const sub = submitTarget(el, tag), ent = enterTarget(el, tag);
  if (sub) it.submit = sub;
  if (ent) it.enter = ent;
  return it;
}

function numStr(n) {
  if (typeof n !== 'number' || !isFinite(n)) fail('bad_request', 'number value is not finite');
  return String(n);
}

function protoSetter(el, ctor, prop) {
  const W = el.ownerDocument.defaultView || window;
  const d = Object.getOwnPropertyDescriptor(W[ctor].prototype, prop);
  return d.set;
}

function fire(el, type, init) {
  const W = el.ownerDocument.defaultView || window;
  const C = type === 'input' ? W.InputEvent : W.Event;
  el.dispatchEvent(new C(type, Object.assign({ bubbles: true, composed: type === 'input' }, init || {})));
}

function focusQuiet(el) {
  if (deepActive() !== el) el.focus({ preventScroll: true });
}

// setText writes through the prototype's native setter (not an instance
// property a framework may have installed) and fires input then change,
// which is what React-style controlled inputs reconcile on.
function setText(el, s) {
  focusQuiet(el);
  const set = protoSetter(el, el.localName === 'textarea' ? 'HTMLTextAreaElement' : 'HTMLInputElement', 'value');
  set.call(el, s);
  fire(el, 'input', { inputType: s ? 'insertReplacementText' : 'deleteContentBackward' });
  fire(el, 'change');
}

function setEditableText(el, s) {
  focusQuiet(el);
  const doc = el.ownerDocument;
  const sel = doc.getSelection();
  const range = doc.createRange();
  range.selectNodeContents(el);
  sel.removeAllRanges();
  sel.addRange(range);
  const ok = s ? doc.execCommand('insertText', false, s) : doc.execCommand('delete', false);
  if (!ok) {
    el.textContent = s;
    fire(el, 'input', { inputType: 'insertReplacementText' });
  }
}

function valueString(v, what) {
  if (v.kind === 'string') return String(v.string || '');
  if (v.kind === 'number') return numStr(v.number);
  fail('mismatch', 'a ' + (v.kind || 'missing') + ' value does not fit ' + what);
}

function checkWritable(el, tag, cx) {
  if (isCredential(el, tag, cx)) fail('credential', 'credential-class field: hand it to the user');
  if (isDisabled(el, tag) || el.closest('[inert]')) fail('disabled', 'the control is disabled');
  if (isReadOnly(el, tag)) fail('readonly', 'the control is read-only');
}

const ARIA_CHECK_ROLES = new Set(['checkbox', 'switch', 'radio', 'menuitemcheckbox', 'menuitemradio']);

function setValue(a) {
  const cx = mkcx(a);
  const el = effective(lookup(a.id));
  const tag = el.localName;
  // The credential check comes before anything reads or writes the field.
  checkWritable(el, tag, cx);
  const v = a.value || {};
  if (tag === 'input') {
    const t = el.type;
    if (t === 'checkbox' || t === 'radio') return setChecked(el, t, v);
    if (t === 'file') fail('not_editable', 'file inputs take files through upload');
    if (TEXT_INPUT_TYPES.has(t) || t === 'range' || t === 'color') {
      const s = valueString(v, 'a ' + t + ' field');
      if ((t === 'number' || t === 'range') && s.trim() !== '' && !isFinite(Number(s))) fail('mismatch', 'the field takes a number');
      if (!acceptsValue(el, t, s)) fail('mismatch', 'the ' + t + ' field does not accept that value format');
      checkMaxLength(el, s);
      setText(el, s);
      return {};
    }
    fail('not_editable', 'an input of type ' + t + ' holds no settable value');
  }
  if (tag === 'textarea') {
    const s = valueString(v, 'a text area');
    checkMaxLength(el, s);
    setText(el, s);
    return {};
  }
  if (tag === 'select') return setSelect(el, v);
  if (editableHost(el)) {
    setEditableText(el, valueString(v, 'an editable region'));
    return {};
  }
  const role = classifyQuiet(el);
  if (ARIA_CHECK_ROLES.has(role)) {
    if (v.kind !== 'bool') fail('mismatch', 'a ' + (v.kind || 'missing') + ' value does not fit a ' + role);
    const cur = el.getAttribute('aria-checked') === 'true';
    if (cur !== !!v.bool) {
      if (!v.bool && (role === 'radio' || role === 'menuitemradio')) fail('mismatch', 'a radio button is cleared by choosing another option');
      el.click();
    }
    return {};
  }
  fail('not_editable', 'the element holds no value');
}

// checkMaxLength refuses what a user could not type: a programmatic write
// would bypass the field's maxlength.
function checkMaxLength(el, s) {
  const m = el.maxLength;
  if (m >= 0 && s.length > m) fail('mismatch', 'the value is longer than the field allows (' + m + ' characters)');
}

// acceptsValue tries s on a detached input of the same type, so a value
// the browser would sanitize away is refused before the field changes.
function acceptsValue(el, t, s) {
  if (s === '' || t === 'text' || t === 'search' || t === 'password' || t === 'tel' || t === 'url' || t === 'email') return true;
  const probe = el.ownerDocument.createElement('input');
  probe.type = t;
  probe.value = s;
  return probe.value !== '';
}

function setChecked(el, t, v) {
  if (v.kind !== 'bool') fail('mismatch', 'a ' + (v.kind || 'missing') + ' value does not fit a ' + t);
  const want = !!v.bool;
  if (el.checked === want) return {};
  if (t === 'radio' && !want) fail('mismatch', 'a radio button is cleared by choosing another option');
  // click() runs the page's listeners and fires input/change like a user.
  el.click();
  if (el.checked !== want) fail('rejected', 'the page kept the previous state');
  return {};
}

function setSelect(el, v) {
  if (v.kind === 'bool') fail('mismatch', 'a boolean does not fit a select');
  const s = norm(valueString(v, 'a select'));
  const opts = el.options;
  let hit = -1;
  // Visible option text first (exact, then case-insensitive), then value.
  for (let i = 0; i < opts.length && hit < 0; i++) if (norm(opts[i].text) === s) hit = i;
  const ls = s.toLowerCase();
  for (let i = 0; i < opts.length && hit < 0; i++) if (norm(opts[i].text).toLowerCase() === ls) hit = i;
  for (let i = 0; i < opts.length && hit < 0; i++) if (opts[i].value === s) hit = i;
  if (hit < 0) fail('no_match', 'no option has that text or value');
  const o = opts[hit];
  if (o.disabled || (o.parentElement && o.parentElement.localName === 'optgroup' && o.parentElement.disabled)) fail('disabled', 'that option is disabled');
  let changed = false;
  if (el.multiple) {
    for (let i = 0; i < opts.length; i++) {
      const want = i === hit;
      if (opts[i].selected !== want) { opts[i].selected = want; changed = true; }
    }
  } else if (el.selectedIndex !== hit) {
    el.selectedIndex = hit;
    changed = true;
  }
  if (changed) {
    focusQuiet(el);
    fire(el, 'input');
    fire(el, 'change');
  }
  return {};
}

function focusEl(a) {
  const el = effective(lookup(a.id));
  if (isDisabled(el, el.localName)) fail('disabled', 'the control is disabled');
  el.focus();
  const act = deepActive();
  if (act !== el && !(act && editableHost(el) && containsDeep(el, act))) fail('not_focusable', 'the element did not take focus');
  return {};
}

function clearEl(a) {
  const cx = mkcx(a);
  const el = effective(lookup(a.id));
  const tag = el.localName;
  checkWritable(el, tag, cx);
  if (tag === 'textarea' || isTextInput(el, tag)) {
    setText(el, '');
    return {};
  }
  if (editableHost(el)) {
    setEditableText(el, '');
    return {};
  }
  fail('not_editable', 'the element holds no text to clear');
}

// focused: the focused element (through shadow roots and same-origin
// frames), the body and the document excepted.
function focused() {
  const a = deepActive();
  if (a && a.nodeType === 1 && a.localName !== 'body' && a.localName !== 'html') return { id: idOf(a), ok: true };
  return { ok: false };
}

function focusedEditable() {
  const a = deepActive();
  if (a && a.nodeType === 1 && isEditable(a, a.localName)) return { id: idOf(a), ok: true };
  return { ok: false };
}

function scrollable(el, dx, dy) {
  const cs = styleOf(el);
  if (dy && /(auto|scroll|overlay)/.test(cs.overflowY) && el.scrollHeight > el.clientHeight) return true;
  if (dx && /(auto|scroll|overlay)/.test(cs.overflowX) && el.scrollWidth > el.clientWidth) return true;
  return false;
}

// scrollByXY scrolls the window; when the window cannot move (apps that
// scroll an inner pane), it scrolls the pane under the viewport centre.
function scrollByXY(a) {
  const dx = +a.dx || 0, dy = +a.dy || 0;
  const x0 = scrollX, y0 = scrollY;
  window.scrollBy({ left: dx, top: dy, behavior: 'instant' });
  if (scrollX !== x0 || scrollY !== y0 || (!dx && !dy)) {
    return { x: scrollX, y: scrollY, scrolled: scrollX !== x0 || scrollY !== y0 };
  }
  const v = viewport();
  for (let n = deepHit(v.w / 2, v.h / 2), i = 0; n && n.nodeType === 1 && i < COVER_STEPS; n = flatParent(n), i++) {
    if (n === document.documentElement || n === document.body) break;
    if (!scrollable(n, dx, dy)) continue;
    const sx = n.scrollLeft, sy = n.scrollTop;
    n.scrollBy({ left: dx, top: dy, behavior: 'instant' });
    if (n.scrollLeft !== sx || n.scrollTop !== sy) {
      return { x: n.scrollLeft, y: n.scrollTop, scrolled: true, container: true };
    }
  }
  return { x: scrollX, y: scrollY, scrolled: false };
}

// reveal scrolls the element into view (centred) when it is not, and names
// it: what a scroll to a target reports. Unlike locate it tests no point
// for input (five hit tests after a scroll, half a millisecond measured), and
// an inert or disabled element is revealed as any other.
function reveal(a) {
  const cx = mkcx(a);
  const el = lookup(a.id);
  if (visState(el) !== VIS_SHOWN) fail('hidden', 'the element is not rendered or has no size');
  const scrolled = !inView(boxOf(el));
  if (scrolled) bringIntoView(el);
  const tag = el.localName;
  const role = classify(el, tag);
  return { role: role || 'generic', name: cut(nameOf(el, tag, role, cx), cx.nameMax), scrolled: scrolled, sx: scrollX, sy: scrollY };
}

function metrics(a) {
  return {
    viewportWidth: innerWidth, viewportHeight: innerHeight, scrollX: scrollX, scrollY: scrollY,
    devicePixelRatio: devicePixelRatio, readyState: document.readyState,
    title: cut(norm(document.title), a.titleMax), url: location.href,
  };
}

function isFileInput(a) {
  const el = effective(lookup(a.id));
  return { file: el.localName === 'input' && el.type === 'file' };
}

// fileInputs lists the document's file inputs (its own, not its frames'),
// at most max of them: an upload with no target takes the only one.
function fileInputs(a) {
  const all = document.querySelectorAll('input[type="file" i]');
  const ids = [];
  for (let i = 0; i < all.length && ids.length < (a.max || 2); i++) ids.push(idOf(all[i]));
  return { ids: ids, count: all.length };
}

function presentId(a) {
  const r = regById.get(a.id);
  const el = r && r.deref();
  return { present: !!el && present(el) };
}

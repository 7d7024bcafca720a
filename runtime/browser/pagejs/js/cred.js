// cred.js: the credential class of a field, from spec/credentials.cue's
// table (CRED and its CRED_* bounds, declared ahead of this file). It stands
// alone: the dispatch-time check (runtime/browser/input) runs this file by
// itself on whatever element is about to receive input, in any frame or
// shadow root, closed ones included.

// credText folds text to its words: camelCase split, lower case,
// punctuation and runs of space to one space, padded so ' word ' matches
// whole words only.
function credText(s) {
  s = String(s == null ? '' : s).slice(0, CRED_CONTEXT_CHARS);
  s = s.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase().replace(/[^a-z0-9]+/g, ' ').trim();
  return s ? ' ' + s + ' ' : '';
}

function credHas(hay, words) {
  if (!hay || !words) return false;
  for (const w of words) {
    const t = credText(w);
    if (t && hay.indexOf(t) >= 0) return true;
  }
  return false;
}

// credOwnText is a field's own names: name, id, placeholder, aria-label,
// title, its labels' and aria-labelledby's text.
function credOwnText(el) {
  const parts = [];
  for (const a of ['name', 'id', 'placeholder', 'aria-label', 'title']) {
    const v = el.getAttribute(a);
    if (v) parts.push(v);
  }
  try {
    if (el.labels) for (const l of el.labels) parts.push(String(l.textContent).slice(0, CRED_CONTEXT_CHARS));
  } catch (e) { /* a control without labels */ }
  const ids = el.getAttribute('aria-labelledby');
  if (ids) {
    const root = el.getRootNode();
    for (const id of ids.split(/\s+/)) {
      const l = id && root.getElementById ? root.getElementById(id) : null;
      if (l) parts.push(String(l.textContent).slice(0, CRED_CONTEXT_CHARS));
    }
  }
  return credText(parts.join(' '));
}

// credDigits: the field takes a short run of digits (a one-time code box).
function credDigits(el, tag) {
  if (tag !== 'input') return false;
  const im = (el.getAttribute('inputmode') || '').toLowerCase();
  const ty = (el.getAttribute('type') || '').toLowerCase();
  const pat = el.getAttribute('pattern') || '';
  const digits = im === 'numeric' || ty === 'number' || ty === 'tel' || /^(\\d|\[0-9\])/.test(pat);
  if (!digits) return false;
  const n = parseInt(el.getAttribute('maxlength') || '', 10);
  return n > 0 && n <= CRED_NUMERIC_LENGTH;
}

// credNear is the text around a field: its ancestors' (through shadow
// hosts), CRED_CONTEXT_STEPS up, each cut to CRED_CONTEXT_CHARS.
function credNear(el) {
  const parts = [];
  let n = el;
  for (let i = 0; i < CRED_CONTEXT_STEPS && n; i++) {
    n = n.parentElement || (n.parentNode && n.parentNode.host) || null;
    if (n) parts.push(String(n.textContent).slice(0, CRED_CONTEXT_CHARS));
  }
  return credText(parts.join(' '));
}

// Input types that never take typed text or a file: no class.
const CRED_NO_TEXT = new Set(['hidden', 'checkbox', 'radio', 'submit', 'reset', 'button', 'image', 'range', 'color']);

// credClass returns the field's class name, or '' when it is none.
function credClass(el) {
  if (!el || el.nodeType !== 1) return '';
  const tag = el.localName;
  if (tag !== 'input' && tag !== 'textarea' && tag !== 'select') return '';
  const ty = tag === 'input' ? String(el.type || '').toLowerCase() : '';
  if (CRED_NO_TEXT.has(ty)) return '';
  const ac = ' ' + (el.getAttribute('autocomplete') || '').toLowerCase().trim().split(/\s+/).join(' ') + ' ';
  for (const c of CRED) {
    if (ty && c.inputTypes && c.inputTypes.indexOf(ty) >= 0) return c.name;
    if (c.autocomplete) for (const t of c.autocomplete) if (ac.indexOf(' ' + t + ' ') >= 0) return c.name;
  }
  // A file input is classed by its markup only: a name is no secret of its.
  if (ty === 'file') return '';
  const own = credOwnText(el);
  for (const c of CRED) if (credHas(own, c.words)) return c.name;
  let near;
  for (const c of CRED) {
    if (!c.numeric || !credDigits(el, tag)) continue;
    if (near === undefined) near = own + credNear(el);
    if (credHas(near, c.contextWords)) return c.name;
  }
  return '';
}

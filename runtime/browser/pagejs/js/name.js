// name.js: a simplified accessible-name computation. Editable values (text
// inputs, textareas, contenteditable content) are never a name source.

// Roles whose name comes from their content when nothing else names them.
// paragraph, blockquote and listitem are not name-from-content in ARIA, but
// a bounded text excerpt is how a model recognises a text block.
const NAME_FROM_CONTENT = new Set([
  'button', 'link', 'checkbox', 'radio', 'switch', 'tab', 'menuitem', 'menuitemcheckbox',
  'menuitemradio', 'option', 'treeitem', 'heading', 'cell', 'gridcell', 'columnheader',
  'rowheader', 'row', 'tooltip', 'term', 'definition', 'generic', 'paragraph', 'blockquote',
  'listitem', 'status', 'alert',
]);

const LABELABLE = new Set(['input', 'select', 'textarea', 'button', 'meter', 'output', 'progress']);

// Elements rendered inline: text inside them joins the surrounding words.
const INLINE_TAGS = new Set([
  'a', 'abbr', 'b', 'bdi', 'bdo', 'cite', 'code', 'data', 'dfn', 'em', 'font', 'i', 'kbd', 'label',
  'mark', 'q', 's', 'samp', 'small', 'span', 'strong', 'sub', 'sup', 'time', 'u', 'var', 'del',
  'ins', 'img', 'wbr', 'slot', 'nobr', 'tt', 'big', 'strike',
]);

// Subtrees that never contribute text.
const NO_TEXT_TAGS = new Set([
  'script', 'style', 'template', 'noscript', 'textarea', 'select', 'iframe', 'frame', 'object',
  'embed', 'canvas', 'video', 'audio', 'head',
]);

function labelMap(root, cx) {
  let m = cx.labelMaps.get(root);
  if (m) return m;
  m = new Map();
  if (root.querySelectorAll) {
    const ls = root.querySelectorAll('label[for]');
    for (let i = 0; i < ls.length; i++) {
      const f = ls[i].htmlFor;
      const arr = m.get(f);
      if (arr) arr.push(ls[i]); else m.set(f, [ls[i]]);
    }
  }
  cx.labelMaps.set(root, m);
  return m;
}

// textOf collects the text alternative of el's content.
function textOf(el, budget, skip) {
  const out = { s: '', n: budget > 0 ? budget : Infinity };
  collectText(el, out, skip || null, 0);
  return out.s;
}

function collectText(node, out, skip, depth) {
  const kids = flatKids(node);
  for (let i = 0; i < kids.length; i++) {
    if (out.s.length >= out.n) return;
    const c = kids[i];
    const nt = c.nodeType;
    if (nt === 3) {
      out.s += c.data;
      continue;
    }
    if (nt !== 1 || c === skip) continue;
    const t = c.localName;
    if (NO_TEXT_TAGS.has(t)) continue;
    if (t === 'input') {
      const ty = c.type;
      if (ty === 'submit' || ty === 'reset' || ty === 'button') out.s += ' ' + buttonValue(c) + ' ';
      else if (ty === 'image') out.s += ' ' + (c.getAttribute('alt') || '') + ' ';
      continue;
    }
    if (t === 'img' || t === 'area') {
      const alt = c.getAttribute('alt');
      if (alt) out.s += alt;
      continue;
    }
    if (t === 'br') {
      out.s += ' ';
      continue;
    }
    if (c.getAttribute('aria-hidden') === 'true' || c.hidden) continue;
    if (c.hasAttribute('contenteditable') && c.getAttribute('contenteditable') !== 'false') continue;
    const al = c.getAttribute('aria-label');
    if (al && al.trim()) {
      out.s += ' ' + al + ' ';
      continue;
    }
    if (t === 'svg') {
      const ti = c.querySelector('title');
      if (ti) out.s += ' ' + ti.textContent + ' ';
      continue;
    }
    const inl = INLINE_TAGS.has(t);
    if (!inl) out.s += ' ';
    if (depth < MAX_DEPTH) collectText(c, out, skip, depth + 1);
    if (!inl) out.s += ' ';
  }
}

function buttonValue(el) {
  const v = el.getAttribute('value');
  if (v !== null) return v;
  if (el.type === 'submit') return 'Submit';
  if (el.type === 'reset') return 'Reset';
  return '';
}

function labelledBy(el, ids, cx) {
  const root = el.getRootNode();
  if (!root.getElementById) return '';
  let s = '';
  for (const id of ids.trim().split(/\s+/)) {
    const r = root.getElementById(id);
    if (!r || r === el) continue;
    const al = r.getAttribute('aria-label');
    s += ' ' + ((al && al.trim()) ? al : textOf(r, cx.budget, null));
  }
  return s;
}

function labelText(el, cx) {
  let s = '';
  let wrapCounted = null;
  if (el.id) {
    const ls = labelMap(el.getRootNode(), cx).get(el.id);
    if (ls) {
      for (const l of ls) {
        s += ' ' + textOf(l, cx.budget, el);
        wrapCounted = wrapCounted || l;
      }
    }
  }
  const w = el.closest('label');
  if (w && w !== wrapCounted && (!w.htmlFor || w.htmlFor === el.id)) s += ' ' + textOf(w, cx.budget, el);
  return s;
}

function nativeName(el, tag) {
  switch (tag) {
    case 'img': case 'area': return el.getAttribute('alt') || '';
    case 'input': {
      const t = el.type;
      if (t === 'submit' || t === 'reset' || t === 'button') return buttonValue(el);
      if (t === 'image') return el.getAttribute('alt') || el.getAttribute('value') || 'Submit';
      return '';
    }
    case 'fieldset': {
      const l = el.querySelector(':scope > legend');
      return l ? textOf(l, 0, null) : '';
    }
    case 'table': {
      const c = el.caption;
      return c ? textOf(c, 0, null) : '';
    }
    case 'figure': {
      const c = el.querySelector(':scope > figcaption');
      return c ? textOf(c, 0, null) : '';
    }
  }
  return '';
}

// nameOf returns el's normalized, uncut accessible name.
function nameOf(el, tag, role, cx) {
  let s = '';
  const lb = el.getAttribute('aria-labelledby');
  if (lb) s = norm(labelledBy(el, lb, cx));
  if (s) return s;
  const al = el.getAttribute('aria-label');
  if (al) s = norm(al);
  if (s) return s;
  if (LABELABLE.has(tag)) s = norm(labelText(el, cx));
  if (s) return s;
  s = norm(nativeName(el, tag));
  if (s) return s;
  if (tag === 'label') {
    // A label standing in for its hidden control is named by its text.
    s = norm(textOf(el, cx.budget, null));
    if (s) return s;
  }
  // An element without a role (a text block found by find) is named by its text.
  if ((!role || NAME_FROM_CONTENT.has(role)) && !opaqueControl(tag) && !editableHost(el)) s = norm(textOf(el, cx.budget, null));
  if (s) return s;
  const ti = el.getAttribute('title');
  if (ti) s = norm(ti);
  if (s) return s;
  if (tag === 'input' || tag === 'textarea') s = norm(el.getAttribute('placeholder') || '');
  if (s) return s;
  return norm(el.getAttribute('aria-placeholder') || el.getAttribute('data-placeholder') || '');
}

// givenName is the part of nameOf that does not come from content: what an
// author or the markup names a region, landmark, image or named container
// by. Content names are left to find's text-block path, which reads only
// visible text; a generic's title is a description, not a name.
function givenName(el, tag, role, cx) {
  let s = '';
  const lb = el.getAttribute('aria-labelledby');
  if (lb) s = norm(labelledBy(el, lb, cx));
  if (s) return s;
  const al = el.getAttribute('aria-label');
  if (al) s = norm(al);
  if (s || !role || role === 'generic') return s;
  s = norm(nativeName(el, tag));
  if (s || NAME_FROM_CONTENT.has(role)) return s;
  const ti = el.getAttribute('title');
  return ti ? norm(ti) : '';
}

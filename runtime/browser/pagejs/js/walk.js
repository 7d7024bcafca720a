// walk.js: flat-tree traversal in document order. Open shadow roots are
// walked instead of the host's light children, slots yield their assigned
// nodes (or fallback content), same-origin frames are entered, closed
// <details> show only their summary, and an open modal dialog makes the
// rest of its document inert.

const SKIP_TAGS = new Set(['script', 'style', 'template', 'noscript', 'head', 'meta', 'link', 'title', 'base']);

// v = { enter(el, tag) -> GO|SKIP|STOP, leave?(el), text?(textNode) }
function walkDoc(doc, v) {
  const modal = doc.querySelector(':modal');
  const start = modal || docRoot(doc);
  if (!start) return false;
  return walkEl(start, v, 0);
}

function walkFrom(el, v) {
  return walkChildren(el, v, 0);
}

function walkEl(el, v, depth) {
  const tag = el.localName;
  if (SKIP_TAGS.has(tag) || hiddenByAttr(el)) return false;
  const r = v.enter(el, tag);
  if (r === STOP) return true;
  if (r !== SKIP && depth < MAX_DEPTH) {
    if (walkChildren(el, v, depth + 1)) return true;
  }
  if (v.leave) v.leave(el, tag);
  return false;
}

function walkChildren(el, v, depth) {
  const wantText = !!v.text;
  const sr = el.shadowRoot;
  let kids;
  if (sr) {
    kids = wantText ? sr.childNodes : sr.children;
  } else {
    const tag = el.localName;
    if (tag === 'slot') {
      kids = el.assignedNodes();
      if (!kids.length) kids = wantText ? el.childNodes : el.children;
    } else if (isFrame(tag)) {
      const d = frameDoc(el);
      return d ? walkDoc(d, v) : false;
    } else if (tag === 'details' && !el.open) {
      for (let c = el.firstElementChild; c; c = c.nextElementSibling) {
        if (c.localName === 'summary') return walkEl(c, v, depth);
      }
      return false;
    } else if (!wantText) {
      // The common case: sibling pointers are cheaper than a live collection.
      for (let c = el.firstElementChild; c; c = c.nextElementSibling) {
        if (walkEl(c, v, depth)) return true;
      }
      return false;
    } else {
      kids = el.childNodes;
    }
  }
  for (let i = 0; i < kids.length; i++) {
    const c = kids[i];
    const t = c.nodeType;
    if (t === 1) {
      if (walkEl(c, v, depth)) return true;
    } else if (t === 3 && wantText) {
      v.text(c);
    }
  }
  return false;
}

// flatKids: child nodes in the flat tree (used by text collection).
function flatKids(el) {
  if (el.shadowRoot) return el.shadowRoot.childNodes;
  if (el.localName === 'slot') {
    const a = el.assignedNodes();
    return a.length ? a : el.childNodes;
  }
  return el.childNodes;
}

// flatParent: parent in the composed tree, crossing shadow roots and
// same-origin frame boundaries.
function flatParent(n) {
  if (n.assignedSlot) return n.assignedSlot;
  const p = n.parentNode;
  if (!p) return null;
  if (p.nodeType === 11 && p.host) return p.host;
  if (p.nodeType === 9) {
    const w = p.defaultView;
    try { return w ? w.frameElement : null; } catch (e) { return null; }
  }
  return p;
}

// containsDeep: is inner el itself or inside it (composed, across frames)?
function containsDeep(el, inner) {
  for (let n = inner, i = 0; n && i < ANCESTOR_STEPS; i++) {
    if (n === el) return true;
    n = flatParent(n);
  }
  return false;
}

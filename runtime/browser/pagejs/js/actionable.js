// actionable.js: one look at a target for the actionability decision
// (actionable.Decide, fed by AwaitActionable once per animation frame). It never
// fails on a condition the page may still change (hidden, disabled,
// covered): it reports them. Only a gone element throws (lookup).

function actSample(a) {
  const cx = mkcx(a);
  const el = lookup(a.id);
  const tgt = effective(el);
  const s = { vis: false, en: true, hit: false };
  if (visState(el) !== VIS_SHOWN) return s;
  s.en = !el.closest('[inert]') && (!!a.allowDisabled || !isDisabled(tgt, tgt.localName));
  if (a.keys) {
    // Focus and page code reach the element wherever it is.
    s.box = boxOf(el);
    s.vis = true;
    s.hit = true;
    return s;
  }
  let scrolled = false;
  let b = boxOf(el);
  if (!inView(b)) {
    bringIntoView(el);
    scrolled = true;
    b = boxOf(el);
  }
  let p = hitPoint(el, tgt, b);
  if (!p && !scrolled && a.first) {
    // Only the first look scrolls a covered element to the centre: later
    // ones wait for the cover to go rather than chase it.
    bringIntoView(el);
    scrolled = true;
    b = boxOf(el);
    p = hitPoint(el, tgt, b);
  }
  s.box = b;
  s.scrolled = scrolled;
  if (!p) {
    const v = viewport();
    const x = b.x + b.width / 2, y = b.y + b.height / 2;
    if (x < 0 || y < 0 || x >= v.w || y >= v.h) return s;
    s.vis = true;
    if (!a.allowObscured) {
      const c = describeCover(deepHit(x, y), el, cx);
      s.coverRole = c.role;
      s.coverName = c.name;
      return s;
    }
    p = { x: x, y: y };
  }
  s.vis = true;
  s.hit = true;
  s.x = p.x;
  s.y = p.y;
  if (!a.allowObscured && animatingOver(el, p)) s.anim = true;
  // What a locate answers, read only once the target can take the action.
  if (s.en) {
    const tag = el.localName;
    const role = classify(el, tag);
    const ttag = tgt.localName;
    s.role = role || 'generic';
    s.name = cut(nameOf(el, tag, role, cx), cx.nameMax);
    s.tag = ttag;
    s.inputType = ttag === 'input' ? tgt.type : '';
    s.sx = scrollX;
    s.sy = scrollY;
    if (isCredential(tgt, ttag, cx)) s.credential = true;
    if (isEditable(tgt, ttag)) s.editable = true;
    const sub = submitTarget(tgt, ttag), ent = enterTarget(tgt, ttag);
    if (sub) s.submit = sub;
    if (ent) s.enter = ent;
  }
  return s;
}

// animatingOver: a finite animation, ending within COVER_ANIMATION_MS, runs on
// an element that is neither el's ancestor nor inside it and whose box holds
// the top-viewport point p. A popup closing over el (Shoelace's listbox) is
// hit-tested again, at full size, for a frame after its hide animation ends
// and before its finish handler hides it, so a press checked just before
// lands on it. Animations in shadow roots count: document.getAnimations leaves
// them out, so every open root of el's document is asked (at most
// COVER_ANIMATION_NODES elements visited to find them).
function animatingOver(el, p) {
  const doc = el.ownerDocument;
  const roots = [doc];
  let n = 0;
  for (let i = 0; i < roots.length && n < COVER_ANIMATION_NODES; i++) {
    const w = doc.createTreeWalker(roots[i], NodeFilter.SHOW_ELEMENT);
    for (let e = w.nextNode(); e && n < COVER_ANIMATION_NODES; e = w.nextNode()) {
      n++;
      if (e.shadowRoot) roots.push(e.shadowRoot);
    }
  }
  for (const r of roots) {
    for (const an of r.getAnimations()) {
      const t = an.effect && an.effect.target;
      if (an.playState !== 'running' || !t || t.nodeType !== 1 || containsDeep(el, t) || containsDeep(t, el)) continue;
      const ct = an.effect.getComputedTiming();
      if (!isFinite(ct.endTime) || ct.endTime - (ct.localTime || 0) > COVER_ANIMATION_MS) continue;
      if (holds(boxOf(t), p) || holds(untransformedBox(t), p)) return true;
    }
  }
  return false;
}

function holds(b, p) {
  return !!b && p.x >= b.x && p.x < b.x + b.width && p.y >= b.y && p.y < b.y + b.height;
}

// untransformedBox: el's layout box without its transforms (offset* ignore
// them), in top-viewport CSS pixels. An element scaling out is drawn smaller
// than the box it comes back to when its animation ends (Shoelace's popup
// scales to 0.9 as it hides, clearing a checkbox at its edge, then covers it
// again at full size for a frame): both boxes count.
function untransformedBox(el) {
  if (!(el instanceof HTMLElement)) return null;
  let x = el.offsetLeft, y = el.offsetTop;
  const op = el.offsetParent;
  if (op) {
    const r = op.getBoundingClientRect();
    x += r.left + op.clientLeft;
    y += r.top + op.clientTop;
  }
  const o = frameOffset(el);
  return { x: x + o.x, y: y + o.y, width: el.offsetWidth, height: el.offsetHeight };
}

// pointSample: the element at a top-viewport point and its box, for a view
// point's stability (the same element, the same box, two frames running).
function pointSample(a) {
  const e = deepHit(a.x, a.y);
  if (!e || e.nodeType !== 1) return { key: 0 };
  return { key: idOf(e), box: boxOf(e) };
}

// dragSample: during a drag, the element under the destination point and its
// box, and the dragged element's box (input.PaceDrag decides from them).
function dragSample(a) {
  const e = deepHit(a.x, a.y);
  const out = { key: 0 };
  if (e && e.nodeType === 1) {
    out.key = idOf(e);
    out.box = boxOf(e);
  }
  if (a.src > 0) {
    const r = regById.get(a.src);
    const s = r && r.deref();
    if (s && alive(s)) out.src = boxOf(s);
  }
  return out;
}

// dragPlace: where the dragged element sits in its document (its parent, its
// index among the parent's children, its box), to tell after a drop whether
// the page moved it.
function dragPlace(a) {
  const r = regById.get(a.id);
  const el = r && r.deref();
  if (!el || !alive(el)) return { gone: true };
  const p = el.parentNode;
  let i = 0;
  for (let n = el; n.previousElementSibling; n = n.previousElementSibling) i++;
  return { parent: p && p.nodeType === 1 ? idOf(p) : 0, index: i, box: boxOf(el) };
}

// release.js: between a click's press and its release (pagejs.PressWatch,
// actionable.DecideRelease). pressArm notes what is added to the document
// from then on, so a cover the press itself brought up (a menu opening on
// mousedown over its trigger) is told from one that was already there (a
// listbox animating out). releaseSample looks at the point; releaseWithhold
// swallows a release the target would not get, and the click it would make.

let pressObs = null, pressAdded = null;

function pressDisarm() {
  if (pressObs) pressObs.disconnect();
  pressObs = null;
  pressAdded = null;
}

function pressNote(recs) {
  for (const r of recs) for (const n of r.addedNodes) pressAdded.add(n);
}

function pressArm(a) {
  pressDisarm();
  pressAdded = new WeakSet();
  pressObs = new MutationObserver(pressNote);
  pressObs.observe(document, { childList: true, subtree: true });
  return true;
}

function releaseSample(a) {
  const r = regById.get(a.id);
  const el = r && r.deref();
  if (!el || !alive(el)) { pressDisarm(); return { hit: true }; }
  const tgt = effective(el);
  const h = deepHit(a.x, a.y);
  if (receives(el, tgt, h)) { pressDisarm(); return { hit: true }; }
  // An ancestor at the point: the target stopped taking pointer events
  // (a modal menu's body { pointer-events: none }); nothing covers it.
  if (!h || containsDeep(h, el)) { pressDisarm(); return { hit: false, beneath: true }; }
  if (pressObs) pressNote(pressObs.takeRecords());
  let fresh = false;
  for (let n = h, i = 0; n && pressAdded && i < ANCESTOR_STEPS; n = flatParent(n), i++) {
    if (pressAdded.has(n)) { fresh = true; break; }
  }
  if (fresh) { pressDisarm(); return { hit: false, fresh: true }; }
  const c = describeCover(h, el, mkcx(a));
  return { hit: false, fresh: false, coverRole: c.role, coverName: c.name };
}

// releaseWithhold: until the release's click has passed (or a.ms), a
// trusted release event or click whose path misses the target goes no
// further: the page's handlers never see it and its default is prevented.
function releaseWithhold(a) {
  pressDisarm();
  const r = regById.get(a.id);
  const el = r && r.deref();
  const tgt = el ? effective(el) : null;
  const types = ['pointerup', 'mouseup', 'click', 'auxclick', 'contextmenu', 'dblclick'];
  let gone = false;
  const done = () => {
    if (gone) return;
    gone = true;
    for (const t of types) window.removeEventListener(t, stop, true);
  };
  const stop = (e) => {
    if (!e.isTrusted) return;
    const path = e.composedPath();
    if (!(el && path.includes(el)) && !(tgt && path.includes(tgt))) {
      e.preventDefault();
      e.stopImmediatePropagation();
    }
    if (e.type === 'click' || e.type === 'auxclick' || e.type === 'contextmenu') setTimeout(done, 0);
  };
  for (const t of types) window.addEventListener(t, stop, true);
  setTimeout(done, a.ms);
  return true;
}

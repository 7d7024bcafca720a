// registry.js: element <-> id for the life of this document. WeakMap and
// WeakRef keep the registry from holding removed elements alive.

const regByEl = new WeakMap();
const regById = new Map();
let regNext = 0;
// Dead WeakRefs are swept every SWEEP_EVERY registrations.

function idOf(el) {
  let id = regByEl.get(el);
  if (id !== undefined) return id;
  if (regNext + 1 >= ID_STRIDE) fail('internal', 'element registry exhausted for this document');
  id = ID_BASE + (++regNext);
  regByEl.set(el, id);
  regById.set(id, new WeakRef(el));
  if (regNext % SWEEP_EVERY === 0) {
    for (const [k, r] of regById) if (!r.deref()) regById.delete(k);
  }
  return id;
}

// alive: connected, in a document that still has a window, inside frames
// that are themselves connected all the way up to the top document.
function alive(el) {
  let n = el;
  for (let i = 0; i < SHADOW_STEPS; i++) {
    if (!n.isConnected) return false;
    const d = n.ownerDocument;
    if (d === document) return true;
    const w = d && d.defaultView;
    if (!w) return false;
    let fe = null;
    try { fe = w.frameElement; } catch (e) { return false; }
    if (!fe) return false;
    n = fe;
  }
  return false;
}

// lookup returns the live element for id or throws stale.
function lookup(id) {
  if (typeof id !== 'number' || !Number.isInteger(id) || id <= 0) fail('bad_request', 'element id must be a positive integer');
  const r = regById.get(id);
  const el = r && r.deref();
  if (!el) {
    if (id < ID_BASE || id >= ID_BASE + ID_STRIDE) fail('stale', 'the id belongs to an earlier document');
    fail('stale', 'the element no longer exists');
  }
  if (!alive(el)) fail('stale', 'the element was removed from the document');
  return el;
}

function elementObject(id) {
  try {
    return effective(lookup(id));
  } catch (e) {
    const k = (e && e.glKind) || 'internal';
    throw new Error('GLERR:' + JSON.stringify({ kind: k, detail: e.message }));
  }
}

// core.js: shared constants and helpers. Every file of this directory is
// concatenated, in the order js.go lists, into one function body that runs
// once per isolated world with SERIAL (the installation serial) in scope.
// Nothing is written to the page's DOM or to any global of the page.

// Ids are SERIAL * ID_STRIDE + n, so ids from different documents (and so
// different installations) never collide.
const ID_STRIDE = 1000000;
const ID_BASE = SERIAL * ID_STRIDE;

// Walk results returned by visitors.
const GO = 0, SKIP = 1, STOP = 2;

// Element kinds produced by classify().
const K_CONTROL = 1, K_STRUCT = 2;

// Limits (MAX_DEPTH, ANCESTOR_STEPS, COVER_STEPS, SHADOW_STEPS,
// FRAME_STEPS, ERROR_CHARS, SWEEP_EVERY, ARTICLE_MIN_CHARS, PARA_MIN_CHARS,
// HAY_CHARS, HAY_PAD, JUDGED_CANDIDATES)
// are declared ahead of this file from spec/ (js.go).

function fail(kind, detail, extra) {
  const e = new Error(detail || kind);
  e.glKind = kind;
  e.glExtra = extra || null;
  throw e;
}

// envelope wraps an entry point: {ok: result} or {err: {...}}, returned as
// one JSON string. V8's JSON.stringify plus a single string value is much
// cheaper than DevTools serializing a deep object property by property.
function envelope(f) {
  return function (a) {
    let r;
    try {
      r = { ok: f(a || {}) };
    } catch (e) {
      if (e && e.glKind) {
        const x = e.glExtra || {};
        r = { err: { kind: e.glKind, detail: e.message, count: x.count || 0, role: x.role || '', name: x.name || '' } };
      } else {
        r = { err: { kind: 'internal', detail: String((e && e.stack) || e).slice(0, ERROR_CHARS) } };
      }
    }
    // The document's readiness rides along, so a perception result needs
    // no round trip of its own to say whether the page was still loading.
    r.rs = document.readyState;
    return JSON.stringify(r);
  };
}

const WS = /\s+/g;
function norm(s) {
  return s ? s.replace(WS, ' ').trim() : '';
}

let segmenter = null;
// cut keeps the first max grapheme clusters of s (max <= 0: uncut).
function cut(s, max) {
  if (!(max > 0) || s.length <= max) return s;
  if (!segmenter) segmenter = new Intl.Segmenter(undefined, { granularity: 'grapheme' });
  let n = 0, end = 0;
  for (const g of segmenter.segment(s)) {
    if (n === max) break;
    n++;
    end = g.index + g.segment.length;
  }
  return s.slice(0, end).trimEnd();
}

// cutRunes keeps the first max code points of s; returns [text, truncated].
function cutRunes(s, max) {
  if (!(max > 0) || s.length <= max) return [s, false];
  let n = 0, i = 0;
  while (i < s.length) {
    if (n === max) return [s.slice(0, i), true];
    const c = s.charCodeAt(i);
    i += (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) ? 2 : 1;
    n++;
  }
  return [s, false];
}

// Per-call context: bounds and caches that must not outlive one call.
function mkcx(a) {
  const cred = new Set();
  if (Array.isArray(a.credentialAutocomplete)) {
    for (const t of a.credentialAutocomplete) cred.add(String(t).toLowerCase());
  }
  const nameMax = a.nameMax > 0 ? a.nameMax : 0;
  return {
    nameMax: nameMax,
    budget: nameMax > 0 ? nameMax * 4 + 256 : Infinity,
    cred: cred,
    labelMaps: new Map(),
    active: undefined,
  };
}

function isFrame(tag) {
  return tag === 'iframe' || tag === 'frame';
}

// frameDoc returns a same-origin frame's document, or null.
function frameDoc(el) {
  try {
    const d = el.contentDocument;
    return d && d.defaultView ? d : null;
  } catch (e) {
    return null;
  }
}

function docRoot(doc) {
  return doc.body || doc.documentElement;
}

// deepActive follows focus through open shadow roots and same-origin frames.
function deepActive() {
  let a = document.activeElement;
  for (let i = 0; a && i < SHADOW_STEPS; i++) {
    if (a.shadowRoot && a.shadowRoot.activeElement) {
      a = a.shadowRoot.activeElement;
      continue;
    }
    if (isFrame(a.localName)) {
      const d = frameDoc(a);
      if (d && d.activeElement && d.activeElement !== d.body && d.activeElement !== d.documentElement) {
        a = d.activeElement;
        continue;
      }
    }
    break;
  }
  return a || null;
}

function activeOf(cx) {
  if (cx.active === undefined) cx.active = deepActive();
  return cx.active;
}

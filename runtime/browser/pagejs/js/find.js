// find.js: ranked text search over the whole rendered document (not just
// the viewport) and typed semantic selector resolution.

const WORD_CHAR = /[\p{L}\p{N}_]/u;

function isWordChar(s, i) {
  return i >= 0 && i < s.length && WORD_CHAR.test(s[i]);
}

// Scores: exact 4 > prefix 3 > whole-word 2 > substring 1; 0 = no match.
// name and q are normalized and lower-cased.
function scoreOf(name, q) {
  if (!name) return 0;
  if (name === q) return 4;
  let i = name.indexOf(q);
  if (i < 0) return 0;
  if (i === 0) return 3;
  for (; i >= 0; i = name.indexOf(q, i + 1)) {
    if (!isWordChar(name, i - 1) && !isWordChar(name, i + q.length)) return 2;
  }
  return 1;
}

// mayNameContain is a cheap superset test: false only when el's name
// provably cannot contain the query (some whitespace-free token of it is
// in none of the name's possible sources). Elements with element children,
// shadow roots, label associations or aria-labelledby take the full name
// computation.
function mayNameContain(el, tag, toks) {
  if (el.firstElementChild || el.shadowRoot || el.id || el.hasAttribute('aria-labelledby')) return true;
  if (tag === 'input' || (LABELABLE.has(tag) && el.closest('label'))) return true;
  let hay = el.textContent;
  for (const n of NAME_ATTRS) {
    const v = el.getAttribute(n);
    if (v) hay += '\n' + v;
  }
  hay = hay.toLowerCase();
  for (const t of toks) if (hay.indexOf(t) < 0) return false;
  return true;
}

const NAME_ATTRS = ['aria-label', 'title', 'alt', 'placeholder', 'aria-placeholder', 'data-placeholder'];

// find walks once without reading layout: names and text are gathered
// first, and only candidates that match pay for the visibility check (a
// hidden ancestor makes checkVisibility false, so nothing hidden slips
// through). Controls match by accessible name; every other element by the
// name it is given (landmarks, regions, images, named containers: see
// givenName) and, as a text block, by its own text. A matching text
// block's text is then re-collected skipping hidden descendants and scored
// again.
function find(a) {
  const q = norm(String(a.text || '')).toLowerCase();
  if (!q) fail('bad_request', 'find text is empty');
  const cx = mkcx(a);
  const toks = q.split(' ');
  const wantC = a.scope !== 'text';
  const wantT = a.scope !== 'control';
  const max = a.max > 0 ? a.max : Infinity;
  const hits = [];
  const flags = []; // per entered element: 2 opened a block, 4 control
  const blocks = [];
  let inControl = 0;
  let order = 0;
  const v = {
    enter(el, tag) {
      const role = classify(el, tag);
      const kind = clsKind;
      const opaque = isOpaque(el, tag);
      let f = 0;
      if (kind === K_CONTROL) {
        f = 4;
        inControl++;
        if (wantC && mayNameContain(el, tag, toks)) {
          const name = nameOf(el, tag, role, cx);
          const s = scoreOf(name.toLowerCase(), q);
          if (s && visState(el) === VIS_SHOWN) hits.push({ s: s, c: 1, o: order, el: el, tag: tag, role: role, name: name });
        }
      } else if (wantT) {
        // A landmark, region, image or named container matches by the name
        // it is given; an element inside a control is part of that control.
        let nh = null;
        if (!inControl && role !== 'presentation' && role !== 'none') {
          const name = givenName(el, tag, role, cx);
          const s = name ? scoreOf(name.toLowerCase(), q) : 0;
          if (s) nh = { s: s, c: 0, o: order, el: el, tag: tag, role: role, name: name };
        }
        if (!INLINE_TAGS.has(tag)) {
          blocks.push({ el: el, tag: tag, role: role, text: '', own: false, o: order, nh: nh });
          f = 2;
        } else if (nh && visState(el) === VIS_SHOWN) {
          hits.push(nh);
        }
      }
      order++;
      flags.push(f);
      return opaque ? SKIP : GO;
    },
    leave() {
      const f = flags.pop();
      if (f & 4) inControl--;
      if (f & 2) {
        // One element is one match: the better of its given name and its
        // own visible text (the given name at equal score).
        const b = blocks.pop();
        let best = b.nh;
        let shown = false;
        if (b.own) {
          let name = norm(b.text);
          if (scoreOf(name.toLowerCase(), q)) {
            if (visState(b.el) !== VIS_SHOWN) return;
            shown = true;
            name = norm(ownVisibleText(b.el));
            const s = scoreOf(name.toLowerCase(), q);
            if (s && (!best || s > best.s)) best = { s: s, c: 0, o: b.o, el: b.el, tag: b.tag, role: b.role, name: name };
          }
        }
        if (best && (shown || visState(b.el) === VIS_SHOWN)) hits.push(best);
      }
    },
  };
  if (wantT) {
    v.text = function (node) {
      if (!blocks.length) return;
      const b = blocks[blocks.length - 1];
      const d = node.data;
      b.text += d;
      if (!inControl && !b.own && /\S/.test(d)) b.own = true;
    };
  }
  walkDoc(document, v);
  hits.sort((x, y) => (y.s - x.s) || (y.c - x.c) || (x.o - y.o));
  const matches = [];
  for (let i = 0; i < hits.length && matches.length < max; i++) {
    const h = hits[i];
    const it = itemOf(h.el, h.tag, h.role, cx, h.name);
    it.score = h.s;
    if (a.hay) Object.assign(it, hayOf(norm(h.name), q));
    matches.push(it);
  }
  return { matches: matches, total: hits.length };
}

// hayOf is the text a match of q (normalised, lower-cased) was made on, given
// back only when Go asks for it: in a session where the person typed a
// secret, Go judges the match again on that text masked (runtime/echomask),
// so a query never tells by match or no match what the mask hides. The whole
// text when it fits HAY_CHARS; else windows around q's occurrences, reaching
// HAY_PAD either side, each its context and matched parts alternating, up to
// HAY_CHARS in all (more: occurrences left out). low: text lower-cased, when
// the caller has it.
function hayOf(text, q, low) {
  if (text.length <= HAY_CHARS) return { hay: text };
  if (low === undefined) low = text.toLowerCase();
  // Lower-casing may lengthen a text (U+0130): an occurrence found in low
  // lies in text at most d characters before where low has it.
  const d = Math.max(0, low.length - text.length);
  const wins = [];
  let cur = null, used = 0, more = false;
  for (let i = low.indexOf(q); i >= 0; i = low.indexOf(q, i + 1)) {
    const s = Math.max(0, i - d), e = Math.min(text.length, i + q.length);
    if (cur && s - HAY_PAD <= cur.to) {
      // Within reach of the current window: it grows to hold this one too.
      const to = Math.max(cur.to, Math.min(text.length, e + HAY_PAD));
      if (used + to - cur.to > HAY_CHARS) { more = true; break; }
      used += to - cur.to;
      cur.to = to;
      const last = cur.ms[cur.ms.length - 1];
      if (s <= last[1]) last[1] = Math.max(last[1], e);
      else cur.ms.push([s, e]);
      continue;
    }
    const from = Math.max(0, s - HAY_PAD), to = Math.min(text.length, e + HAY_PAD);
    if (cur && used + to - from > HAY_CHARS) { more = true; break; }
    cur = { from: from, to: to, ms: [[s, e]] };
    wins.push(cur);
    used += to - from;
  }
  const near = wins.map(function (w) {
    const parts = [];
    let at = w.from;
    for (const m of w.ms) {
      parts.push(text.slice(at, m[0]), text.slice(m[0], m[1]));
      at = m[1];
    }
    parts.push(text.slice(at, w.to));
    return parts;
  });
  return more ? { near: near, more: true } : { near: near };
}

// ownVisibleText: the text a block shows itself: its text nodes and those
// of inline descendants, skipping nested blocks, hidden elements, opaque
// controls and editable regions.
function ownVisibleText(block) {
  const out = [];
  const seen = new Map();
  (function rec(el, depth) {
    const kids = flatKids(el);
    for (let i = 0; i < kids.length; i++) {
      const c = kids[i];
      if (c.nodeType === 3) { out.push(c.data); continue; }
      if (c.nodeType !== 1 || depth > MAX_DEPTH) continue;
      const t = c.localName;
      if (SKIP_TAGS.has(t) || hiddenByAttr(c) || opaqueControl(t) || editableHost(c)) continue;
      if (!INLINE_TAGS.has(t) && clsKindOf(c) !== K_CONTROL) continue;
      if (!c.checkVisibility(CV_VIS)) {
        if (c.checkVisibility() || styleOf(c).display !== 'contents') continue;
      }
      rec(c, depth + 1);
    }
  })(block, 0);
  return out.join('');
}

function clsKindOf(el) {
  const k = clsKind, p = clsProxy;
  classify(el, el.localName);
  const r = clsKind;
  clsKind = k;
  clsProxy = p;
  return r;
}

// resolveSelector: one visible control named name (and of one of roles).
// exact: case-sensitive whole-name equality. Otherwise a case-insensitive
// whole-name match wins, else a case-insensitive substring match.
function resolveSelector(a) {
  const m = selectorMatches(a);
  const set = a.exact ? m.exact : (m.ci.length ? m.ci : m.sub);
  if (!set.length) fail('no_match', 'no visible control matches the selector');
  if (set.length > 1) fail('ambiguous', set.length + ' visible controls match the selector', { count: set.length });
  return { id: idOf(set[0].el) };
}

// selectorNames is what resolveSelector chooses from, for Go to choose on
// the names masked (a session where the person typed a secret: hayOf): the
// sets in resolveSelector's order of preference, each its count and its
// first JUDGED_CANDIDATES controls with the text their names matched on.
function selectorNames(a) {
  const m = selectorMatches(a);
  function tier(set, whole) {
    return {
      total: set.length,
      cands: set.slice(0, JUDGED_CANDIDATES).map(function (c) {
        // A whole-name match is matched on all of the name.
        return Object.assign({ id: idOf(c.el) }, whole ? { near: [['', c.n, '']] } : hayOf(c.n, m.lname));
      }),
    };
  }
  return { tiers: a.exact ? [tier(m.exact, true)] : [tier(m.ci, true), tier(m.sub, false)] };
}

// selectorMatches: the visible controls a selector names, as {el, n (its
// name)}, by how: exact (case-sensitive whole name), ci (case-insensitive
// whole name), sub (case-insensitive substring, ci's left out).
function selectorMatches(a) {
  const name = norm(String(a.name || ''));
  if (!name) fail('bad_request', 'selector name is empty');
  const lname = name.toLowerCase();
  const roles = new Set();
  if (a.role) roles.add(String(a.role).toLowerCase());
  if (Array.isArray(a.roles)) for (const r of a.roles) roles.add(String(r).toLowerCase());
  let want = K_CONTROL;
  for (const r of roles) if (STRUCT_ROLES.has(r)) want |= K_STRUCT;
  const cx = mkcx(a);
  const exact = [], ci = [], sub = [];
  walkDoc(document, {
    enter(el, tag) {
      const role = classify(el, tag);
      const kind = clsKind;
      const opaque = isOpaque(el, tag);
      if (!(kind & want) || (roles.size && !roles.has(role || 'generic'))) return opaque ? SKIP : GO;
      const vs = visState(el);
      if (vs === VIS_PRUNE) return SKIP;
      if (vs === VIS_SHOWN) {
        const n = nameOf(el, tag, role, cx);
        if (n === name) exact.push({ el: el, n: n });
        const ln = n.toLowerCase();
        if (ln === lname) ci.push({ el: el, n: n });
        else if (ln.indexOf(lname) >= 0) sub.push({ el: el, n: n });
      }
      return opaque ? SKIP : GO;
    },
  });
  return { lname: lname, exact: exact, ci: ci, sub: sub };
}

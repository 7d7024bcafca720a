// read.js: bounded prose. innerText does the rendering-aware work (hidden
// content excluded, block breaks kept) wherever a subtree is plain; a
// manual flat-tree walk takes over only along paths that lead to what
// innerText cannot handle: open shadow roots and same-origin frames (which
// it does not enter) and editable regions (whose content is a value and is
// never read).

// Minimum paragraph text under one block for it to count as the article
// when no main/article landmark exists; a heuristic, not a contract bound.

function markSpecials(root, dirty, depth) {
  if (depth > 16) return;
  const all = root.querySelectorAll('*');
  for (let i = 0; i < all.length; i++) {
    const e = all[i];
    let special = false;
    if (e.shadowRoot) {
      special = true;
      markSpecials(e.shadowRoot, dirty, depth + 1);
    } else if (isFrame(e.localName)) {
      const d = frameDoc(e);
      if (d) {
        special = true;
        markSpecials(d, dirty, depth + 1);
      }
    } else if (e.hasAttribute('contenteditable') && editableHost(e)) {
      special = true;
    }
    if (special) {
      for (let n = e; n && !dirty.has(n); n = flatParent(n)) dirty.add(n);
    }
  }
}

const BLOCKISH = /^(block|flex|grid|table|list-item|flow-root|table-row|table-caption|table-row-group|table-header-group|table-footer-group)/;

function visibleText(el) {
  const tag = el.localName;
  if (opaqueControl(tag) || editableHost(el)) return '';
  if (!el.checkVisibility(CV_VIS)) return '';
  const dirty = new WeakSet();
  markSpecials(el, dirty, 0);
  if (el.shadowRoot || isFrame(tag)) dirty.add(el);
  if (!dirty.has(el) && !hasDirtyChild(el, dirty)) return el.innerText || '';
  const out = [];
  manualText(el, dirty, out, 0);
  return out.join('');
}

function hasDirtyChild(el, dirty) {
  for (let c = el.firstElementChild; c; c = c.nextElementSibling) if (dirty.has(c)) return true;
  return false;
}

function manualText(node, dirty, out, depth) {
  if (depth > MAX_DEPTH) return;
  let kids;
  if (node.nodeType === 1 && isFrame(node.localName)) {
    const d = frameDoc(node);
    const r = d && docRoot(d);
    if (r) {
      out.push('\n');
      if (dirty.has(r)) manualText(r, dirty, out, depth + 1); else out.push(r.innerText || '');
      out.push('\n');
    }
    return;
  }
  kids = flatKids(node);
  for (let i = 0; i < kids.length; i++) {
    const c = kids[i];
    if (c.nodeType === 3) {
      out.push(c.data.replace(WS, ' '));
      continue;
    }
    if (c.nodeType !== 1) continue;
    const t = c.localName;
    if (SKIP_TAGS.has(t) || opaqueControl(t) || editableHost(c)) continue;
    if (!c.checkVisibility(CV_VIS)) {
      if (c.checkVisibility() || styleOf(c).display !== 'contents') continue;
    }
    const block = BLOCKISH.test(styleOf(c).display);
    if (block) out.push('\n');
    if (dirty.has(c)) manualText(c, dirty, out, depth + 1);
    else out.push(c.innerText || '');
    if (block) out.push('\n');
  }
}

function tidy(s) {
  return s.replace(/\r\n?/g, '\n').replace(/[ \t\u00a0]+\n/g, '\n').replace(/\n[ \t\u00a0]+/g, '\n')
    .replace(/\n{3,}/g, '\n\n').trim();
}

function biggerText(a, b) {
  if (!a) return b;
  return (b.textContent.length > a.textContent.length) ? b : a;
}

function articleRoot() {
  let best = null;
  const mains = document.querySelectorAll('main, [role="main"]');
  for (let i = 0; i < mains.length; i++) if (visibleSelf(mains[i])) best = biggerText(best, mains[i]);
  if (best) return best;
  const arts = [];
  const as = document.querySelectorAll('article, [role="article"]');
  for (let i = 0; i < as.length; i++) if (visibleSelf(as[i])) arts.push(as[i]);
  if (arts.length === 1) return arts[0];
  // Readability-style: credit each visible paragraph's length to its
  // parent, half to its grandparent; the best-credited block is the text.
  const score = new Map();
  const ps = document.querySelectorAll('p, pre, blockquote');
  for (let i = 0; i < ps.length; i++) {
    const p = ps[i];
    const len = norm(p.textContent).length;
    if (len < PARA_MIN_CHARS || !p.checkVisibility(CV_VIS)) continue;
    const par = p.parentElement;
    if (!par) continue;
    score.set(par, (score.get(par) || 0) + len);
    const gp = par.parentElement;
    if (gp) score.set(gp, (score.get(gp) || 0) + len / 2);
  }
  let top = null, topScore = 0;
  for (const [el, s] of score) if (s > topScore) { top = el; topScore = s; }
  return topScore >= ARTICLE_MIN_CHARS ? top : null;
}

function read(a) {
  let text = '', mode;
  if (a.target) {
    text = visibleText(lookup(a.target));
    mode = 'target';
  } else {
    if (a.mode !== 'visible') {
      const r = articleRoot();
      if (r) {
        text = tidy(visibleText(r));
        mode = 'article';
      }
    }
    if (!text) {
      const r = docRoot(document);
      text = r ? visibleText(r) : '';
      mode = 'visible';
    }
  }
  const [t, truncated] = cutRunes(tidy(text), a.maxChars);
  return { text: t, truncated: truncated, modeUsed: mode, title: cut(norm(document.title), a.titleMax), url: location.href };
}

function textPresent(a) {
  const q = norm(String(a.text || '')).toLowerCase();
  if (!q) fail('bad_request', 'text is empty');
  const r = docRoot(document);
  if (!r) return { present: false };
  const t = norm(visibleText(r));
  const low = t.toLowerCase();
  const present = low.indexOf(q) >= 0;
  if (!present || !a.hay) return { present: present };
  // Go judges the answer again on the text masked (hayOf).
  return Object.assign({ present: true }, hayOf(t, q, low));
}

// visibility.js: what counts as rendered. checkVisibility() answers for
// display:none ancestors, unslotted light DOM, content-visibility:hidden and
// closed <details> content in one native call, without reading styles.

function styleOf(el) {
  const v = el.ownerDocument.defaultView;
  return (v || window).getComputedStyle(el);
}

function hasSize(el) {
  const r = el.getBoundingClientRect();
  if (r.width > 0 && r.height > 0) return true;
  // An inline box can be empty while a floated or positioned child shows.
  for (let c = el.firstElementChild; c; c = c.nextElementSibling) {
    const q = c.getBoundingClientRect();
    if (q.width > 0 && q.height > 0) return true;
  }
  return false;
}

// VIS_*: the answer of visState.
const VIS_SHOWN = 0, VIS_SELF_HIDDEN = 1, VIS_PRUNE = 2;

// visState tells whether el itself is visible, hidden but possibly with
// visible descendants (visibility:hidden, zero size, display:contents), or
// hidden with its whole subtree.
function visState(el) {
  if (el.checkVisibility(CV_VIS)) return hasSize(el) ? VIS_SHOWN : VIS_SELF_HIDDEN;
  return boxlessState(el);
}

// visStateNoSize is visState without the size test. Reading geometry is
// the dearest part of the check (about three times checkVisibility), so
// counting past a cap skips it.
function visStateNoSize(el) {
  if (el.checkVisibility(CV_VIS)) return VIS_SHOWN;
  return boxlessState(el);
}

function boxlessState(el) {
  if (el.checkVisibility()) return VIS_SELF_HIDDEN;
  return styleOf(el).display === 'contents' ? VIS_SELF_HIDDEN : VIS_PRUNE;
}

const CV_VIS = { visibilityProperty: true };

function visibleSelf(el) {
  return el.checkVisibility(CV_VIS) && hasSize(el);
}

// hiddenByAttr: subtrees removed from perception by markup alone.
function hiddenByAttr(el) {
  return el.getAttribute('aria-hidden') === 'true' || el.hasAttribute('inert');
}

// Presence for waits: alive and rendered (display/visibility/size).
function present(el) {
  if (!alive(el)) return false;
  return visibleSelf(el);
}

// inspect.js: the bounded walk behind browser_inspect and the structure-only
// document tree.

function inspect(a) {
  const cx = mkcx(a);
  const want = a.scope === 'structure' ? K_STRUCT : a.scope === 'all' ? (K_CONTROL | K_STRUCT) : K_CONTROL;
  const max = a.maxItems > 0 ? a.maxItems : Infinity;
  const items = [];
  let total = 0;
  walkDoc(document, {
    enter(el, tag) {
      const role = classify(el, tag);
      const kind = clsKind;
      const opaque = isOpaque(el, tag);
      if (!(kind & want)) return opaque ? SKIP : GO;
      // Past the cap only the count is kept: no names, no registration,
      // and no geometry read (so a zero-size element past the cap counts).
      const full = items.length < max;
      const vs = full ? visState(el) : visStateNoSize(el);
      if (vs === VIS_PRUNE) return SKIP;
      if (vs === VIS_SHOWN) {
        total++;
        if (full) items.push(itemOf(el, tag, role, cx));
      }
      return opaque ? SKIP : GO;
    },
  });
  return { items: items, total: total, truncated: total > items.length };
}

// tree: a bounded structure-only tree in pre-order with depths. Depth 1 is
// the first structural level below the root; a given root is depth 0.
function tree(a) {
  const cx = mkcx(a);
  const maxItems = a.maxItems > 0 ? a.maxItems : Infinity;
  const maxDepth = a.maxDepth > 0 ? a.maxDepth : Infinity;
  const nodes = [];
  let truncated = false, depthCut = false;
  const stack = []; // indexes into nodes of open structural ancestors
  const opened = new WeakSet();
  let root;
  if (a.root) {
    root = lookup(a.root);
    const tag = root.localName;
    const role = classify(root, tag);
    nodes.push({ id: idOf(root), role: role || 'generic', name: cut(nameOf(root, tag, role, cx), cx.nameMax), state: stateOf(root, tag, cx), depth: 0, children: 0 });
    stack.push(0);
  }
  const v = {
    enter(el, tag) {
      const role = classify(el, tag);
      const kind = clsKind;
      const opaque = isOpaque(el, tag);
      if (!(kind & K_STRUCT)) return opaque ? SKIP : GO;
      const vs = visState(el);
      if (vs === VIS_PRUNE) return SKIP;
      if (vs !== VIS_SHOWN) return opaque ? SKIP : GO;
      const depth = (stack.length ? nodes[stack[stack.length - 1]].depth : 0) + 1;
      if (depth > maxDepth) {
        depthCut = true;
        return SKIP;
      }
      if (nodes.length >= maxItems) {
        truncated = true;
        return STOP;
      }
      if (stack.length) nodes[stack[stack.length - 1]].children++;
      nodes.push({ id: idOf(el), role: role || 'generic', name: cut(nameOf(el, tag, role, cx), cx.nameMax), state: stateOf(el, tag, cx), depth: depth, children: 0 });
      if (opaque) return SKIP;
      stack.push(nodes.length - 1);
      opened.add(el);
      return GO;
    },
    leave(el) {
      if (opened.has(el)) stack.pop();
    },
  };
  if (root) walkFrom(root, v); else walkDoc(document, v);
  return { nodes: nodes, truncated: truncated, depthCut: depthCut };
}

// isOpaque: subtrees never walked for targets or text: native value
// controls, labels standing in for a control, and editable regions (their
// content is a value). Call right after classify().
function isOpaque(el, tag) {
  return opaqueControl(tag) || clsProxy !== null || editableHost(el);
}

// roles.js: raw ARIA roles (explicit first token, else the implicit
// HTML-AAM role) and whether an element is a control or page structure.

const CONTROL_ROLES = new Set([
  'button', 'link', 'textbox', 'searchbox', 'checkbox', 'radio', 'combobox', 'listbox', 'option',
  'slider', 'spinbutton', 'switch', 'tab', 'menuitem', 'menuitemcheckbox', 'menuitemradio',
  'treeitem', 'scrollbar',
]);

const STRUCT_ROLES = new Set([
  'banner', 'complementary', 'contentinfo', 'form', 'main', 'navigation', 'region', 'search',
  'heading', 'list', 'table', 'grid', 'treegrid', 'dialog', 'alertdialog', 'article', 'paragraph',
  'blockquote', 'figure', 'tablist', 'tabpanel', 'menu', 'menubar', 'toolbar', 'tree',
  'radiogroup', 'alert', 'status',
]);

const TEXT_INPUT_TYPES = new Set([
  'text', 'search', 'email', 'tel', 'url', 'password', 'number', 'date', 'datetime-local', 'month',
  'week', 'time',
]);

const HEADING_LEVEL = { h1: 1, h2: 2, h3: 3, h4: 4, h5: 5, h6: 6 };

function inputRole(el) {
  const t = el.type;
  switch (t) {
    case 'button': case 'submit': case 'reset': case 'image': case 'file': case 'color':
      return 'button';
    case 'checkbox': return 'checkbox';
    case 'radio': return 'radio';
    case 'range': return 'slider';
    case 'number': return 'spinbutton';
    case 'hidden': return '';
    case 'search': return el.hasAttribute('list') ? 'combobox' : 'searchbox';
    case 'text': case 'email': case 'tel': case 'url': case '':
      return el.hasAttribute('list') ? 'combobox' : 'textbox';
    default: return 'textbox';
  }
}

function implicitRole(el, tag) {
  switch (tag) {
    case 'a': case 'area': return el.hasAttribute('href') ? 'link' : '';
    case 'button': return 'button';
    case 'input': return inputRole(el);
    case 'select': return (el.multiple || el.size > 1) ? 'listbox' : 'combobox';
    case 'textarea': return 'textbox';
    case 'option': return 'option';
    case 'h1': case 'h2': case 'h3': case 'h4': case 'h5': case 'h6': return 'heading';
    case 'img': return el.getAttribute('alt') === '' ? 'presentation' : 'img';
    case 'ul': case 'ol': case 'menu': return 'list';
    case 'li': return 'listitem';
    case 'table': return 'table';
    case 'tr': return 'row';
    case 'td': return 'cell';
    case 'th': return el.getAttribute('scope') === 'row' ? 'rowheader' : 'columnheader';
    case 'thead': case 'tbody': case 'tfoot': return 'rowgroup';
    case 'nav': return 'navigation';
    case 'main': return 'main';
    case 'header': return el.closest('article,aside,main,nav,section') ? '' : 'banner';
    case 'footer': return el.closest('article,aside,main,nav,section') ? '' : 'contentinfo';
    case 'aside': return 'complementary';
    case 'section': return (el.hasAttribute('aria-label') || el.hasAttribute('aria-labelledby')) ? 'region' : '';
    case 'form': return 'form';
    case 'search': return 'search';
    case 'article': return 'article';
    case 'dialog': return 'dialog';
    case 'fieldset': return 'group';
    case 'figure': return 'figure';
    case 'p': return 'paragraph';
    case 'blockquote': return 'blockquote';
    case 'hr': return 'separator';
    case 'progress': return 'progressbar';
    case 'meter': return 'meter';
    case 'output': return 'status';
    case 'details': return 'group';
    case 'summary': return summaryIsControl(el) ? 'button' : '';
    case 'dt': return 'term';
    case 'dd': return 'definition';
  }
  return '';
}

function summaryIsControl(el) {
  const p = el.parentElement;
  return !!p && p.localName === 'details';
}

function nativeControl(el, tag) {
  switch (tag) {
    case 'a': case 'area': return el.hasAttribute('href');
    case 'button': case 'select': case 'textarea': return true;
    case 'input': return el.type !== 'hidden';
    case 'summary': return summaryIsControl(el);
  }
  return false;
}

// A native control whose subtree holds its value or options, never
// separate targets or text.
function opaqueControl(tag) {
  return tag === 'input' || tag === 'select' || tag === 'textarea';
}

function editableHost(el) {
  const ce = el.getAttribute('contenteditable');
  if (ce === null || ce === 'false') return false;
  return el.isContentEditable;
}

function firstToken(s) {
  s = s.trim();
  const i = s.search(/\s/);
  return (i < 0 ? s : s.slice(0, i)).toLowerCase();
}

// clsKind carries the second result of classify() without allocating.
let clsKind = 0;
// clsProxy: for a label that stands in for its hidden control, the control.
let clsProxy = null;

// classify returns el's raw role ('' when none) and sets clsKind.
function classify(el, tag) {
  clsKind = 0;
  clsProxy = null;
  const native = nativeControl(el, tag);
  let role = '';
  const attr = el.getAttribute('role');
  if (attr) {
    role = firstToken(attr);
    if ((role === 'none' || role === 'presentation') && (native || el.hasAttribute('tabindex'))) role = '';
  }
  if (!role) role = implicitRole(el, tag);
  if (native || CONTROL_ROLES.has(role)) {
    clsKind = K_CONTROL;
    return role || 'generic';
  }
  // group is structure only as a native fieldset; ARIA groups are mostly
  // layout wrappers.
  if (STRUCT_ROLES.has(role) || (role === 'group' && tag === 'fieldset')) {
    clsKind = K_STRUCT;
    return role;
  }
  if (el.hasAttribute('contenteditable') && editableHost(el)) {
    clsKind = K_CONTROL;
    return 'textbox';
  }
  // A clickable element in the tab order is a control. So is a grid cell
  // of a roving-tabindex grid (a date picker's days: only the active one has
  // tabindex 0, the rest -1, and a person clicks any of them).
  const ti = el.getAttribute('tabindex');
  if (ti !== null && (parseInt(ti, 10) >= 0 || role === 'gridcell') && (el.hasAttribute('onclick') || styleOf(el).cursor === 'pointer')) {
    clsKind = K_CONTROL;
    return role || 'generic';
  }
  if (tag === 'label') {
    const c = labelProxyTarget(el);
    if (c) {
      const r = classify(c, c.localName);
      clsKind = K_CONTROL;
      clsProxy = c;
      return r;
    }
  }
  // A named container (a drop zone, a board lane: a div or an ARIA group
  // with aria-label or aria-labelledby) is one thing a person sees and
  // acts on; Chromium exposes its name too. Inline elements (icons, words
  // with a label) stay text.
  if ((!role || role === 'generic' || role === 'group') && !INLINE_TAGS.has(tag) && ariaNamed(el)) {
    clsKind = K_STRUCT;
    return role;
  }
  return role;
}

// ariaNamed: el carries an author-given name (not resolved: cheap).
function ariaNamed(el) {
  const al = el.getAttribute('aria-label');
  if (al && al.trim()) return true;
  const lb = el.getAttribute('aria-labelledby');
  return !!(lb && lb.trim());
}

// labelProxyTarget: a label stands in for its control when the control is
// a checkbox, radio or file input that is itself not visible (the common
// "styled label over a hidden input" pattern). Clicking the label operates
// the control; values are set on the control.
function labelProxyTarget(el) {
  if (el.localName !== 'label') return null;
  const c = el.control;
  if (!c || c.localName !== 'input') return null;
  const t = c.type;
  if (t !== 'checkbox' && t !== 'radio' && t !== 'file') return null;
  return visibleSelf(c) ? null : c;
}

// effective: the element that holds state and value for a registered one.
function effective(el) {
  return labelProxyTarget(el) || el;
}

function headingLevel(el, tag, role) {
  if (role !== 'heading') return 0;
  const a = parseInt(el.getAttribute('aria-level'), 10);
  if (a > 0) return a;
  return HEADING_LEVEL[tag] || 2;
}

// state.js: control state, the credential class, editability, and the item
// record shared by inspect, find and describe.

const FORM_TAGS = new Set(['input', 'select', 'textarea', 'button', 'fieldset', 'option', 'optgroup']);

function ariaTrue(el, name) {
  return el.getAttribute(name) === 'true';
}

// aria-disabled on an ancestor is honoured too: pages use it to mark a
// whole widget unusable.
function isDisabled(el, tag) {
  if (FORM_TAGS.has(tag) && el.matches(':disabled')) return true;
  return !!el.closest('[aria-disabled="true"]');
}

function isCheckable(el, tag) {
  return tag === 'input' && (el.type === 'checkbox' || el.type === 'radio');
}

function isTextInput(el, tag) {
  return tag === 'input' && TEXT_INPUT_TYPES.has(el.type);
}

function isEditable(el, tag) {
  return isTextInput(el, tag) || tag === 'textarea' || editableHost(el);
}

// submitTarget: the URL activating el submits its form to, when el is a
// submit control with a form ('' otherwise); a formaction of its own wins.
function submitTarget(el, tag) {
  if (!el.form) return '';
  if ((tag === 'button' && el.type === 'submit') || (tag === 'input' && (el.type === 'submit' || el.type === 'image'))) {
    return el.getAttribute('formaction') ? el.formAction : el.form.action;
  }
  return '';
}

// enterTarget: the URL Enter in el submits its form to (implicit
// submission: a text field of a form that has a submit control, or whose
// only text field it is), '' otherwise.
function enterTarget(el, tag) {
  if (!isTextInput(el, tag) || !el.form) return '';
  let fields = 0;
  for (const c of el.form.elements) {
    const t = c.localName;
    if (submitTarget(c, t) !== '') return el.form.action;
    if (isTextInput(c, t)) fields++;
  }
  return fields === 1 ? el.form.action : '';
}

function isReadOnly(el, tag) {
  if ((isTextInput(el, tag) || tag === 'textarea') && el.readOnly) return true;
  return ariaTrue(el, 'aria-readonly');
}

function stateOf(el, tag, cx) {
  const s = {};
  if (isDisabled(el, tag)) s.disabled = true;
  if ((isCheckable(el, tag) && el.checked) || ariaTrue(el, 'aria-checked')) s.checked = true;
  if (ariaTrue(el, 'aria-expanded') || (tag === 'summary' && el.parentElement && el.parentElement.open) || (tag === 'details' && el.open)) s.expanded = true;
  if ((tag === 'option' && el.selected) || ariaTrue(el, 'aria-selected')) s.selected = true;
  if (ariaTrue(el, 'aria-pressed')) s.pressed = true;
  if (el === activeOf(cx)) s.focused = true;
  if ((FORM_TAGS.has(tag) && el.required) || ariaTrue(el, 'aria-required')) s.required = true;
  if (isReadOnly(el, tag)) s.readonly = true;
  return s;
}

// isCredential: a field of one of spec/credentials.cue's classes
// (credClass, cred.js), or one whose autocomplete tokens include a token the
// caller configured on top of them.
function isCredential(el, tag, cx) {
  if (credClass(el) !== '') return true;
  if (tag !== 'input' && tag !== 'textarea' && tag !== 'select') return false;
  const ac = el.getAttribute('autocomplete');
  if (!ac || !cx.cred.size) return false;
  for (const t of ac.toLowerCase().split(/\s+/)) if (cx.cred.has(t)) return true;
  return false;
}

// itemOf builds the record for a registered element. A label standing in
// for a hidden control reports the control's role, state and class.
function itemOf(el, tag, role, cx, name) {
  const tgt = effective(el);
  const ttag = tgt === el ? tag : tgt.localName;
  if (tgt !== el) role = classifyQuiet(tgt);
  if (name === undefined) name = nameOf(el, tag, role, cx);
  const it = {
    id: idOf(el),
    role: role || 'generic',
    name: cut(name, cx.nameMax),
    state: stateOf(tgt, ttag, cx),
  };
  if (isCredential(tgt, ttag, cx)) it.credential = true;
  if (isEditable(tgt, ttag)) it.editable = true;
  const lvl = headingLevel(el, tag, role);
  if (lvl) it.level = lvl;
  return it;
}

function classifyQuiet(el) {
  const k = clsKind, p = clsProxy;
  const r = classify(el, el.localName);
  clsKind = k;
  clsProxy = p;
  return r;
}

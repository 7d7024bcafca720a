// Package pagejs owns all page-side JavaScript of Ghostlight and the
// DevTools isolated world it runs in.
//
// A World installs one script per document into an isolated world of the
// page's main frame (Page.createIsolatedWorld + Runtime.evaluate). The
// script returns an API object; every later call is a single
// Runtime.callFunctionOn on that object, returning one JSON string. Page
// scripts share the DOM but not the JavaScript heap, so they cannot see the
// element registry or tamper with the builtins it uses, and nothing is
// written to the DOM or to any page global.
//
// Elements are named by integer ids from a per-document registry (WeakMap
// element->id, Map id->WeakRef). Ids fold in the World's installation
// serial, so an id from an earlier document answers KindStale instead of
// naming an element of the new one; within a document an id is stable
// until its element is removed.
//
// Perception (Inspect, DocumentTree, Find, Read) walks the flat tree in
// document order: open shadow roots, slots, same-origin frames; hidden
// content (display:none, visibility:hidden, aria-hidden, inert, closed
// <details>, zero size, outside an open modal dialog) is excluded. Roles
// are raw ARIA roles and names follow a simplified accname in which
// editable values (text inputs, textareas, contenteditable content) are
// never a source; no function returns such a value.
//
// Actions get verified points (Locate), framework-visible value setting
// (SetValue), focus and scrolling. Credential-class fields (a class of
// spec/credentials.cue, by credClass in js/cred.js, or a configured
// autocomplete token) are refused before their value is touched.
//
// Bounds come from the caller (request fields or World Limits filled from
// generated constants); the JavaScript sources live in js/, one file per
// concern.
package pagejs

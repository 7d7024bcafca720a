// Package act is the handlers' shared acting code: one action on a held tab
// (Perform, through runtime/browser/action), where it lands (a target, a
// selector or a point of a view), its input under the key guard, the
// person's confirmation of a consequential action, and what it caused read
// into one receipt and envelope outcome. What it needs of the call's session
// it asks through Session, which runtime/tools implements.
package act

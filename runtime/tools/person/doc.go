// Package person is how the handlers of runtime/tools ask the person beside
// the model, one function per question: hand this tab to the person (a
// credential to type, a cross-site write to allow, an action or a download
// to approve), may the model's script run on this document, may this
// document be pictured, judge this query on the text the model sees, which
// replay frames may leave. What waits on the person is runtime/handoff's
// plain state; what this package needs of the call's session it asks
// through Session, which runtime/tools implements.
package person

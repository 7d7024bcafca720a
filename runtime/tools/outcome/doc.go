// Package outcome holds what every handler of runtime/tools builds a result
// from: a succeeded or refused outcome, the readiness a page reports, and a
// page's URL and title as a call's authority lets its facts carry them
// (credentials and fragment dropped, bounded, origin only outside the
// authority).
package outcome

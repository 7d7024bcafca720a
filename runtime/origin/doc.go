// Package origin remembers, for one session, where the page text handed to
// the model came from, and finds that text again in what the model asks to
// write. It keeps fingerprints, never text: a hash of every window of
// MinChars normalized characters, labelled with the site that returned it.
// A write shares a run of MinChars or more characters with a site's text
// exactly when one of its windows hashes to one of that site's
// fingerprints (up to 64-bit collisions), so the check needs no text.
//
// The package is pure: no browser, no MCP, no policy. The pipeline feeds it
// results and asks it about writes; governance decides what a flow means.
package origin

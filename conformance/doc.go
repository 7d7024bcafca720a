// Package conformance holds the surface and the live server to the contract:
// schemas, fixtures, the discovery budget, dependency rules, the shipped binary
// over stdio and HTTP, the widget corpus, and the docs that a test keeps true.
package conformance

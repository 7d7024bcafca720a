// Package gen holds the Ghostlight generator: load (CUE → IR), emit (IR →
// files) and write (safe writes). Run it with go generate ./... from the
// repository root.
package gen

//go:generate go run ./cmd/ghostlight-gen -spec ../spec -out ../generated -readme ../README.md

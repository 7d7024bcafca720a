// Package scale holds `make scale`: three Ghostlight replicas behind HAProxy
// (the Debian package, .ci/haproxy), driven by 24 concurrent agents over MCP
// 2026-07-28, then one replica killed (docs/deployment.md). Its test carries
// the scale build tag, so `go test ./...` leaves it to `make scale`.
package scale

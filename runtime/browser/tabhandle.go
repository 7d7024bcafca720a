package browser

import (
	"crypto/rand"

	"github.com/ghostlight-dev/ghostlight/generated/limits"
	"github.com/ghostlight-dev/ghostlight/generated/surface"
)

// tabHandleBody is the random part of a tab handle: the handle_chars bound
// less the prefix, its underscore and the replica's name (8 base62
// characters, 47.6 bits).
const tabHandleBody = limits.HandleCharsMax - len(surface.HandlePrefixTab) - 1 - limits.ReplicaCharsMax

const handleAlphabet = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"

// newHandle mints a unique opaque tab handle and reserves it for t: "tab_",
// the replica's name (Config.Replica) and tabHandleBody random base62 characters (crypto/rand, rejection
// sampled so every character is uniform). A stateless (MCP 2026-07-28)
// client reaches its workspace by its tab handles alone, so they are
// random, never counted; 47.6 bits make a guess of one of a server's tabs
// hopeless over a loopback transport, while receipts stay short.
func (b *Browser) newHandle(t *Tab) string {
	var raw [tabHandleBody * 2]byte
	for {
		_, _ = rand.Read(raw[:])
		body := make([]byte, 0, tabHandleBody)
		for _, c := range raw {
			if c < 248 && len(body) < tabHandleBody { // 248 = 4*62
				body = append(body, handleAlphabet[c%62])
			}
		}
		if len(body) < tabHandleBody {
			continue
		}
		h := surface.HandlePrefixTab + "_" + b.cfg.Replica + string(body)
		b.mu.Lock()
		if b.handles[h] == nil {
			b.handles[h] = t
			b.mu.Unlock()
			return h
		}
		b.mu.Unlock()
	}
}

// Replica is the replica name the browser's tab handles carry.
func (b *Browser) Replica() string { return b.cfg.Replica }

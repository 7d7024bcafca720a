package handle

import (
	"crypto/rand"
	"fmt"
	"strings"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
)

// Replicas. Every handle a server mints that a call may name (tab, target,
// view, snapshot, recording) is "<prefix>_", then the replica_chars of the
// server's replica name, then its body: a router reads the replica from a
// fixed position (docs/deployment.md), and a server refuses a handle that
// names another replica (other_replica) instead of looking it up.

// ReplicaChars is how many characters a replica's name has.
const ReplicaChars = surface.ReplicaCharsMax

// CheckReplica refuses a name that is not ReplicaChars letters and digits.
func CheckReplica(name string) error {
	if len(name) != ReplicaChars {
		return fmt.Errorf("replica name %q: want exactly %d letters or digits", name, ReplicaChars)
	}
	for i := 0; i < len(name); i++ {
		if digit(name[i]) < 0 {
			return fmt.Errorf("replica name %q: want exactly %d letters or digits", name, ReplicaChars)
		}
	}
	return nil
}

// NewReplica is a random replica name: ReplicaChars lower-case letters and
// digits (36^3 = 46,656 names; a name is printed at start).
func NewReplica() string {
	const lower = "0123456789abcdefghijklmnopqrstuvwxyz"
	out := make([]byte, 0, ReplicaChars)
	var b [1]byte
	for len(out) < ReplicaChars {
		_, _ = rand.Read(b[:])
		if b[0] < 252 { // 252 = 7*36: uniform
			out = append(out, lower[b[0]%36])
		}
	}
	return string(out)
}

// ReplicaOf is the replica a handle names: the ReplicaChars after its first
// underscore, or false when it has none there.
func ReplicaOf(h string) (string, bool) {
	_, rest, ok := strings.Cut(h, "_")
	if !ok || len(rest) < ReplicaChars {
		return "", false
	}
	return rest[:ReplicaChars], true
}

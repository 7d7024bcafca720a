package governance

import (
	"bytes"
	"crypto/ed25519"
	"crypto/sha256"
	"crypto/x509"
	"encoding/base64"
	"encoding/pem"
	"errors"
)

// parseKey reads a pinned ed25519 public key: a PEM "PUBLIC KEY" (as
// `openssl pkey -pubout` writes it) or the standard base64 of its 32 bytes.
func parseKey(b []byte) (ed25519.PublicKey, error) {
	if blk, _ := pem.Decode(b); blk != nil {
		k, err := x509.ParsePKIXPublicKey(blk.Bytes)
		if err != nil {
			return nil, err
		}
		if pk, ok := k.(ed25519.PublicKey); ok {
			return pk, nil
		}
		return nil, errors.New("the key is not an ed25519 public key")
	}
	raw, err := base64.StdEncoding.DecodeString(string(bytes.TrimSpace(b)))
	if err != nil || len(raw) != ed25519.PublicKeySize {
		return nil, errors.New("the key must be a PEM PUBLIC KEY or the base64 of 32 ed25519 key bytes")
	}
	return ed25519.PublicKey(raw), nil
}

// parseSignature reads a signature file: the raw 64 bytes or their
// standard base64.
func parseSignature(b []byte) ([]byte, error) {
	if len(b) == ed25519.SignatureSize {
		return b, nil
	}
	raw, err := base64.StdEncoding.DecodeString(string(bytes.TrimSpace(b)))
	if err != nil || len(raw) != ed25519.SignatureSize {
		return nil, errors.New("the signature must be 64 ed25519 signature bytes, raw or in base64")
	}
	return raw, nil
}

// Fingerprint names a public key as SSH does: SHA256: and the unpadded
// base64 of the key's digest.
func Fingerprint(k ed25519.PublicKey) string {
	sum := sha256.Sum256(k)
	return "SHA256:" + base64.RawStdEncoding.EncodeToString(sum[:])
}

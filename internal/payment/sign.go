package payment

import (
	"crypto/ed25519"
	"encoding/base64"
	"fmt"
	"strings"
)

// SignatureHeader carries the Ed25519 signature (standard base64) of a
// message's body: the sandbox signs its notifies with its private key, and
// the server verifies them with the provider's public key (configured).
const SignatureHeader = "X-Pay-Signature"

// Sign signs body with key.
func Sign(key ed25519.PrivateKey, body []byte) string {
	return base64.StdEncoding.EncodeToString(ed25519.Sign(key, body))
}

// Verify reports whether sig is pub's signature of body.
func Verify(pub ed25519.PublicKey, body []byte, sig string) bool {
	raw, err := base64.StdEncoding.DecodeString(strings.TrimSpace(sig))
	return err == nil && len(pub) == ed25519.PublicKeySize && ed25519.Verify(pub, body, raw)
}

// ParsePublicKey reads an Ed25519 public key in standard base64 (32 bytes).
func ParsePublicKey(s string) (ed25519.PublicKey, error) {
	raw, err := base64.StdEncoding.DecodeString(strings.TrimSpace(s))
	if err != nil || len(raw) != ed25519.PublicKeySize {
		return nil, fmt.Errorf("not an Ed25519 public key in base64 (%d bytes)", ed25519.PublicKeySize)
	}
	return ed25519.PublicKey(raw), nil
}

// ParsePrivateKey reads an Ed25519 private key given as its seed in standard
// base64 (32 bytes).
func ParsePrivateKey(s string) (ed25519.PrivateKey, error) {
	raw, err := base64.StdEncoding.DecodeString(strings.TrimSpace(s))
	if err != nil || len(raw) != ed25519.SeedSize {
		return nil, fmt.Errorf("not an Ed25519 seed in base64 (%d bytes)", ed25519.SeedSize)
	}
	return ed25519.NewKeyFromSeed(raw), nil
}

// DevSeed is the sandbox's development key (seed, base64): what `make
// paysandbox` signs with unless PAYSANDBOX_KEY is set, and DevPublicKey what
// the server trusts unless HMDP_PAY_PUBLIC_KEY is set. Known to everyone: the
// server refuses it in production (HMDP_PRODUCTION).
const DevSeed = "aG1kcC1wYXlzYW5kYm94LWRldmVsb3BtZW50LWtleSE="

// DevPublicKey is DevSeed's public key (base64).
func DevPublicKey() string {
	k, err := ParsePrivateKey(DevSeed)
	if err != nil {
		panic(err)
	}
	return encodeKey(k.Public().(ed25519.PublicKey))
}

func encodeKey(pub ed25519.PublicKey) string { return base64.StdEncoding.EncodeToString(pub) }

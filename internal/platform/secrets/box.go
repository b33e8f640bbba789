// Package secrets encrypts values that Herald must be able to read back (API secrets,
// provider credentials, private keys) and generates random credentials.
package secrets

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
)

// version prefixes every ciphertext so the scheme or key can change later without guessing.
const version byte = 1

// MinKeyLength is the shortest HERALD_SECRET_KEY accepted.
const MinKeyLength = 16

// Box seals and opens secrets with AES-256-GCM under a key derived from the configured
// secret key.
type Box struct {
	aead cipher.AEAD
}

// NewBox derives the encryption key from key (HERALD_SECRET_KEY).
func NewBox(key string) (*Box, error) {
	if len(key) < MinKeyLength {
		return nil, fmt.Errorf("HERALD_SECRET_KEY must be at least %d characters; generate one with `openssl rand -base64 32`", MinKeyLength)
	}
	mac := hmac.New(sha256.New, []byte("herald secrets v1"))
	mac.Write([]byte(key))
	block, err := aes.NewCipher(mac.Sum(nil))
	if err != nil {
		return nil, err
	}
	aead, err := cipher.NewGCM(block)
	if err != nil {
		return nil, err
	}
	return &Box{aead: aead}, nil
}

// Seal encrypts plaintext; the result carries its version and nonce.
func (b *Box) Seal(plaintext []byte) []byte {
	nonce := make([]byte, b.aead.NonceSize())
	if _, err := rand.Read(nonce); err != nil {
		panic("secrets: no randomness: " + err.Error())
	}
	out := make([]byte, 0, 1+len(nonce)+len(plaintext)+b.aead.Overhead())
	out = append(out, version)
	out = append(out, nonce...)
	return b.aead.Seal(out, nonce, plaintext, nil)
}

// ErrOpen means a ciphertext could not be decrypted: wrong key, or tampered data.
var ErrOpen = errors.New("secrets: cannot decrypt (was HERALD_SECRET_KEY changed?)")

// Open decrypts what Seal produced.
func (b *Box) Open(sealed []byte) ([]byte, error) {
	n := b.aead.NonceSize()
	if len(sealed) < 1+n || sealed[0] != version {
		return nil, ErrOpen
	}
	out, err := b.aead.Open(nil, sealed[1:1+n], sealed[1+n:], nil)
	if err != nil {
		return nil, ErrOpen
	}
	return out, nil
}

// Token returns n random bytes encoded as unpadded base64url.
func Token(n int) string {
	buf := make([]byte, n)
	if _, err := rand.Read(buf); err != nil {
		panic("secrets: no randomness: " + err.Error())
	}
	return base64.RawURLEncoding.EncodeToString(buf)
}

// HexToken returns n random bytes encoded as hex.
func HexToken(n int) string {
	buf := make([]byte, n)
	if _, err := rand.Read(buf); err != nil {
		panic("secrets: no randomness: " + err.Error())
	}
	return hex.EncodeToString(buf)
}

// Hash returns SHA-256 of s: for looking up and comparing high-entropy secrets, never
// passwords.
func Hash(s string) []byte {
	sum := sha256.Sum256([]byte(s))
	return sum[:]
}

// Equal compares two byte strings in constant time.
func Equal(a, b []byte) bool { return subtle.ConstantTimeCompare(a, b) == 1 }

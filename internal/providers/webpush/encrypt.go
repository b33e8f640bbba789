package webpush

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/ecdh"
	"crypto/hkdf"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"errors"
	"strings"
)

// Why not github.com/SherClockHolmes/webpush-go: its last release (v1.4.0) dates from
// January 2025, it brings golang.org/x/crypto for HKDF, and it hides the HTTP exchange we
// need to classify. The standard library has ECDH, HKDF and AES-GCM; RFC 8291 is the
// sixty lines below, checked against the RFC's own example in encrypt_test.go.

// recordSize is the aes128gcm record size announced in the header; a push message is a
// single record.
const recordSize = 4096

// maxBody is the largest encrypted body push services must accept (RFC 8030 §7.2).
const maxBody = 4096

// headerLen is salt (16) + record size (4) + key id length (1) + key id (65).
const headerLen = 16 + 4 + 1 + 65

// maxPlaintext is what fits: the body minus the header, the padding delimiter and the
// AES-GCM tag.
const maxPlaintext = maxBody - headerLen - 1 - 16

// encrypt encrypts plaintext for a subscription with the aes128gcm content coding
// (RFC 8188) keyed as RFC 8291 says: ECDH between the application server's one-time key
// asPriv and the user agent's key uaPublic, mixed with the subscription's auth secret.
// salt must be 16 random bytes.
func encrypt(plaintext, uaPublic, authSecret []byte, asPriv *ecdh.PrivateKey, salt []byte) ([]byte, error) {
	if len(plaintext) > maxPlaintext {
		return nil, errors.New("payload too large for web push")
	}
	if len(authSecret) != 16 {
		return nil, errors.New("subscription auth secret must be 16 bytes")
	}
	uaKey, err := ecdh.P256().NewPublicKey(uaPublic)
	if err != nil {
		return nil, errors.New("subscription p256dh is not a P-256 public key")
	}
	shared, err := asPriv.ECDH(uaKey)
	if err != nil {
		return nil, err
	}
	asPublic := asPriv.PublicKey().Bytes()
	cek, nonce, err := deriveKeys(shared, authSecret, uaPublic, asPublic, salt)
	if err != nil {
		return nil, err
	}
	block, err := aes.NewCipher(cek)
	if err != nil {
		return nil, err
	}
	gcm, err := cipher.NewGCM(block)
	if err != nil {
		return nil, err
	}
	out := make([]byte, 0, headerLen+len(plaintext)+1+gcm.Overhead())
	out = append(out, salt...)
	out = binary.BigEndian.AppendUint32(out, recordSize)
	out = append(out, byte(len(asPublic)))
	out = append(out, asPublic...)
	record := append(append(make([]byte, 0, len(plaintext)+1), plaintext...), 0x02) // 0x02: last record, no padding
	return gcm.Seal(out, nonce, record, nil), nil
}

// deriveKeys computes the content encryption key and nonce (RFC 8291 §3.4): the input
// keying material from the ECDH secret, the auth secret and both public keys, then the
// aes128gcm key and nonce from that and the salt.
func deriveKeys(shared, authSecret, uaPublic, asPublic, salt []byte) (cek, nonce []byte, err error) {
	keyInfo := "WebPush: info\x00" + string(uaPublic) + string(asPublic)
	ikm, err := hkdf.Key(sha256.New, shared, authSecret, keyInfo, 32)
	if err != nil {
		return nil, nil, err
	}
	if cek, err = hkdf.Key(sha256.New, ikm, salt, "Content-Encoding: aes128gcm\x00", 16); err != nil {
		return nil, nil, err
	}
	nonce, err = hkdf.Key(sha256.New, ikm, salt, "Content-Encoding: nonce\x00", 12)
	return cek, nonce, err
}

// decodeKey reads a base64 key as browsers and libraries write it: URL-safe or standard
// alphabet, padded or not.
func decodeKey(s string) ([]byte, error) {
	s = strings.TrimRight(strings.TrimSpace(s), "=")
	if strings.ContainsAny(s, "+/") {
		return base64.RawStdEncoding.DecodeString(s)
	}
	return base64.RawURLEncoding.DecodeString(s)
}

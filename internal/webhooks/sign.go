package webhooks

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"strconv"
	"strings"
)

// SecretPrefix starts every signing secret; the rest is the base64 of the key.
const SecretPrefix = "whsec_"

// secretBytes is the length of a generated key (the specification asks for 24 to 64).
const secretBytes = 32

// Header names of a delivery (Standard Webhooks).
const (
	HeaderID        = "webhook-id"
	HeaderTimestamp = "webhook-timestamp"
	HeaderSignature = "webhook-signature"
)

// NewSecret returns a fresh signing secret, "whsec_" + base64 of 32 random bytes.
func NewSecret() string {
	key := make([]byte, secretBytes)
	if _, err := rand.Read(key); err != nil {
		panic("webhooks: no randomness: " + err.Error())
	}
	return SecretPrefix + base64.StdEncoding.EncodeToString(key)
}

// secretKey decodes a secret to its HMAC key.
func secretKey(secret string) ([]byte, error) {
	key, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(secret, SecretPrefix))
	if err != nil || len(key) == 0 {
		return nil, errors.New("webhooks: malformed signing secret")
	}
	return key, nil
}

// Sign returns the signature of one message, "v1," + base64(HMAC-SHA256(key,
// "{id}.{timestamp}.{body}")), for the webhook-signature header.
func Sign(secret, id string, timestamp int64, body []byte) (string, error) {
	key, err := secretKey(secret)
	if err != nil {
		return "", err
	}
	mac := hmac.New(sha256.New, key)
	mac.Write([]byte(id))
	mac.Write([]byte{'.'})
	mac.Write([]byte(strconv.FormatInt(timestamp, 10)))
	mac.Write([]byte{'.'})
	mac.Write(body)
	return "v1," + base64.StdEncoding.EncodeToString(mac.Sum(nil)), nil
}

// SignatureHeader signs with every secret given (the current one, then one still in its
// grace period after a rotation) and joins the signatures with spaces, as the
// specification allows, so receivers holding either secret verify the message.
func SignatureHeader(secrets []string, id string, timestamp int64, body []byte) (string, error) {
	sigs := make([]string, 0, len(secrets))
	for _, s := range secrets {
		sig, err := Sign(s, id, timestamp, body)
		if err != nil {
			return "", err
		}
		sigs = append(sigs, sig)
	}
	return strings.Join(sigs, " "), nil
}

// Verify checks a webhook-signature header against secret in constant time (for Herald's
// own tests and for Go receivers without a library; it does not check the timestamp).
func Verify(secret, id string, timestamp int64, body []byte, header string) bool {
	want, err := Sign(secret, id, timestamp, body)
	if err != nil {
		return false
	}
	ok := false
	for _, sig := range strings.Fields(header) {
		if hmac.Equal([]byte(sig), []byte(want)) {
			ok = true
		}
	}
	return ok
}

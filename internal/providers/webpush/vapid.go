package webpush

import (
	"crypto/ecdh"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"net/url"
	"time"

	"github.com/golang-jwt/jwt/v5"

	"github.com/heraldhq/herald/internal/providers"
)

// jwtLifetime is how long a VAPID token is valid (RFC 8292 allows at most 24 hours).
const jwtLifetime = 12 * time.Hour

// GenerateVAPIDKeys returns a new VAPID key pair for an app (RFC 8292): the public key as
// browsers take it for applicationServerKey (uncompressed P-256 point, base64url without
// padding) and the private key as its 32-byte scalar, base64url — the format the web-push
// libraries of other languages read too. subject is the contact URI (mailto: or https:).
func GenerateVAPIDKeys(subject string) (providers.VAPIDKeys, error) {
	key, err := ecdh.P256().GenerateKey(rand.Reader)
	if err != nil {
		return providers.VAPIDKeys{}, err
	}
	return providers.VAPIDKeys{
		PublicKey:  base64.RawURLEncoding.EncodeToString(key.PublicKey().Bytes()),
		PrivateKey: base64.RawURLEncoding.EncodeToString(key.Bytes()),
		Subject:    subject,
	}, nil
}

// vapidKey is a parsed application server key.
type vapidKey struct {
	private *ecdsa.PrivateKey
	// public is the base64url uncompressed public key sent as k=.
	public string
}

// parseVAPID reads an app's key pair. The public half sent to push services is derived
// from the private key, so a stored pair that does not match cannot produce tokens that
// push services reject with 403.
func parseVAPID(keys providers.VAPIDKeys) (vapidKey, error) {
	raw, err := decodeKey(keys.PrivateKey)
	if err != nil {
		return vapidKey{}, errors.New("the app's VAPID private key is not base64")
	}
	priv, err := ecdsa.ParseRawPrivateKey(elliptic.P256(), raw)
	if err != nil {
		return vapidKey{}, errors.New("the app's VAPID private key is not a P-256 key")
	}
	pub, err := priv.PublicKey.Bytes()
	if err != nil {
		return vapidKey{}, err
	}
	return vapidKey{private: priv, public: base64.RawURLEncoding.EncodeToString(pub)}, nil
}

// authorization is the RFC 8292 Authorization header for a push to endpoint: a JWT (ES256)
// with the push service's origin as audience, an expiry and the contact subject, plus the
// public key.
func (k vapidKey) authorization(endpoint, subject string, now time.Time) (string, error) {
	u, err := url.Parse(endpoint)
	if err != nil || u.Host == "" {
		return "", errors.New("invalid push endpoint")
	}
	token, err := jwt.NewWithClaims(jwt.SigningMethodES256, jwt.MapClaims{
		"aud": u.Scheme + "://" + u.Host,
		"exp": now.Add(jwtLifetime).Unix(),
		"sub": subject,
	}).SignedString(k.private)
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("vapid t=%s, k=%s", token, k.public), nil
}

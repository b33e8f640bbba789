// Package unsubscribe is one-click unsubscribe from email (RFC 8058): the signed,
// expiring, single-purpose tokens that List-Unsubscribe links carry, the links built from
// them, and the service that turns email off for the token's user and category through
// the preference store (docs/unsubscribe.md).
package unsubscribe

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"errors"
	"time"

	"github.com/heraldhq/herald/internal/platform/secrets"
)

// TokenLifetime is how long an unsubscribe link works after the email was composed. Mail
// sits in inboxes for weeks; 60 days covers the usual cadence of newsletters and digests
// while a leaked link does not stay valid forever.
const TokenLifetime = 60 * 24 * time.Hour

// keyPurpose names the key derived from HERALD_SECRET_KEY for unsubscribe tokens: no
// other token of Herald is signed with it, so no other token verifies here, and these
// verify nowhere else.
const keyPurpose = "unsubscribe link v1"

// preferencesKeyPurpose names the key of preference page tokens, distinct from
// keyPurpose: an unsubscribe token does not open the preference page, and a preference
// page token does not unsubscribe.
const preferencesKeyPurpose = "preference page link v1"

// Kinds of token. The kind is signed and a Signer accepts only its own: together with a
// key per purpose, a token of one purpose never verifies as the other.
const (
	// KindCategory turns email off for one category (preferences category × email): the
	// one-click unsubscribe token.
	KindCategory byte = 'c'
	// KindPreferences opens the user's hosted preference page (Scope is 0): the
	// preferencesUrl token.
	KindPreferences byte = 'p'
)

const (
	version  byte = 1
	bodySize      = 1 + 8 + 8 + 1 + 8 + 8 // version, app, user, kind, scope, expiry
	macSize       = 16
)

// ErrInvalid is a token that is malformed, tampered with, signed with another key, of
// another purpose or expired. Callers answer it without saying which.
var ErrInvalid = errors.New("invalid or expired unsubscribe link")

// Claims are what a token says: email off for User of App in Scope (a category id when
// Kind is KindCategory), until Expires.
type Claims struct {
	App     int64
	User    int64
	Kind    byte
	Scope   int64
	Expires time.Time
}

// Signer signs and verifies tokens of one purpose with a key derived from the secret key
// for that purpose.
type Signer struct {
	key  []byte
	kind byte
}

// NewSigner returns the Signer of one-click unsubscribe tokens (KindCategory) keyed by
// secretKey (HERALD_SECRET_KEY).
func NewSigner(secretKey string) *Signer {
	return &Signer{key: secrets.Derive(secretKey, keyPurpose), kind: KindCategory}
}

// NewPreferencesSigner returns the Signer of preference page tokens (KindPreferences),
// keyed by its own key derived from secretKey.
func NewPreferencesSigner(secretKey string) *Signer {
	return &Signer{key: secrets.Derive(secretKey, preferencesKeyPurpose), kind: KindPreferences}
}

// Sign returns the token of c: base64url of the claims and a truncated HMAC-SHA256.
// Tokens are signed as given (a kind other than the Signer's does not verify).
func (s *Signer) Sign(c Claims) string {
	buf := make([]byte, bodySize, bodySize+macSize)
	buf[0] = version
	binary.BigEndian.PutUint64(buf[1:], uint64(c.App))
	binary.BigEndian.PutUint64(buf[9:], uint64(c.User))
	buf[17] = c.Kind
	binary.BigEndian.PutUint64(buf[18:], uint64(c.Scope))
	binary.BigEndian.PutUint64(buf[26:], uint64(c.Expires.Unix()))
	buf = append(buf, s.mac(buf)...)
	return base64.RawURLEncoding.EncodeToString(buf)
}

// Verify returns the claims of a token signed by this key, of this Signer's kind (with a
// category scope for unsubscribe tokens, none for preference tokens) and not expired at
// now; anything else is ErrInvalid.
func (s *Signer) Verify(token string, now time.Time) (Claims, error) {
	if len(token) > 2*(bodySize+macSize) {
		return Claims{}, ErrInvalid
	}
	// Strict: a token has one spelling (no variant with other padding bits).
	raw, err := base64.RawURLEncoding.Strict().DecodeString(token)
	if err != nil || len(raw) != bodySize+macSize {
		return Claims{}, ErrInvalid
	}
	body, sum := raw[:bodySize], raw[bodySize:]
	if !hmac.Equal(sum, s.mac(body)) || body[0] != version {
		return Claims{}, ErrInvalid
	}
	c := Claims{
		App:     int64(binary.BigEndian.Uint64(body[1:])),
		User:    int64(binary.BigEndian.Uint64(body[9:])),
		Kind:    body[17],
		Scope:   int64(binary.BigEndian.Uint64(body[18:])),
		Expires: time.Unix(int64(binary.BigEndian.Uint64(body[26:])), 0),
	}
	scoped := c.Scope > 0
	if c.Kind != s.kind || scoped != (s.kind == KindCategory) || c.Scope < 0 || c.App <= 0 || c.User <= 0 || !now.Before(c.Expires) {
		return Claims{}, ErrInvalid
	}
	return c, nil
}

func (s *Signer) mac(body []byte) []byte {
	m := hmac.New(sha256.New, s.key)
	m.Write(body)
	return m.Sum(nil)[:macSize]
}

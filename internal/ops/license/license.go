// Package license issues and verifies the licenses of self-hosted installs. A license is a
// JWT signed with Ed25519 (alg EdDSA) by the licensing server: it names the client (its id
// on the install that uses it), the plan, the limits and the expiry. Installs verify it
// with the licensing server's public key and keep the newest one per client. An expired
// license degrades the client to the free plan's limits; it never stops notifications that
// were already accepted.
package license

import (
	"crypto/ed25519"
	"encoding/base64"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/golang-jwt/jwt/v5"

	herald "github.com/heraldhq/herald"
)

// Issuer is the iss claim of every license.
const Issuer = "herald-licensing"

// Limits are what a license allows.
type Limits struct {
	// MonthlyNotifications caps the notifications of a calendar month; nil is unlimited.
	MonthlyNotifications *int64 `json:"monthlyNotifications"`
}

// License is a verified license.
type License struct {
	ID        string    `json:"id"`
	ClientID  int64     `json:"clientId"`
	Plan      string    `json:"plan"`
	Limits    Limits    `json:"limits"`
	IssuedAt  time.Time `json:"issuedAt"`
	ExpiresAt time.Time `json:"expiresAt"`
	// Token is the signed license itself.
	Token string `json:"token,omitempty"`
}

// Expired reports whether the license has run out at now.
func (l License) Expired(now time.Time) bool { return !now.Before(l.ExpiresAt) }

// claims are the JWT claims of a license; sub repeats the client id as a string.
type claims struct {
	jwt.RegisteredClaims
	ClientID int64  `json:"clientId"`
	Plan     string `json:"plan"`
	Limits   Limits `json:"limits"`
}

// Keys are the Ed25519 keys of licensing: Private (only on the licensing server) signs,
// Public verifies.
type Keys struct {
	Private ed25519.PrivateKey
	Public  ed25519.PublicKey
}

// ParseKeys reads base64 keys (standard or URL alphabet, padded or not): the signing key
// as a 32-byte seed or a 64-byte private key, the public key as 32 bytes. Without a public
// key the signing key's own is used.
func ParseKeys(signing, public string) (Keys, error) {
	var k Keys
	if signing != "" {
		b, err := decode(signing)
		switch {
		case err != nil:
			return k, errors.New("HERALD_LICENSE_SIGNING_KEY must be base64")
		case len(b) == ed25519.SeedSize:
			k.Private = ed25519.NewKeyFromSeed(b)
		case len(b) == ed25519.PrivateKeySize:
			k.Private = ed25519.PrivateKey(b)
		default:
			return k, fmt.Errorf("HERALD_LICENSE_SIGNING_KEY must be a 32-byte Ed25519 seed or a 64-byte private key, got %d bytes", len(b))
		}
		k.Public = k.Private.Public().(ed25519.PublicKey)
	}
	if public != "" {
		b, err := decode(public)
		if err != nil || len(b) != ed25519.PublicKeySize {
			return k, errors.New("HERALD_LICENSE_PUBLIC_KEY must be a base64 32-byte Ed25519 public key")
		}
		k.Public = ed25519.PublicKey(b)
	}
	return k, nil
}

func decode(s string) ([]byte, error) {
	s = strings.TrimRight(strings.TrimSpace(s), "=")
	if b, err := base64.RawStdEncoding.DecodeString(s); err == nil {
		return b, nil
	}
	return base64.RawURLEncoding.DecodeString(s)
}

// Sign makes the token of a license.
func Sign(key ed25519.PrivateKey, l License) (string, error) {
	c := claims{ClientID: l.ClientID, Plan: l.Plan, Limits: l.Limits, RegisteredClaims: jwt.RegisteredClaims{
		Issuer: Issuer, Subject: strconv.FormatInt(l.ClientID, 10), ID: l.ID,
		IssuedAt: jwt.NewNumericDate(l.IssuedAt), ExpiresAt: jwt.NewNumericDate(l.ExpiresAt),
	}}
	return jwt.NewWithClaims(jwt.SigningMethodEdDSA, c).SignedString(key)
}

// Verify checks a token's signature and shape and returns its license; an expired license
// verifies (the caller decides what expiry means).
func Verify(key ed25519.PublicKey, token string) (License, error) {
	var c claims
	_, err := jwt.ParseWithClaims(token, &c, func(*jwt.Token) (any, error) { return key, nil },
		jwt.WithValidMethods([]string{jwt.SigningMethodEdDSA.Alg()}), jwt.WithoutClaimsValidation())
	if err != nil {
		return License{}, herald.Errorf(herald.EUNAUTHORIZED, "the license is not signed by the licensing server's key (HERALD_LICENSE_PUBLIC_KEY)")
	}
	var p herald.Problems
	if c.Issuer != Issuer {
		p.Addf("license iss must be %q", Issuer)
	}
	if c.ClientID <= 0 || c.Subject != strconv.FormatInt(c.ClientID, 10) {
		p.Addf("license must name its client in clientId and sub")
	}
	if strings.TrimSpace(c.Plan) == "" {
		p.Addf("license must name a plan")
	}
	if c.ID == "" {
		p.Addf("license must have an id (jti)")
	}
	if c.IssuedAt == nil || c.ExpiresAt == nil {
		p.Addf("license must have iat and exp")
	}
	if err := p.Err(); err != nil {
		return License{}, err
	}
	return License{ID: c.ID, ClientID: c.ClientID, Plan: c.Plan, Limits: c.Limits,
		IssuedAt: c.IssuedAt.Time, ExpiresAt: c.ExpiresAt.Time, Token: token}, nil
}

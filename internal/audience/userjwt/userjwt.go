// Package userjwt mints and verifies the user tokens of secure mode (docs/decisions.md#authentication): RS256
// JWTs signed with the app's private key, whose subject is the user identifier.
package userjwt

import (
	"crypto/rsa"
	"errors"
	"strings"
	"time"

	"github.com/golang-jwt/jwt/v5"
)

// Claims are the claims of a user token.
type Claims struct {
	// APIKey identifies the app when the request carries no API key header.
	APIKey string `json:"apiKey,omitempty"`
	jwt.RegisteredClaims
}

// User returns the user identifier of the subject; "user:<identifier>" is accepted too.
func (c *Claims) User() string { return strings.TrimPrefix(c.Subject, "user:") }

// Mint signs a token for a user of the app holding key. ttl 0 means no expiry.
func Mint(key *rsa.PrivateKey, apiKey, userIdentifier string, ttl time.Duration, now time.Time) (string, error) {
	c := Claims{APIKey: apiKey, RegisteredClaims: jwt.RegisteredClaims{Subject: userIdentifier, IssuedAt: jwt.NewNumericDate(now)}}
	if ttl > 0 {
		c.ExpiresAt = jwt.NewNumericDate(now.Add(ttl))
	}
	return jwt.NewWithClaims(jwt.SigningMethodRS256, c).SignedString(key)
}

// Errors of Verify; all are answered 401.
var (
	ErrMalformed = errors.New("the bearer token is not a valid JWT")
	ErrNoKey     = errors.New("the app has no signing key for secure mode")
	ErrInvalid   = errors.New("the bearer token is invalid, expired or not signed by this app")
	// ErrNoExpiry: the token has no exp claim and the app does not allow long-lived tokens.
	ErrNoExpiry = errors.New("the bearer token has no expiry (exp claim); sign user tokens with one, or allow long-lived tokens in the app's settings")
)

// Unverified reads the claims without checking the signature, to find the app a token
// names before verifying it with that app's key. Never trust its result alone.
func Unverified(token string) (*Claims, error) {
	var c Claims
	if _, _, err := jwt.NewParser().ParseUnverified(token, &c); err != nil {
		return nil, ErrMalformed
	}
	return &c, nil
}

// Verify checks the token's RS256 signature against pub (the algorithm is pinned: "none",
// HS256 and others are refused), its exp and nbf when present, and that it names a user.
// A token without exp is refused with ErrNoExpiry unless longLived is set (the app's
// allowLongLivedUserTokens setting): a leaked token without one works forever.
func Verify(token string, pub *rsa.PublicKey, now time.Time, longLived bool) (*Claims, error) {
	if pub == nil {
		return nil, ErrNoKey
	}
	var c Claims
	_, err := jwt.ParseWithClaims(token, &c, func(*jwt.Token) (any, error) { return pub, nil },
		jwt.WithValidMethods([]string{jwt.SigningMethodRS256.Alg()}),
		jwt.WithTimeFunc(func() time.Time { return now }),
		jwt.WithLeeway(30*time.Second))
	if err != nil {
		return nil, ErrInvalid
	}
	if c.User() == "" {
		return nil, ErrInvalid
	}
	if c.ExpiresAt == nil && !longLived {
		return nil, ErrNoExpiry
	}
	return &c, nil
}

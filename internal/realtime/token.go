package realtime

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"strings"
	"time"

	"github.com/heraldhq/herald/internal/platform/secrets"
)

// TokenPrefix starts every realtime token, telling it apart from a user JWT.
const TokenPrefix = "hrt_"

// Tokens issues and verifies realtime tokens: short-lived, self-contained credentials for
// one user of one app, signed with a key derived from HERALD_SECRET_KEY, so any API process
// accepts a token another issued and nothing is stored.
type Tokens struct {
	key []byte
	ttl time.Duration
	now func() time.Time
}

// NewTokens derives the signing key from the configured secret key.
func NewTokens(secretKey string, ttl time.Duration) *Tokens {
	mac := hmac.New(sha256.New, []byte("herald realtime tokens v1"))
	mac.Write([]byte(secretKey))
	return &Tokens{key: mac.Sum(nil), ttl: ttl, now: time.Now}
}

type tokenClaims struct {
	APIKey  string `json:"k"`
	User    string `json:"u"`
	Expires int64  `json:"e"`
}

// Issue returns a token for a user of the app with the given API key, and its expiry.
func (t *Tokens) Issue(apiKey, user string) (string, time.Time) {
	exp := t.now().Add(t.ttl).Truncate(time.Second)
	body, _ := json.Marshal(tokenClaims{APIKey: apiKey, User: user, Expires: exp.Unix()})
	enc := base64.RawURLEncoding.EncodeToString(body)
	return TokenPrefix + enc + "." + base64.RawURLEncoding.EncodeToString(t.sign(enc)), exp
}

// ErrBadToken covers every reason a realtime token is refused.
var ErrBadToken = errors.New("the realtime token is invalid or expired: request a new one with POST /v3/sdk/realtimeTokenRequests")

// Verify checks a token's signature (in constant time) and expiry and returns the API key
// and user it was issued for.
func (t *Tokens) Verify(token string) (apiKey, user string, err error) {
	enc, sig, ok := strings.Cut(strings.TrimPrefix(token, TokenPrefix), ".")
	if !ok || !strings.HasPrefix(token, TokenPrefix) {
		return "", "", ErrBadToken
	}
	got, err := base64.RawURLEncoding.DecodeString(sig)
	if err != nil || !secrets.Equal(got, t.sign(enc)) {
		return "", "", ErrBadToken
	}
	body, err := base64.RawURLEncoding.DecodeString(enc)
	var c tokenClaims
	if err != nil || json.Unmarshal(body, &c) != nil || c.APIKey == "" || c.User == "" {
		return "", "", ErrBadToken
	}
	if !t.now().Before(time.Unix(c.Expires, 0)) {
		return "", "", ErrBadToken
	}
	return c.APIKey, c.User, nil
}

func (t *Tokens) sign(enc string) []byte {
	mac := hmac.New(sha256.New, t.key)
	mac.Write([]byte(TokenPrefix + enc))
	return mac.Sum(nil)
}

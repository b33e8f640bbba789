package console

import (
	"errors"
	"strconv"
	"time"

	"github.com/golang-jwt/jwt/v5"

	"github.com/heraldhq/herald/internal/platform/secrets"
)

// Token kinds. An access token authenticates console calls; a challenge token only lets
// its holder complete a sign-in with a second factor; a state token carries the OAuth2
// state through the code host.
const (
	kindAccess    = "access"
	kindChallenge = "2fa"
	kindState     = "oauth_state"
)

// claims are the claims of Herald's console tokens (HS256 with the derived signing key).
type claims struct {
	Kind      string `json:"typ"`
	SessionID int64  `json:"sid,omitempty"`
	Redirect  string `json:"redirect,omitempty"`
	// Nonce is, in a state token, the hash of the nonce kept in the browser's cookie.
	Nonce string `json:"nonce,omitempty"`
	jwt.RegisteredClaims
}

var errBadToken = errors.New("invalid or expired token")

func (s *Service) sign(kind string, userID, sessionID int64, ttl time.Duration, redirect string) string {
	return s.signClaims(claims{Kind: kind, SessionID: sessionID, Redirect: redirect}, userID, ttl)
}

func (s *Service) signClaims(c claims, userID int64, ttl time.Duration) string {
	now := s.now()
	c.RegisteredClaims = jwt.RegisteredClaims{
		Issuer: "herald", ID: secrets.Token(12), IssuedAt: jwt.NewNumericDate(now), ExpiresAt: jwt.NewNumericDate(now.Add(ttl)),
	}
	if userID != 0 {
		c.Subject = strconv.FormatInt(userID, 10)
	}
	tok, err := jwt.NewWithClaims(jwt.SigningMethodHS256, c).SignedString(s.cfg.SigningKey)
	if err != nil {
		panic("console: signing a token: " + err.Error())
	}
	return tok
}

// parse verifies a token's signature (HS256 only), expiry and kind.
func (s *Service) parse(tok, kind string) (*claims, error) {
	var c claims
	_, err := jwt.ParseWithClaims(tok, &c, func(*jwt.Token) (any, error) { return s.cfg.SigningKey, nil },
		jwt.WithValidMethods([]string{jwt.SigningMethodHS256.Alg()}),
		jwt.WithIssuer("herald"), jwt.WithExpirationRequired(),
		jwt.WithTimeFunc(s.now))
	if err != nil || c.Kind != kind {
		return nil, errBadToken
	}
	return &c, nil
}

func (c *claims) userID() int64 {
	id, _ := strconv.ParseInt(c.Subject, 10, 64)
	return id
}

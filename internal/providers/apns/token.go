package apns

import (
	"crypto/ecdsa"
	"crypto/x509"
	"encoding/pem"
	"errors"
	"sync"
	"time"

	"github.com/golang-jwt/jwt/v5"
)

// tokenLifetime is how long a provider token is reused. Apple rejects tokens older than
// an hour and throttles renewals more often than every 20 minutes.
const tokenLifetime = 50 * time.Minute

// parseKey reads a .p8 key: PEM-wrapped PKCS #8 P-256.
func parseKey(p8 string) (*ecdsa.PrivateKey, error) {
	block, _ := pem.Decode([]byte(p8))
	if block == nil {
		return nil, errors.New("privateKey is not a PEM .p8 key")
	}
	key, err := x509.ParsePKCS8PrivateKey(block.Bytes)
	if err != nil {
		return nil, errors.New("privateKey is not a PKCS #8 key")
	}
	ec, ok := key.(*ecdsa.PrivateKey)
	if !ok {
		return nil, errors.New("privateKey is not an EC (P-256) key")
	}
	return ec, nil
}

// tokenSource signs and caches provider authentication tokens: ES256 JWTs with the key
// ID in the header and the team ID and issue time as claims.
type tokenSource struct {
	key    *ecdsa.PrivateKey
	keyID  string
	teamID string
	now    func() time.Time

	mu       sync.Mutex
	token    string
	issuedAt time.Time
}

func (ts *tokenSource) get() (string, error) {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	now := ts.now()
	if ts.token != "" && now.Sub(ts.issuedAt) < tokenLifetime {
		return ts.token, nil
	}
	tok := jwt.NewWithClaims(jwt.SigningMethodES256, jwt.MapClaims{"iss": ts.teamID, "iat": now.Unix()})
	tok.Header["kid"] = ts.keyID
	signed, err := tok.SignedString(ts.key)
	if err != nil {
		return "", err
	}
	ts.token, ts.issuedAt = signed, now
	return signed, nil
}

// invalidate drops the cached token after APNs said it expired.
func (ts *tokenSource) invalidate() {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	ts.token = ""
}

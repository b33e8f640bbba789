package herald

import (
	"crypto"
	"crypto/hmac"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"encoding/pem"
	"errors"
	"time"
)

// SignUserToken signs a user JWT for secure mode: RS256 with the app's private key (the
// key generated in the console), subject the user identifier, the apiKey claim naming the
// app, and iat and exp (now + ttl). Herald refuses tokens without exp unless the app allows
// long-lived tokens, so ttl must be positive; keep it short (minutes) and sign anew.
func SignUserToken(key *rsa.PrivateKey, apiKey, userIdentifier string, ttl time.Duration) (string, error) {
	return signUserToken(key, apiKey, userIdentifier, ttl, time.Now())
}

func signUserToken(key *rsa.PrivateKey, apiKey, user string, ttl time.Duration, now time.Time) (string, error) {
	if key == nil {
		return "", errors.New("herald: no signing key")
	}
	if user == "" {
		return "", errors.New("herald: a user token needs a user identifier")
	}
	if ttl <= 0 {
		return "", errors.New("herald: a user token needs a positive lifetime (exp)")
	}
	header, _ := json.Marshal(map[string]string{"alg": "RS256", "typ": "JWT"})
	claims := map[string]any{"sub": user, "iat": now.Unix(), "exp": now.Add(ttl).Unix()}
	if apiKey != "" {
		claims["apiKey"] = apiKey
	}
	payload, err := json.Marshal(claims)
	if err != nil {
		return "", err
	}
	enc := base64.RawURLEncoding
	signing := enc.EncodeToString(header) + "." + enc.EncodeToString(payload)
	sum := sha256.Sum256([]byte(signing))
	sig, err := rsa.SignPKCS1v15(rand.Reader, key, crypto.SHA256, sum[:])
	if err != nil {
		return "", err
	}
	return signing + "." + enc.EncodeToString(sig), nil
}

// ParsePrivateKey reads an RSA private key in PEM (PKCS #1 or PKCS #8), as the console
// hands it out.
func ParsePrivateKey(pemBytes []byte) (*rsa.PrivateKey, error) {
	block, _ := pem.Decode(pemBytes)
	if block == nil {
		return nil, errors.New("herald: the private key is not PEM")
	}
	if k, err := x509.ParsePKCS1PrivateKey(block.Bytes); err == nil {
		return k, nil
	}
	k, err := x509.ParsePKCS8PrivateKey(block.Bytes)
	if err != nil {
		return nil, errors.New("herald: the private key is neither PKCS #1 nor PKCS #8")
	}
	rk, ok := k.(*rsa.PrivateKey)
	if !ok {
		return nil, errors.New("herald: the private key is not an RSA key")
	}
	return rk, nil
}

// UserSignature is the deprecated HMAC user signature (…USER-SIGNATURE header), for apps
// that turn HMAC authentication on: base64(HMAC-SHA256(API secret, user identifier)).
// Prefer secure mode (SignUserToken).
func UserSignature(apiSecret, userIdentifier string) string {
	mac := hmac.New(sha256.New, []byte(apiSecret))
	mac.Write([]byte(userIdentifier))
	return base64.StdEncoding.EncodeToString(mac.Sum(nil))
}

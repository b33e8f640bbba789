package apps

import (
	"context"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/pem"
	"fmt"

	herald "github.com/heraldhq/herald"
	"github.com/heraldhq/herald/db"
	"github.com/heraldhq/herald/db/dbsqlc"
)

// rsaBits is the size of app signing keys.
const rsaBits = 2048

// GenerateRSAKey gives the app a new RS256 key pair for secure mode and returns both halves
// as PEM. The private key is returned once, for the console to show, and kept sealed so the
// console can mint test tokens; the public key verifies user JWTs.
func (s *Service) GenerateRSAKey(ctx context.Context, appID int64) (privatePEM, publicPEM string, err error) {
	key, err := rsa.GenerateKey(rand.Reader, rsaBits)
	if err != nil {
		return "", "", err
	}
	privDER := x509.MarshalPKCS1PrivateKey(key)
	pubDER, err := x509.MarshalPKIXPublicKey(&key.PublicKey)
	if err != nil {
		return "", "", err
	}
	privatePEM = string(pem.EncodeToMemory(&pem.Block{Type: "RSA PRIVATE KEY", Bytes: privDER}))
	publicPEM = string(pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: pubDER}))
	if err := s.db.SetAppRSAKey(ctx, dbsqlc.SetAppRSAKeyParams{
		ID: appID, PublicKey: &publicPEM, PrivateKeySealed: s.box.Seal([]byte(privatePEM)),
	}); err != nil {
		return "", "", db.MapError(err)
	}
	s.forget(appID)
	return privatePEM, publicPEM, nil
}

// RSAPrivateKey unseals the app's signing key (for minting tokens from the console).
func (s *Service) RSAPrivateKey(ctx context.Context, appID int64) (*rsa.PrivateKey, error) {
	row, err := s.db.GetAppByID(ctx, appID)
	if err != nil {
		return nil, db.MapError(err)
	}
	if len(row.RsaPrivateKeySealed) == 0 {
		return nil, herald.Errorf(herald.ENOTFOUND, "the app has no signing key: generate one with POST /v1/apps/%d/rsa-key", appID)
	}
	plain, err := s.box.Open(row.RsaPrivateKeySealed)
	if err != nil {
		return nil, err
	}
	block, _ := pem.Decode(plain)
	if block == nil {
		return nil, fmt.Errorf("app %d: stored private key is not PEM", appID)
	}
	return x509.ParsePKCS1PrivateKey(block.Bytes)
}

// SetSecureAuth turns secure mode on or off: when on, user routes require a bearer JWT.
func (s *Service) SetSecureAuth(ctx context.Context, appID int64, on bool) error {
	if err := s.db.SetAppSecureAuth(ctx, dbsqlc.SetAppSecureAuthParams{ID: appID, SecureAuth: on}); err != nil {
		return db.MapError(err)
	}
	s.forget(appID)
	return nil
}

// SetHMACAuth turns the deprecated HMAC user signature on or off.
func (s *Service) SetHMACAuth(ctx context.Context, appID int64, on bool) error {
	if err := s.db.SetAppHMACAuth(ctx, dbsqlc.SetAppHMACAuthParams{ID: appID, HmacAuth: on}); err != nil {
		return db.MapError(err)
	}
	s.forget(appID)
	return nil
}

// parsePublicKey reads a PEM public key.
func parsePublicKey(p string) (*rsa.PublicKey, error) {
	block, _ := pem.Decode([]byte(p))
	if block == nil {
		return nil, fmt.Errorf("not PEM")
	}
	k, err := x509.ParsePKIXPublicKey(block.Bytes)
	if err != nil {
		return nil, err
	}
	pub, ok := k.(*rsa.PublicKey)
	if !ok {
		return nil, fmt.Errorf("not an RSA key")
	}
	return pub, nil
}

package apps

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"

	"github.com/heraldhq/herald/internal/platform/secrets"
)

// VerifySignature checks the deprecated HMAC user signature, base64(HMAC-SHA256(API secret,
// user id)), in constant time. The error is for a failure to read the secret, never for a
// wrong signature.
func (s *Service) VerifySignature(ctx context.Context, appID int64, userID, signature string) (bool, error) {
	secret, err := s.Secret(ctx, appID)
	if err != nil {
		return false, err
	}
	got, err := base64.StdEncoding.DecodeString(signature)
	if err != nil {
		return false, nil
	}
	mac := hmac.New(sha256.New, []byte(secret))
	mac.Write([]byte(userID))
	return secrets.Equal(got, mac.Sum(nil)), nil
}

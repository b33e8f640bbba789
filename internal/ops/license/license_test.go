package license

import (
	"crypto/ed25519"
	"encoding/base64"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"

	herald "github.com/heraldhq/herald"
)

func TestParseKeys(t *testing.T) {
	pub, priv, _ := ed25519.GenerateKey(nil)
	for _, signing := range []string{
		base64.StdEncoding.EncodeToString(priv.Seed()), base64.RawURLEncoding.EncodeToString(priv.Seed()),
		base64.StdEncoding.EncodeToString(priv),
	} {
		k, err := ParseKeys(signing, "")
		if err != nil || !k.Public.Equal(pub) || !k.Private.Equal(priv) {
			t.Errorf("%q: %v", signing, err)
		}
	}
	if k, err := ParseKeys("", base64.StdEncoding.EncodeToString(pub)); err != nil || k.Private != nil || !k.Public.Equal(pub) {
		t.Errorf("public only: %v", err)
	}
	for _, bad := range [][2]string{{"!!", ""}, {base64.StdEncoding.EncodeToString([]byte("short")), ""}, {"", base64.StdEncoding.EncodeToString([]byte("short"))}} {
		if _, err := ParseKeys(bad[0], bad[1]); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

func TestVerifyRefusesOtherAlgorithmsAndKeys(t *testing.T) {
	pub, priv, _ := ed25519.GenerateKey(nil)
	q := int64(10)
	l := License{ID: "lic_1", ClientID: 4, Plan: "pro", Limits: Limits{MonthlyNotifications: &q},
		IssuedAt: time.Now().Add(-time.Hour).Truncate(time.Second), ExpiresAt: time.Now().Add(-time.Minute).Truncate(time.Second)}
	tok, err := Sign(priv, l)
	if err != nil {
		t.Fatal(err)
	}
	got, err := Verify(pub, tok)
	if err != nil || got.ClientID != 4 || got.Plan != "pro" || *got.Limits.MonthlyNotifications != 10 || !got.ExpiresAt.Equal(l.ExpiresAt) {
		t.Fatalf("an expired license still verifies (its expiry is the caller's business): %+v %v", got, err)
	}
	if !got.Expired(time.Now()) || got.Expired(l.ExpiresAt.Add(-time.Second)) {
		t.Error("Expired")
	}
	// HS256 keyed with the public key's bytes (algorithm confusion) and unsigned tokens fail.
	hs, _ := jwt.NewWithClaims(jwt.SigningMethodHS256, jwt.MapClaims{"iss": Issuer, "clientId": 4, "sub": "4", "plan": "pro", "jti": "x", "iat": 1, "exp": 2}).SignedString([]byte(pub))
	none, _ := jwt.NewWithClaims(jwt.SigningMethodNone, jwt.MapClaims{"iss": Issuer}).SignedString(jwt.UnsafeAllowNoneSignatureType)
	other, _, _ := ed25519.GenerateKey(nil)
	for _, bad := range []string{hs, none, tok[:len(tok)-4] + "AAAA", "not.a.token"} {
		if _, err := Verify(pub, bad); herald.ErrorCode(err) != herald.EUNAUTHORIZED {
			t.Errorf("%.30s…: %v", bad, err)
		}
	}
	if _, err := Verify(other, tok); herald.ErrorCode(err) != herald.EUNAUTHORIZED {
		t.Errorf("another key: %v", err)
	}
}

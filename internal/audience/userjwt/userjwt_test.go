package userjwt

import (
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/pem"
	"errors"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"
)

func key(t *testing.T) *rsa.PrivateKey {
	k, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	return k
}

func TestMintAndVerify(t *testing.T) {
	k := key(t)
	now := time.Now()
	tok, err := Mint(k, "key1", "alice", time.Hour, now)
	if err != nil {
		t.Fatal(err)
	}
	c, err := Verify(tok, &k.PublicKey, now, false)
	if err != nil || c.User() != "alice" || c.APIKey != "key1" {
		t.Fatalf("verify: %v %+v", err, c)
	}
	if u, _ := Unverified(tok); u.APIKey != "key1" {
		t.Errorf("unverified apiKey %q", u.APIKey)
	}
}

func TestVerifyRefusesAttacks(t *testing.T) {
	k, other := key(t), key(t)
	now := time.Now()
	expired, _ := Mint(k, "", "alice", time.Minute, now.Add(-time.Hour))
	wrongKey, _ := Mint(other, "", "alice", time.Hour, now)
	future := jwt.NewWithClaims(jwt.SigningMethodRS256, Claims{RegisteredClaims: jwt.RegisteredClaims{Subject: "alice", NotBefore: jwt.NewNumericDate(now.Add(time.Hour))}})
	notYet, _ := future.SignedString(k)
	noSub, _ := jwt.NewWithClaims(jwt.SigningMethodRS256, Claims{}).SignedString(k)
	none, _ := jwt.NewWithClaims(jwt.SigningMethodNone, Claims{RegisteredClaims: jwt.RegisteredClaims{Subject: "alice"}}).SignedString(jwt.UnsafeAllowNoneSignatureType)
	// HS256 keyed with the public key's bytes: the classic algorithm-confusion attack.
	pubDER, _ := x509.MarshalPKIXPublicKey(&k.PublicKey)
	pubPEM := pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: pubDER})
	hs, _ := jwt.NewWithClaims(jwt.SigningMethodHS256, Claims{RegisteredClaims: jwt.RegisteredClaims{Subject: "alice"}}).SignedString(pubPEM)
	good, _ := Mint(k, "", "alice", time.Hour, now)
	tampered := good[:len(good)-4] + "AAAA"
	for name, tok := range map[string]string{
		"expired": expired, "wrong key": wrongKey, "not yet valid": notYet, "no subject": noSub,
		"alg none": none, "hs256 with public key": hs, "tampered": tampered, "garbage": "a.b.c",
	} {
		if _, err := Verify(tok, &k.PublicKey, now, false); !errors.Is(err, ErrInvalid) {
			t.Errorf("%s: got %v, want ErrInvalid", name, err)
		}
	}
	if _, err := Verify(good, nil, now, false); !errors.Is(err, ErrNoKey) {
		t.Errorf("no key: %v", err)
	}
}

func TestUserPrefix(t *testing.T) {
	c := Claims{RegisteredClaims: jwt.RegisteredClaims{Subject: "user:bob"}}
	if c.User() != "bob" {
		t.Errorf("got %q", c.User())
	}
}

// A token without exp works forever once leaked: refused unless the app allows long-lived
// tokens, whose other checks still apply.
func TestTokensWithoutExpiryNeedTheAppsConsent(t *testing.T) {
	k, other := key(t), key(t)
	now := time.Now()
	forever, _ := Mint(k, "key1", "alice", 0, now)
	if _, err := Verify(forever, &k.PublicKey, now, false); !errors.Is(err, ErrNoExpiry) {
		t.Errorf("no exp, long-lived not allowed: %v, want ErrNoExpiry", err)
	}
	if c, err := Verify(forever, &k.PublicKey, now.Add(24*365*time.Hour), true); err != nil || c.User() != "alice" {
		t.Errorf("no exp, long-lived allowed: %v", err)
	}
	strangers, _ := Mint(other, "key1", "alice", 0, now)
	if _, err := Verify(strangers, &k.PublicKey, now, true); !errors.Is(err, ErrInvalid) {
		t.Errorf("no exp, another key, long-lived allowed: %v, want ErrInvalid", err)
	}
	expired, _ := Mint(k, "key1", "alice", time.Minute, now.Add(-time.Hour))
	if _, err := Verify(expired, &k.PublicKey, now, true); !errors.Is(err, ErrInvalid) {
		t.Errorf("expired, long-lived allowed: %v, want ErrInvalid", err)
	}
}

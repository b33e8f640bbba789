package webhooks

import (
	"strings"
	"testing"
)

// The example of the Standard Webhooks specification's reference implementations.
func TestSignMatchesTheSpecificationExample(t *testing.T) {
	secret := "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"
	got, err := Sign(secret, "msg_p5jXN8AQM9LWM0D4loKWxJek", 1614265330, []byte(`{"test": 2432232314}`))
	if err != nil {
		t.Fatal(err)
	}
	if want := "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE="; got != want {
		t.Fatalf("signature %q, want %q", got, want)
	}
}

func TestSignatureHeaderCarriesOneSignaturePerSecret(t *testing.T) {
	a, b := NewSecret(), NewSecret()
	if !strings.HasPrefix(a, SecretPrefix) || a == b {
		t.Fatalf("secrets %q %q", a, b)
	}
	h, err := SignatureHeader([]string{a, b}, "msg_1", 10, []byte("{}"))
	if err != nil {
		t.Fatal(err)
	}
	if len(strings.Fields(h)) != 2 || !Verify(a, "msg_1", 10, []byte("{}"), h) || !Verify(b, "msg_1", 10, []byte("{}"), h) {
		t.Fatalf("header %q", h)
	}
	if Verify(NewSecret(), "msg_1", 10, []byte("{}"), h) || Verify(a, "msg_1", 11, []byte("{}"), h) {
		t.Fatal("a wrong secret or timestamp verified")
	}
}

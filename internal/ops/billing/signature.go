package billing

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strconv"
	"strings"
	"time"

	herald "github.com/heraldhq/herald"
	"github.com/heraldhq/herald/internal/platform/secrets"
)

// SignatureTolerance is how far a webhook's signed timestamp may be from now: older events
// are refused as stale (or replayed), so a captured request cannot be sent again later.
const SignatureTolerance = 5 * time.Minute

// SignatureHeader carries a payment webhook's signature.
const SignatureHeader = "Stripe-Signature"

// Sign returns the Stripe-style signature header of a payload: the time and the hex
// HMAC-SHA256 of "<unix time>.<payload>" under the endpoint's secret.
func Sign(payload []byte, secret string, at time.Time) string {
	return fmt.Sprintf("t=%d,v1=%s", at.Unix(), hex.EncodeToString(mac(payload, secret, at.Unix())))
}

func mac(payload []byte, secret string, unix int64) []byte {
	m := hmac.New(sha256.New, []byte(secret))
	m.Write([]byte(strconv.FormatInt(unix, 10)))
	m.Write([]byte("."))
	m.Write(payload)
	return m.Sum(nil)
}

// VerifySignature checks a Stripe-Signature header against the payload. Any of several v1
// signatures may match (the provider sends two while a secret is rolled); the comparison
// takes constant time.
func VerifySignature(payload []byte, header, secret string, now time.Time) error {
	if strings.TrimSpace(header) == "" {
		return herald.Invalid(SignatureHeader + " header is missing")
	}
	var unix int64 = -1
	var sigs [][]byte
	for _, part := range strings.Split(header, ",") {
		k, v, ok := strings.Cut(strings.TrimSpace(part), "=")
		if !ok {
			continue
		}
		switch k {
		case "t":
			n, err := strconv.ParseInt(v, 10, 64)
			if err == nil && n > 0 {
				unix = n
			}
		case "v1":
			if b, err := hex.DecodeString(v); err == nil {
				sigs = append(sigs, b)
			}
		}
	}
	if unix < 0 || len(sigs) == 0 {
		return herald.Invalid(SignatureHeader + " header must look like t=<unix time>,v1=<hex signature>")
	}
	at := time.Unix(unix, 0)
	switch {
	case now.Sub(at) > SignatureTolerance:
		return herald.Invalid(SignatureHeader + " timestamp is more than 5 minutes old: the event is stale or replayed")
	case at.Sub(now) > SignatureTolerance:
		return herald.Invalid(SignatureHeader + " timestamp is more than 5 minutes in the future")
	}
	want := mac(payload, secret, unix)
	for _, s := range sigs {
		if secrets.Equal(want, s) {
			return nil
		}
	}
	return herald.Invalid(SignatureHeader + " does not match the payload and the webhook secret")
}

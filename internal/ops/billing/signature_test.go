package billing

import (
	"errors"
	"strings"
	"testing"
	"time"

	herald "github.com/heraldhq/herald"
)

func TestVerifySignature(t *testing.T) {
	payload := []byte(`{"id":"evt_1"}`)
	now := time.Unix(1_800_000_000, 0)
	good := Sign(payload, "whsec_x", now)
	if !strings.HasPrefix(good, "t=1800000000,v1=") {
		t.Fatalf("header %q", good)
	}
	// The Stripe test vector shape: a rolled secret sends two v1 signatures, one matches.
	rolled := "t=1800000000,v1=" + strings.Repeat("ab", 32) + "," + strings.TrimPrefix(good, "t=1800000000,")
	for _, c := range []struct {
		header string
		at     time.Time
		want   string
	}{
		{good, now, ""},
		{good, now.Add(5 * time.Minute), ""},
		{rolled, now, ""},
		{good, now.Add(5*time.Minute + time.Second), "Stripe-Signature timestamp is more than 5 minutes old: the event is stale or replayed"},
		{good, now.Add(-5*time.Minute - time.Second), "Stripe-Signature timestamp is more than 5 minutes in the future"},
		{"", now, "Stripe-Signature header is missing"},
		{"t=abc,v1=00", now, "Stripe-Signature header must look like t=<unix time>,v1=<hex signature>"},
		{"t=1800000000", now, "Stripe-Signature header must look like t=<unix time>,v1=<hex signature>"},
		{"t=1800000000,v1=zz", now, "Stripe-Signature header must look like t=<unix time>,v1=<hex signature>"},
		{Sign(payload, "whsec_y", now), now, "Stripe-Signature does not match the payload and the webhook secret"},
		{strings.Replace(good, "t=1800000000", "t=1800000001", 1), now, "Stripe-Signature does not match the payload and the webhook secret"},
	} {
		err := VerifySignature(payload, c.header, "whsec_x", c.at)
		got := ""
		if err != nil {
			var he *herald.Error
			if !errors.As(err, &he) || he.Code != herald.EINVALID {
				t.Fatalf("%q: %v", c.header, err)
			}
			got = he.Details[0]
		}
		if got != c.want {
			t.Errorf("%q at %s: %q, want %q", c.header, c.at, got, c.want)
		}
	}
}

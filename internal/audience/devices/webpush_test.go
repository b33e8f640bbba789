package devices

import (
	"encoding/base64"
	"slices"
	"testing"

	herald "github.com/heraldhq/herald"
)

func TestParseSubscriptionKeys(t *testing.T) {
	point := make([]byte, 65)
	point[0] = 4
	secret := make([]byte, 16)
	notPoint := make([]byte, 65) // no 0x04 prefix: not an uncompressed point
	enc := base64.RawURLEncoding.EncodeToString
	padded := base64.URLEncoding.EncodeToString
	cases := []struct {
		name, p256dh, auth string
		want               []string
	}{
		{"unpadded", enc(point), enc(secret), nil},
		{"padded", padded(point), padded(secret), nil},
		{"standard base64 alphabet", base64.StdEncoding.EncodeToString(append([]byte{4}, slices.Repeat([]byte{0xfb}, 64)...)), enc(secret), []string{"keys.p256dh must be the base64url encoding of an uncompressed P-256 public key (65 bytes)"}},
		{"compressed point", enc(notPoint), enc(secret), []string{"keys.p256dh must be the base64url encoding of an uncompressed P-256 public key (65 bytes)"}},
		{"short secret", enc(point), enc(secret[:15]), []string{"keys.auth must be the base64url encoding of a 16-byte secret"}},
	}
	for _, tc := range cases {
		var p herald.Problems
		body := `{"endpoint":"https://push.example.com/x","keys":{"p256dh":"` + tc.p256dh + `","auth":"` + tc.auth + `"}}`
		sub := parseSubscription([]byte(body), &p)
		if !slices.Equal([]string(p), tc.want) {
			t.Errorf("%s: problems %q, want %q", tc.name, p, tc.want)
		}
		if tc.want == nil && (sub.Keys.P256dh != enc(point) || sub.Keys.Auth != enc(secret) || sub.Endpoint != "https://push.example.com/x") {
			t.Errorf("%s: parsed %+v", tc.name, sub)
		}
	}
}

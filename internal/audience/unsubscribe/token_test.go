package unsubscribe

import (
	"encoding/base64"
	"strings"
	"testing"
	"time"

	"github.com/heraldhq/herald/internal/platform/secrets"
)

const testKey = "unsubscribe-test-secret-key-0123456789abcdef"

func TestTokenRoundTrip(t *testing.T) {
	s := NewSigner(testKey)
	now := time.Unix(1_800_000_000, 0)
	want := Claims{App: 7, User: 42, Kind: KindCategory, Scope: 3, Expires: now.Add(TokenLifetime)}
	tok := s.Sign(want)
	got, err := s.Verify(tok, now)
	if err != nil || got != want {
		t.Fatalf("Verify = %+v, %v; want %+v", got, err, want)
	}
	if strings.ContainsAny(tok, "+/=") {
		t.Errorf("token %q is not URL-safe", tok)
	}
}

// TestTokenRefusals: a token verifies only unchanged, unexpired, under this purpose's key,
// and with a kind it was issued for.
func TestTokenRefusals(t *testing.T) {
	s := NewSigner(testKey)
	now := time.Unix(1_800_000_000, 0)
	c := Claims{App: 7, User: 42, Kind: KindCategory, Scope: 3, Expires: now.Add(TokenLifetime)}
	tok := s.Sign(c)
	raw, _ := base64.RawURLEncoding.DecodeString(tok)
	flip := func(i int) string {
		b := append([]byte(nil), raw...)
		b[i] ^= 1
		return base64.RawURLEncoding.EncodeToString(b)
	}
	// Another app's user: the same user id re-signed under another app id is a new token;
	// editing the app id of a token breaks its signature.
	otherApp := c
	otherApp.App = 8
	otherAppTok := s.Sign(otherApp)
	if got, err := s.Verify(otherAppTok, now); err != nil || got.App != 8 {
		t.Fatalf("a token of app 8 must verify as app 8: %+v %v", got, err)
	}
	// A key of another purpose (any other token Herald signs) does not verify here.
	other := &Signer{key: secrets.Derive(testKey, "console session")}
	cases := map[string]struct {
		tok string
		at  time.Time
	}{
		"app id edited (another app's user)": {flip(8), now},
		"user id edited":                     {flip(16), now},
		"kind edited":                        {flip(17), now},
		"category edited":                    {flip(25), now},
		"expiry edited":                      {flip(33), now},
		"signature edited":                   {flip(len(raw) - 1), now},
		"version edited":                     {flip(0), now},
		"expired":                            {tok, c.Expires},
		"long expired":                       {tok, c.Expires.Add(time.Hour)},
		"another secret key":                 {NewSigner(testKey + "x").Sign(c), now},
		"another purpose's key":              {other.Sign(c), now},
		"unknown kind (a flow)":              {s.Sign(Claims{App: 7, User: 42, Kind: 'f', Scope: 3, Expires: c.Expires}), now},
		"no category":                        {s.Sign(Claims{App: 7, User: 42, Kind: KindCategory, Expires: c.Expires}), now},
		"truncated":                          {tok[:len(tok)-2], now},
		"other padding bits":                 {tok[:len(tok)-1] + string(tok[len(tok)-1]^1), now},
		"padded":                             {tok + "AA", now},
		"not base64":                         {"!!" + tok[2:], now},
		"empty":                              {"", now},
		"huge":                               {strings.Repeat("A", 10000), now},
	}
	for name, tc := range cases {
		if got, err := s.Verify(tc.tok, tc.at); err != ErrInvalid {
			t.Errorf("%s: Verify = %+v, %v; want ErrInvalid", name, got, err)
		}
	}
	if _, err := s.Verify(tok, c.Expires.Add(-time.Second)); err != nil {
		t.Errorf("a second before expiry the token must verify: %v", err)
	}
}

func TestLinks(t *testing.T) {
	now := time.Unix(1_800_000_000, 0)
	l := &Links{Signer: NewSigner(testKey), BaseURL: "https://herald.example.com/", Now: func() time.Time { return now }}
	link := l.For(7, 42, 3)
	if !strings.HasPrefix(link.URL, "https://herald.example.com/unsubscribe/") {
		t.Fatalf("URL = %q", link.URL)
	}
	want := [][2]string{{"List-Unsubscribe", "<" + link.URL + ">"}, {"List-Unsubscribe-Post", "List-Unsubscribe=One-Click"}}
	if len(link.Headers) != 2 || link.Headers[0] != want[0] || link.Headers[1] != want[1] {
		t.Errorf("headers = %q, want %q", link.Headers, want)
	}
	c, err := l.Signer.Verify(strings.TrimPrefix(link.URL, "https://herald.example.com/unsubscribe/"), now)
	if err != nil || c.App != 7 || c.User != 42 || c.Scope != 3 || !c.Expires.Equal(now.Add(TokenLifetime)) {
		t.Errorf("link token = %+v, %v", c, err)
	}
	l.Mailto = "unsubscribe@example.com"
	if h := l.For(7, 42, 3).Headers[0][1]; !strings.Contains(h, ">, <mailto:unsubscribe@example.com?subject=unsubscribe%20") {
		t.Errorf("with a mailto: %q", h)
	}
	if got := l.For(7, 42, 0); got.URL != "" || got.Headers != nil {
		t.Errorf("no category must give no link: %+v", got)
	}
	var none *Links
	if got := none.For(7, 42, 3); got.URL != "" {
		t.Errorf("nil Links must give no link: %+v", got)
	}
}

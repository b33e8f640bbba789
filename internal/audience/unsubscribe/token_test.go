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

// TestTokenPurposes: an unsubscribe token does not verify as a preference page token and
// a preference page token does not verify as an unsubscribe token, whatever their kind
// byte says; each verifies under its own Signer only, unexpired and unchanged.
func TestTokenPurposes(t *testing.T) {
	unsub, pref := NewSigner(testKey), NewPreferencesSigner(testKey)
	now := time.Unix(1_800_000_000, 0)
	exp := now.Add(TokenLifetime)
	prefClaims := Claims{App: 7, User: 42, Kind: KindPreferences, Expires: exp}
	prefTok := pref.Sign(prefClaims)
	if got, err := pref.Verify(prefTok, now); err != nil || got != prefClaims {
		t.Fatalf("a preference token: %+v %v", got, err)
	}
	unsubTok := unsub.Sign(Claims{App: 7, User: 42, Kind: KindCategory, Scope: 3, Expires: exp})
	raw, _ := base64.RawURLEncoding.DecodeString(prefTok)
	tampered := append([]byte(nil), raw...)
	tampered[9] ^= 1
	for name, c := range map[string]struct {
		s   *Signer
		tok string
		at  time.Time
	}{
		"unsubscribe token on the preference page":                       {pref, unsubTok, now},
		"preference token as one-click unsubscribe":                      {unsub, prefTok, now},
		"preference kind signed with the unsubscribe key":                {pref, unsub.Sign(prefClaims), now},
		"unsubscribe kind signed with the preference key":                {unsub, pref.Sign(Claims{App: 7, User: 42, Kind: KindCategory, Scope: 3, Expires: exp}), now},
		"category kind under the preference key, on the preference page": {pref, pref.Sign(Claims{App: 7, User: 42, Kind: KindCategory, Scope: 3, Expires: exp}), now},
		"preference token with a scope":                                  {pref, pref.Sign(Claims{App: 7, User: 42, Kind: KindPreferences, Scope: 3, Expires: exp}), now},
		"expired preference token":                                       {pref, prefTok, exp},
		"tampered preference token (user id)":                            {pref, base64.RawURLEncoding.EncodeToString(tampered), now},
		"preference token of another secret key":                         {pref, NewPreferencesSigner(testKey + "x").Sign(prefClaims), now},
	} {
		if got, err := c.s.Verify(c.tok, c.at); err != ErrInvalid {
			t.Errorf("%s: verified as %+v (%v)", name, got, err)
		}
	}
}

// TestPreferencesURL: the link points at the preference page with a preference token of
// the user, valid for TokenLifetime.
func TestPreferencesURL(t *testing.T) {
	now := time.Unix(1_800_000_000, 0)
	l := &Links{Signer: NewSigner(testKey), Preferences: NewPreferencesSigner(testKey), BaseURL: "https://h.example/", Now: func() time.Time { return now }}
	u := l.PreferencesURL(7, 42)
	tok, ok := strings.CutPrefix(u, "https://h.example"+PreferencesPath)
	if !ok {
		t.Fatalf("PreferencesURL = %q", u)
	}
	if c, err := l.Preferences.Verify(tok, now); err != nil || c.User != 42 || c.App != 7 || !c.Expires.Equal(now.Add(TokenLifetime)) {
		t.Fatalf("its token: %+v %v", c, err)
	}
	if (&Links{Signer: NewSigner(testKey)}).PreferencesURL(7, 42) != "" || (*Links)(nil).PreferencesURL(7, 42) != "" {
		t.Error("no preference signer wired must give no link")
	}
}

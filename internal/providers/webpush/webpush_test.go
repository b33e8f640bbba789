package webpush

import (
	"context"
	"crypto/ecdh"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"encoding/base64"
	"strings"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"

	"github.com/heraldhq/herald/internal/providers"
	"github.com/heraldhq/herald/internal/providers/internal/providertest"
)

// browser is the user agent's side of a subscription.
type browser struct {
	key  *ecdh.PrivateKey
	auth []byte
}

func newBrowser(t *testing.T) browser {
	t.Helper()
	key, err := ecdh.P256().GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	auth := make([]byte, 16)
	_, _ = rand.Read(auth)
	return browser{key: key, auth: auth}
}

func (b browser) subscription(endpoint string) *providers.WebPushSubscription {
	return &providers.WebPushSubscription{
		Endpoint: endpoint,
		P256dh:   base64.RawURLEncoding.EncodeToString(b.key.PublicKey().Bytes()),
		Auth:     base64.RawURLEncoding.EncodeToString(b.auth),
	}
}

func newProvider(t *testing.T, fake *providertest.Fake, keys *providers.VAPIDKeys, config ...any) providers.Provider {
	t.Helper()
	p, err := Kind().New(providertest.Config(config...), providers.Deps{HTTP: fake.Client(), AppVAPID: keys})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func appKeys(t *testing.T) *providers.VAPIDKeys {
	t.Helper()
	keys, err := GenerateVAPIDKeys("mailto:ops@example.com")
	if err != nil {
		t.Fatal(err)
	}
	return &keys
}

func message(sub *providers.WebPushSubscription) providers.Message {
	return providers.Message{
		Channel: "webPush", IdempotencyKey: "req-1:alice:webPush", Title: "Hello", Body: "You have mail",
		Icon: "https://example.com/i.png", URL: "https://example.com/inbox", Data: []byte(`{"orderId":42}`),
		To: providers.Address{WebPush: sub},
	}
}

// verifyVAPID checks the Authorization header: a JWT signed by the app's key, for the push
// service's origin, expiring within 24 hours, with the app's subject and public key.
func verifyVAPID(t *testing.T, header, origin string, keys *providers.VAPIDKeys) {
	t.Helper()
	rest, ok := strings.CutPrefix(header, "vapid t=")
	token, k, ok2 := strings.Cut(rest, ", k=")
	if !ok || !ok2 {
		t.Fatalf("Authorization %q", header)
	}
	if k != keys.PublicKey {
		t.Errorf("k=%s, want the app's public key %s", k, keys.PublicKey)
	}
	pub, err := ecdsa.ParseUncompressedPublicKey(elliptic.P256(), b64(t, keys.PublicKey))
	if err != nil {
		t.Fatal(err)
	}
	claims := jwt.MapClaims{}
	if _, err := jwt.ParseWithClaims(token, claims, func(*jwt.Token) (any, error) { return pub, nil },
		jwt.WithValidMethods([]string{"ES256"}), jwt.WithAudience(origin), jwt.WithExpirationRequired()); err != nil {
		t.Fatalf("VAPID token: %v", err)
	}
	exp, _ := claims.GetExpirationTime()
	if time.Until(exp.Time) > 24*time.Hour {
		t.Errorf("exp %s is more than 24 h away", exp)
	}
	if claims["sub"] != keys.Subject {
		t.Errorf("sub %v", claims["sub"])
	}
}

func TestSendEncryptsForTheSubscription(t *testing.T) {
	fake := providertest.New(t)
	fake.Reply(201, "", "Location", "https://push.example.net/message/abc")
	keys, b := appKeys(t), newBrowser(t)
	res, err := newProvider(t, fake, keys).Send(context.Background(), message(b.subscription(fake.URL+"/push/sub-1")))
	if err != nil {
		t.Fatal(err)
	}
	if res.ProviderMessageID != "https://push.example.net/message/abc" {
		t.Errorf("id %q", res.ProviderMessageID)
	}
	r := fake.Last(t)
	if r.Method != "POST" || r.Path != "/push/sub-1" {
		t.Errorf("%s %s", r.Method, r.Path)
	}
	for name, want := range map[string]string{
		"Content-Encoding": "aes128gcm", "Content-Type": "application/octet-stream", "TTL": "2419200", "Urgency": "normal",
	} {
		if got := r.Header.Get(name); got != want {
			t.Errorf("%s: %q, want %q", name, got, want)
		}
	}
	if topic := r.Header.Get("Topic"); len(topic) != 32 || strings.ContainsAny(topic, "+/=:") {
		t.Errorf("Topic %q", topic)
	}
	verifyVAPID(t, r.Header.Get("Authorization"), fake.URL, keys)
	plain, err := decryptPush(r.Body, b.key, b.auth)
	if err != nil {
		t.Fatalf("browser cannot decrypt: %v", err)
	}
	providertest.EqualJSON(t, plain, `{"title":"Hello","body":"You have mail","icon":"https://example.com/i.png",
		"url":"https://example.com/inbox","data":{"orderId":42}}`)
}

func TestOverrideTunesHeadersAndPayload(t *testing.T) {
	fake := providertest.New(t)
	fake.Reply(201, "")
	keys, b := appKeys(t), newBrowser(t)
	msg := message(b.subscription(fake.URL + "/push/sub-1"))
	msg.Override = []byte(`{"ttl":60,"urgency":"high","topic":"inbox","payload":{"badge":"/b.png","data":{"extra":true}}}`)
	if _, err := newProvider(t, fake, keys, "urgency", "low", "ttl", 3600).Send(context.Background(), msg); err != nil {
		t.Fatal(err)
	}
	r := fake.Last(t)
	if r.Header.Get("TTL") != "60" || r.Header.Get("Urgency") != "high" || r.Header.Get("Topic") != "inbox" {
		t.Errorf("headers %v", r.Header)
	}
	plain, err := decryptPush(r.Body, b.key, b.auth)
	if err != nil {
		t.Fatal(err)
	}
	providertest.EqualJSON(t, plain, `{"title":"Hello","body":"You have mail","icon":"https://example.com/i.png",
		"url":"https://example.com/inbox","badge":"/b.png","data":{"orderId":42,"extra":true}}`)
}

func TestFaultsAreClassified(t *testing.T) {
	fake := providertest.New(t)
	keys := appKeys(t)
	p := newProvider(t, fake, keys)
	msg := message(newBrowser(t).subscription(fake.URL + "/push/sub-1"))
	send := func() error { _, err := p.Send(context.Background(), msg); return err }
	providertest.RunFaults(t, fake, []providertest.Fault{
		{Name: "expired subscription", Status: 410, Body: "push subscription has unsubscribed or expired.", Want: providertest.Want{Permanent: true, Gone: true, Status: 410}},
		{Name: "unknown subscription", Status: 404, Body: "", Want: providertest.Want{Permanent: true, Gone: true, Status: 404}},
		{Name: "bad VAPID", Status: 403, Body: "invalid JWT", Want: providertest.Want{Permanent: true, Status: 403}},
		{Name: "too large", Status: 413, Body: "", Want: providertest.Want{Permanent: true, Status: 413}},
		{Name: "rate limited", Status: 429, Body: "", Headers: []string{"Retry-After", "30"}, Want: providertest.Want{Status: 429, RetryAfter: 30 * time.Second}},
		{Name: "server error", Status: 502, Body: "", Want: providertest.Want{Status: 502}},
	}, send, keys.PrivateKey)
}

func TestRefusesWhatCannotBeSent(t *testing.T) {
	fake := providertest.New(t)
	sub := newBrowser(t).subscription(fake.URL + "/push/x")
	noSubject := appKeys(t)
	noSubject.Subject = ""
	bad := *sub
	bad.P256dh = base64.RawURLEncoding.EncodeToString([]byte("not a point"))
	cases := map[string]struct {
		p   providers.Provider
		msg providers.Message
	}{
		"no subscription": {newProvider(t, fake, appKeys(t)), message(nil)},
		"no app keys":     {newProvider(t, fake, nil), message(sub)},
		"no subject":      {newProvider(t, fake, noSubject), message(sub)},
		"bad p256dh":      {newProvider(t, fake, appKeys(t)), message(&bad)},
	}
	for name, tc := range cases {
		_, err := tc.p.Send(context.Background(), tc.msg)
		if err == nil {
			t.Errorf("%s: sent", name)
			continue
		}
		providertest.ExpectError(t, err, providertest.Want{Permanent: true})
	}
	if n := len(fake.Requests()); n != 0 {
		t.Errorf("%d requests sent", n)
	}
	// The configured subject stands in for a key pair without one.
	fake.Reply(201, "")
	if _, err := newProvider(t, fake, noSubject, "subject", "https://example.com/contact").Send(context.Background(), message(sub)); err != nil {
		t.Error(err)
	}
}

func TestGeneratedKeysFitTogether(t *testing.T) {
	keys := appKeys(t)
	pub, priv := b64(t, keys.PublicKey), b64(t, keys.PrivateKey)
	if len(pub) != 65 || pub[0] != 0x04 || len(priv) != 32 {
		t.Fatalf("public %d bytes, private %d bytes", len(pub), len(priv))
	}
	k, err := parseVAPID(*keys)
	if err != nil || k.public != keys.PublicKey {
		t.Fatalf("derived public key %s, %v", k.public, err)
	}
	other := appKeys(t)
	if other.PrivateKey == keys.PrivateKey {
		t.Error("two generations gave the same key")
	}
}

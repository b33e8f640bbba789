package apns

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"encoding/pem"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"
	"github.com/google/uuid"

	"github.com/heraldhq/herald/internal/providers"
	"github.com/heraldhq/herald/internal/providers/internal/compose"
	"github.com/heraldhq/herald/internal/providers/internal/providertest"
)

const deviceToken = "740f4707bebcf74f9b7c25d48e3358945f6aa01da5ddb387462c7eaf61bb78ad"

type env struct {
	key      *ecdsa.PrivateKey
	p8       string
	fake     *providertest.Fake
	provider *provider
}

func newEnv(t *testing.T, extra ...any) *env {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	der, _ := x509.MarshalPKCS8PrivateKey(key)
	e := &env{key: key, fake: providertest.NewTLS(t)}
	e.p8 = string(pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der}))
	// APNs answers 200 with the apns-id it was given.
	e.fake.Handle(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("apns-id", r.Header.Get("apns-id"))
		w.WriteHeader(200)
	})
	kv := append([]any{"privateKey", e.p8, "keyId", "ABC123DEFG", "teamId", "DEF123GHIJ", "bundleId", "com.example.app", "baseUrl", e.fake.URL}, extra...)
	p, err := Kind().New(providertest.Config(kv...), providers.Deps{HTTP: e.fake.Client()})
	if err != nil {
		t.Fatal(err)
	}
	e.provider = p.(*provider)
	return e
}

func message(tokens ...string) providers.Message {
	return providers.Message{
		Channel: "mobilePush", IdempotencyKey: "req-1:alice:mobilePush", Title: "Hello", Body: "You have mail",
		URL: "https://example.com/inbox", Data: []byte(`{"orderId":42}`), To: providers.Address{PushTokens: tokens},
	}
}

func TestSendFollowsTheAPNsProtocol(t *testing.T) {
	e := newEnv(t)
	res, err := e.provider.Send(context.Background(), message(deviceToken))
	if err != nil {
		t.Fatal(err)
	}
	wantID := uuid.NewSHA1(uuid.NameSpaceURL, []byte("req-1:alice:mobilePush\x00"+deviceToken)).String()
	if res.ProviderMessageID != wantID {
		t.Errorf("id %q, want %q", res.ProviderMessageID, wantID)
	}
	r := e.fake.Last(t)
	if r.ProtoMajor != 2 {
		t.Errorf("HTTP/%d, APNs needs HTTP/2", r.ProtoMajor)
	}
	if r.Method != "POST" || r.Path != "/3/device/"+deviceToken {
		t.Errorf("%s %s", r.Method, r.Path)
	}
	for name, want := range map[string]string{
		"apns-topic": "com.example.app", "apns-push-type": "alert", "apns-priority": "10",
		"apns-collapse-id": compose.Digest("req-1:alice:mobilePush", 32), "apns-id": wantID,
	} {
		if got := r.Header.Get(name); got != want {
			t.Errorf("%s: %q, want %q", name, got, want)
		}
	}
	if r.Header.Get("apns-expiration") != "" {
		t.Error("apns-expiration set without an override")
	}
	bearer, ok := strings.CutPrefix(r.Header.Get("Authorization"), "bearer ")
	if !ok {
		t.Fatalf("Authorization %q", r.Header.Get("Authorization"))
	}
	claims := jwt.MapClaims{}
	tok, err := jwt.ParseWithClaims(bearer, claims, func(*jwt.Token) (any, error) { return &e.key.PublicKey, nil },
		jwt.WithValidMethods([]string{"ES256"}), jwt.WithIssuer("DEF123GHIJ"), jwt.WithIssuedAt())
	if err != nil || tok.Header["kid"] != "ABC123DEFG" || claims["iat"] == nil {
		t.Fatalf("provider token %v: header %v claims %v", err, tok.Header, claims)
	}
	providertest.EqualJSON(t, r.Body, `{"aps":{"alert":{"title":"Hello","body":"You have mail"},"sound":"default"},
		"url":"https://example.com/inbox","orderId":42}`)
}

func TestProviderTokenIsReusedThenRenewed(t *testing.T) {
	e := newEnv(t)
	now := time.Now()
	e.provider.tokens.now = func() time.Time { return now }
	send := func() string {
		t.Helper()
		if _, err := e.provider.Send(context.Background(), message(deviceToken)); err != nil {
			t.Fatal(err)
		}
		return e.fake.Last(t).Header.Get("Authorization")
	}
	first := send()
	now = now.Add(20 * time.Minute)
	if send() != first {
		t.Error("token renewed before its lifetime")
	}
	now = now.Add(31 * time.Minute)
	if send() == first {
		t.Error("token older than 50 minutes reused")
	}
}

func TestOverrideAndBackgroundPush(t *testing.T) {
	e := newEnv(t)
	msg := message(deviceToken)
	msg.Override = []byte(`{"pushType":"background","topic":"com.example.app.voip","expiration":1767225600,"collapseId":"inbox","aps":{"badge":3},"payload":{"extra":true}}`)
	if _, err := e.provider.Send(context.Background(), msg); err != nil {
		t.Fatal(err)
	}
	r := e.fake.Last(t)
	for name, want := range map[string]string{
		"apns-topic": "com.example.app.voip", "apns-push-type": "background", "apns-priority": "5",
		"apns-expiration": "1767225600", "apns-collapse-id": "inbox",
	} {
		if got := r.Header.Get(name); got != want {
			t.Errorf("%s: %q, want %q", name, got, want)
		}
	}
	providertest.EqualJSON(t, r.Body, `{"aps":{"content-available":1,"badge":3},"url":"https://example.com/inbox","orderId":42,"extra":true}`)
}

func TestFaultsAreClassified(t *testing.T) {
	e := newEnv(t)
	send := func() error { _, err := e.provider.Send(context.Background(), message(deviceToken)); return err }
	providertest.RunFaults(t, e.fake, []providertest.Fault{
		{Name: "bad device token", Status: 400, Body: `{"reason":"BadDeviceToken"}`, Want: providertest.Want{Permanent: true, Gone: true, Status: 400}},
		{Name: "unregistered", Status: 410, Body: `{"reason":"Unregistered","timestamp":1767225600000}`, Want: providertest.Want{Permanent: true, Gone: true, Status: 410}},
		{Name: "wrong topic", Status: 400, Body: `{"reason":"DeviceTokenNotForTopic"}`, Want: providertest.Want{Permanent: true, Status: 400}},
		{Name: "invalid key", Status: 403, Body: `{"reason":"InvalidProviderToken"}`, Want: providertest.Want{Permanent: true, Status: 403}},
		{Name: "expired provider token", Status: 403, Body: `{"reason":"ExpiredProviderToken"}`, Want: providertest.Want{Status: 403}},
		{Name: "too large", Status: 413, Body: `{"reason":"PayloadTooLarge"}`, Want: providertest.Want{Permanent: true, Status: 413}},
		{Name: "too many requests", Status: 429, Body: `{"reason":"TooManyRequests"}`, Headers: []string{"Retry-After", "9"},
			Want: providertest.Want{Status: 429, RetryAfter: 9 * time.Second}},
		{Name: "unavailable", Status: 503, Body: `{"reason":"ServiceUnavailable"}`, Want: providertest.Want{Status: 503}},
		{Name: "internal", Status: 500, Body: `{"reason":"InternalServerError"}`, Want: providertest.Want{Status: 500}},
	}, send, "PRIVATE KEY")
}

func TestExpiredProviderTokenIsRenewed(t *testing.T) {
	e := newEnv(t)
	now := time.Now()
	e.provider.tokens.now = func() time.Time { return now }
	e.fake.Reply(403, `{"reason":"ExpiredProviderToken"}`)
	_, err := e.provider.Send(context.Background(), message(deviceToken))
	providertest.ExpectError(t, err, providertest.Want{Status: 403})
	first := e.fake.Last(t).Header.Get("Authorization")
	e.fake.Reply(200, "")
	if _, err := e.provider.Send(context.Background(), message(deviceToken)); err != nil {
		t.Fatal(err)
	}
	// The clock stood still, so only dropping the refused token makes the next one new
	// (ES256 signatures are randomised).
	if second := e.fake.Last(t).Header.Get("Authorization"); second == first {
		t.Error("the expired provider token was sent again")
	}
}

func TestEnvironmentAndKeyChecks(t *testing.T) {
	e := newEnv(t)
	for env, host := range map[string]string{"production": productionHost, "sandbox": sandboxHost} {
		p, err := Kind().New(providertest.Config("privateKey", e.p8, "keyId", "k", "teamId", "t", "bundleId", "b", "environment", env), providers.Deps{})
		if err != nil {
			t.Fatal(err)
		}
		if got := p.(*provider).cfg.BaseURL; got != host {
			t.Errorf("%s: %s", env, got)
		}
	}
	if _, err := Kind().New(providertest.Config("privateKey", "garbage", "keyId", "k", "teamId", "t", "bundleId", "b"), providers.Deps{}); err == nil ||
		!strings.Contains(err.Error(), "not a PEM") {
		t.Errorf("got %v", err)
	}
}

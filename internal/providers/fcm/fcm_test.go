package fcm

import (
	"context"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/json"
	"encoding/pem"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"

	"github.com/heraldhq/herald/internal/providers"
	"github.com/heraldhq/herald/internal/providers/internal/compose"
	"github.com/heraldhq/herald/internal/providers/internal/providertest"
)

const accessToken = "ya29.access-token-secret"

type env struct {
	key          *rsa.PrivateKey
	account      string
	tokens, fcm  *providertest.Fake
	provider     providers.Provider
	privateKeyPE string
}

func newEnv(t *testing.T) *env {
	t.Helper()
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	der, _ := x509.MarshalPKCS8PrivateKey(key)
	e := &env{key: key, tokens: providertest.New(t), fcm: providertest.New(t)}
	e.privateKeyPE = string(pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der}))
	account, _ := json.Marshal(map[string]string{
		"type": "service_account", "project_id": "my-project", "private_key_id": "kid-1",
		"private_key": e.privateKeyPE, "client_email": "herald@my-project.iam.gserviceaccount.com",
		"token_uri": e.tokens.URL + "/token",
	})
	e.account = string(account)
	e.tokens.Reply(200, `{"access_token":"`+accessToken+`","expires_in":3599,"token_type":"Bearer"}`)
	e.fcm.Reply(200, `{"name":"projects/my-project/messages/0:1500415314455276%31bd1c9631bd1c96"}`)
	e.provider, err = Kind().New(providertest.Config("serviceAccount", e.account, "baseUrl", e.fcm.URL), providers.Deps{HTTP: e.fcm.Client()})
	if err != nil {
		t.Fatal(err)
	}
	return e
}

func pushMessage(tokens ...string) providers.Message {
	return providers.Message{
		Channel: "mobilePush", IdempotencyKey: "req-1:alice:mobilePush", Title: "Hello", Body: "You have mail",
		URL: "https://example.com/inbox", Data: []byte(`{"orderId":42,"kind":"order"}`),
		To: providers.Address{PushTokens: tokens},
	}
}

func TestOAuthAssertionFollowsGooglesJWTBearerFlow(t *testing.T) {
	e := newEnv(t)
	if _, err := e.provider.Send(context.Background(), pushMessage("tok-1")); err != nil {
		t.Fatal(err)
	}
	r := e.tokens.Last(t)
	if r.Method != "POST" || r.Path != "/token" {
		t.Errorf("%s %s", r.Method, r.Path)
	}
	form := r.Form(t)
	if form.Get("grant_type") != "urn:ietf:params:oauth:grant-type:jwt-bearer" {
		t.Errorf("grant_type %q", form.Get("grant_type"))
	}
	claims := jwt.MapClaims{}
	tok, err := jwt.ParseWithClaims(form.Get("assertion"), claims, func(*jwt.Token) (any, error) { return &e.key.PublicKey, nil },
		jwt.WithValidMethods([]string{"RS256"}), jwt.WithAudience(e.tokens.URL+"/token"), jwt.WithIssuedAt())
	if err != nil {
		t.Fatalf("assertion: %v", err)
	}
	if tok.Header["kid"] != "kid-1" || claims["iss"] != "herald@my-project.iam.gserviceaccount.com" || claims["scope"] != messagingScope {
		t.Errorf("header %v claims %v", tok.Header, claims)
	}
	exp, _ := claims.GetExpirationTime()
	iat, _ := claims.GetIssuedAt()
	if exp.Sub(iat.Time) != time.Hour {
		t.Errorf("lifetime %s", exp.Sub(iat.Time))
	}
}

func TestSendFollowsTheV1API(t *testing.T) {
	e := newEnv(t)
	res, err := e.provider.Send(context.Background(), pushMessage("tok-1"))
	if err != nil {
		t.Fatal(err)
	}
	if res.ProviderMessageID != "projects/my-project/messages/0:1500415314455276%31bd1c9631bd1c96" {
		t.Errorf("id %q", res.ProviderMessageID)
	}
	r := e.fcm.Last(t)
	if r.Method != "POST" || r.Path != "/v1/projects/my-project/messages:send" {
		t.Errorf("%s %s", r.Method, r.Path)
	}
	if r.Header.Get("Authorization") != "Bearer "+accessToken {
		t.Errorf("Authorization %q", r.Header.Get("Authorization"))
	}
	providertest.EqualJSON(t, r.Body, `{"message": {
		"token": "tok-1",
		"notification": {"title": "Hello", "body": "You have mail"},
		"data": {"orderId": "42", "kind": "order", "url": "https://example.com/inbox"},
		"android": {"notification": {"tag": "`+compose.Digest("req-1:alice:mobilePush", 32)+`"}},
		"apns": {"headers": {"apns-collapse-id": "`+compose.Digest("req-1:alice:mobilePush", 32)+`"}},
		"webpush": {"fcm_options": {"link": "https://example.com/inbox"}}
	}}`)
	// A second send reuses the cached access token.
	if _, err := e.provider.Send(context.Background(), pushMessage("tok-2")); err != nil {
		t.Fatal(err)
	}
	if n := len(e.tokens.Requests()); n != 1 {
		t.Errorf("%d token requests, want 1", n)
	}
}

func TestOverrideMergesIntoTheMessage(t *testing.T) {
	e := newEnv(t)
	msg := pushMessage("tok-1")
	msg.Override = []byte(`{"android":{"priority":"high","notification":{"channel_id":"orders"}},"apns":{"payload":{"aps":{"badge":3}}},"data":{"extra":true},"token":"hijack"}`)
	if _, err := e.provider.Send(context.Background(), msg); err != nil {
		t.Fatal(err)
	}
	m := e.fcm.Last(t).JSON(t)["message"].(map[string]any)
	android := m["android"].(map[string]any)
	if m["token"] != "tok-1" || android["priority"] != "high" || android["notification"].(map[string]any)["channel_id"] != "orders" ||
		android["notification"].(map[string]any)["tag"] == nil {
		t.Errorf("message %v", m)
	}
	if data := m["data"].(map[string]any); data["extra"] != "true" || data["orderId"] != "42" {
		t.Errorf("data %v", data)
	}
}

func TestFaultsAreClassified(t *testing.T) {
	e := newEnv(t)
	send := func() error { _, err := e.provider.Send(context.Background(), pushMessage("tok-1")); return err }
	fcmError := func(code int, status, errorCode, extra string) string {
		return `{"error":{"code":` + jsonInt(code) + `,"message":"m","status":"` + status + `","details":[{"@type":"type.googleapis.com/google.firebase.fcm.v1.FcmError","errorCode":"` + errorCode + `"}` + extra + `]}}`
	}
	providertest.RunFaults(t, e.fcm, []providertest.Fault{
		{Name: "unregistered", Status: 404, Body: fcmError(404, "NOT_FOUND", "UNREGISTERED", ""), Want: providertest.Want{Permanent: true, Gone: true, Status: 404}},
		{Name: "invalid token", Status: 400, Body: fcmError(400, "INVALID_ARGUMENT", "INVALID_ARGUMENT",
			`,{"@type":"type.googleapis.com/google.rpc.BadRequest","fieldViolations":[{"field":"message.token","description":"Invalid registration token"}]}`),
			Want: providertest.Want{Permanent: true, Gone: true, Status: 400}},
		{Name: "invalid payload", Status: 400, Body: fcmError(400, "INVALID_ARGUMENT", "INVALID_ARGUMENT", ""), Want: providertest.Want{Permanent: true, Status: 400}},
		{Name: "sender mismatch", Status: 403, Body: fcmError(403, "PERMISSION_DENIED", "SENDER_ID_MISMATCH", ""), Want: providertest.Want{Permanent: true, Status: 403}},
		{Name: "apns auth", Status: 401, Body: fcmError(401, "UNAUTHENTICATED", "THIRD_PARTY_AUTH_ERROR", ""), Want: providertest.Want{Permanent: true, Status: 401}},
		{Name: "quota", Status: 429, Body: fcmError(429, "RESOURCE_EXHAUSTED", "QUOTA_EXCEEDED", ""), Headers: []string{"Retry-After", "60"},
			Want: providertest.Want{Status: 429, RetryAfter: time.Minute}},
		{Name: "unavailable", Status: 503, Body: fcmError(503, "UNAVAILABLE", "UNAVAILABLE", ""), Want: providertest.Want{Status: 503}},
		{Name: "internal", Status: 500, Body: fcmError(500, "INTERNAL", "INTERNAL", ""), Want: providertest.Want{Status: 500}},
	}, send, accessToken, "PRIVATE KEY")
}

func TestRefusedAccessTokenIsRenewed(t *testing.T) {
	e := newEnv(t)
	e.fcm.Reply(401, `{"error":{"code":401,"message":"Request had invalid authentication credentials.","status":"UNAUTHENTICATED"}}`)
	_, err := e.provider.Send(context.Background(), pushMessage("tok-1"))
	providertest.ExpectError(t, err, providertest.Want{Status: 401}, accessToken)
	e.fcm.Reply(200, `{"name":"projects/my-project/messages/1"}`)
	if _, err := e.provider.Send(context.Background(), pushMessage("tok-1")); err != nil {
		t.Fatal(err)
	}
	if n := len(e.tokens.Requests()); n != 2 {
		t.Errorf("%d token requests, want 2 (the refused token is dropped)", n)
	}
}

func TestTokenEndpointFailures(t *testing.T) {
	e := newEnv(t)
	send := func() error { _, err := e.provider.Send(context.Background(), pushMessage("tok-1")); return err }
	providertest.RunFaults(t, e.tokens, []providertest.Fault{
		{Name: "invalid grant", Status: 400, Body: `{"error":"invalid_grant","error_description":"Invalid JWT Signature."}`, Want: providertest.Want{Permanent: true, Status: 400}},
		{Name: "unavailable", Status: 503, Body: `{"error":"backend_error"}`, Want: providertest.Want{Status: 503}},
	}, send, "PRIVATE KEY")
	if n := len(e.fcm.Requests()); n != 0 {
		t.Errorf("%d FCM requests without a token", n)
	}
}

func TestSomeTokensGone(t *testing.T) {
	e := newEnv(t)
	e.fcm.Handle(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		if strings.Contains(string(body), `"token":"dead"`) {
			w.WriteHeader(404)
			_, _ = io.WriteString(w, `{"error":{"code":404,"status":"NOT_FOUND","details":[{"errorCode":"UNREGISTERED"}]}}`)
			return
		}
		_, _ = io.WriteString(w, `{"name":"projects/my-project/messages/ok"}`)
	})
	res, err := e.provider.Send(context.Background(), pushMessage("live", "dead"))
	if err != nil {
		t.Fatal(err)
	}
	if len(res.GoneTokens) != 1 || res.GoneTokens[0] != "dead" || res.ProviderMessageID != "projects/my-project/messages/ok" {
		t.Errorf("result %+v", res)
	}
}

func TestConfig(t *testing.T) {
	for _, tc := range []struct{ config, want string }{
		{`{}`, "serviceAccount is required"},
		{`{"serviceAccount":"{}"}`, "serviceAccount must be a service account key file"},
		{`{"serviceAccount":"{\"client_email\":\"a@b\",\"private_key\":\"nope\"}"}`, "not PEM"},
	} {
		if _, err := Kind().New(json.RawMessage(tc.config), providers.Deps{}); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v", tc.config, err)
		}
	}
}

func jsonInt(n int) string { raw, _ := json.Marshal(n); return string(raw) }

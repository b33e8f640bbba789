package postmark

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/heraldhq/herald/internal/providers"
	"github.com/heraldhq/herald/internal/providers/internal/providertest"
)

const token = "pm-server-token-secret"

func newProvider(t *testing.T, fake *providertest.Fake) providers.Provider {
	t.Helper()
	p, err := Kind().New(providertest.Config("serverToken", token, "from", "noreply@example.com",
		"fromName", "Herald", "baseUrl", fake.URL), providers.Deps{HTTP: fake.Client()})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func message() providers.Message {
	return providers.Message{
		Channel: "email", IdempotencyKey: "req-1:alice:email", RequestID: "req-1",
		To:      providers.Address{Email: "alice@example.com"},
		Subject: "Welcome", Text: "Hi", HTML: "<p>Hi</p>", ReplyTo: "help@example.com",
		CC: []string{"bob@example.com", "carol@example.com"}, BCC: []string{"dave@example.com"},
		Attachments: []providers.Attachment{{Filename: "a.bin", Content: []byte{1, 2, 3}}},
	}
}

// withHeaders is message() with the unsubscribe headers of a non-critical email.
func withHeaders() providers.Message {
	m := message()
	m.Headers = []providers.Header{{Name: "List-Unsubscribe", Value: "<https://h.example.com/unsubscribe/t>"}, {Name: "List-Unsubscribe-Post", Value: "List-Unsubscribe=One-Click"}}
	return m
}

func TestSendFollowsTheEmailAPI(t *testing.T) {
	fake := providertest.New(t)
	fake.Reply(200, `{"To":"alice@example.com","SubmittedAt":"2026-01-01T00:00:00Z","MessageID":"b7bc2f4a-e38e-4336-af7d-e6c392c2f817","ErrorCode":0,"Message":"OK"}`)
	res, err := newProvider(t, fake).Send(context.Background(), withHeaders())
	if err != nil {
		t.Fatal(err)
	}
	if res.ProviderMessageID != "b7bc2f4a-e38e-4336-af7d-e6c392c2f817" {
		t.Errorf("id %q", res.ProviderMessageID)
	}
	r := fake.Last(t)
	if r.Method != "POST" || r.Path != "/email" {
		t.Errorf("%s %s", r.Method, r.Path)
	}
	if r.Header.Get("X-Postmark-Server-Token") != token || r.Header.Get("Accept") != "application/json" {
		t.Errorf("headers %v", r.Header)
	}
	providertest.EqualJSON(t, r.Body, `{
		"From": "\"Herald\" <noreply@example.com>", "To": "alice@example.com",
		"Cc": "bob@example.com,carol@example.com", "Bcc": "dave@example.com",
		"Subject": "Welcome", "HtmlBody": "<p>Hi</p>", "TextBody": "Hi", "ReplyTo": "help@example.com",
		"MessageStream": "outbound",
		"Attachments": [{"Name": "a.bin", "Content": "AQID", "ContentType": "application/octet-stream"}],
		"Metadata": {"heraldKey": "req-1:alice:email", "heraldRequest": "req-1"},
		"Headers": [{"Name": "List-Unsubscribe", "Value": "<https://h.example.com/unsubscribe/t>"}, {"Name": "List-Unsubscribe-Post", "Value": "List-Unsubscribe=One-Click"}]
	}`)
}

func TestLongKeysAreDigested(t *testing.T) {
	fake := providertest.New(t)
	fake.Reply(200, `{"ErrorCode":0,"Message":"OK","MessageID":"x"}`)
	msg := message()
	msg.IdempotencyKey = "req-1:" + strings.Repeat("u", 100) + ":email"
	if _, err := newProvider(t, fake).Send(context.Background(), msg); err != nil {
		t.Fatal(err)
	}
	key := fake.Last(t).JSON(t)["Metadata"].(map[string]any)["heraldKey"].(string)
	if len(key) > 80 || strings.Contains(key, "uuu") {
		t.Errorf("key %q", key)
	}
}

func TestFaultsAreClassified(t *testing.T) {
	fake := providertest.New(t)
	p := newProvider(t, fake)
	send := func() error { _, err := p.Send(context.Background(), message()); return err }
	providertest.RunFaults(t, fake, []providertest.Fault{
		{Name: "inactive recipient", Status: 422, Body: `{"ErrorCode":406,"Message":"You tried to send to recipient(s) that have been marked as inactive."}`,
			Want: providertest.Want{Permanent: true, Status: 422}},
		{Name: "invalid request", Status: 422, Body: `{"ErrorCode":300,"Message":"Invalid email request"}`, Want: providertest.Want{Permanent: true, Status: 422}},
		{Name: "bad token", Status: 401, Body: `{"ErrorCode":10,"Message":"Bad or missing API token"}`, Want: providertest.Want{Permanent: true, Status: 401}},
		{Name: "maintenance", Status: 503, Body: `{"ErrorCode":100,"Message":"Maintenance"}`, Want: providertest.Want{Status: 503}},
		{Name: "server error", Status: 500, Body: `{"ErrorCode":0,"Message":"oops"}`, Want: providertest.Want{Status: 500}},
		{Name: "rate limited", Status: 429, Body: `{"ErrorCode":429,"Message":"Rate limit exceeded"}`, Headers: []string{"Retry-After", "2"},
			Want: providertest.Want{Status: 429, RetryAfter: 2 * time.Second}},
		{Name: "error code on 200", Status: 200, Body: `{"ErrorCode":406,"Message":"inactive"}`, Want: providertest.Want{Permanent: true, Status: 200}},
	}, send, token)
}

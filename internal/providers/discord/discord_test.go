package discord

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/heraldhq/herald/internal/providers"
	"github.com/heraldhq/herald/internal/providers/internal/providertest"
)

const hookPath = "/api/webhooks/223704706495545344/3d89bb7572e0fb30d8128367b3b1b44fecd1726de135cbe28a41f8b2f777c372"

func newProvider(t *testing.T, fake *providertest.Fake, kv ...any) providers.Provider {
	t.Helper()
	p, err := Kind().New(providertest.Config(kv...), providers.Deps{HTTP: fake.Client()})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func message() providers.Message {
	return providers.Message{Channel: "discord", Title: "Deploy", Body: "Done @everyone", URL: "https://ci.example.com/42"}
}

func TestSendFollowsTheWebhookAPI(t *testing.T) {
	fake := providertest.New(t)
	fake.Reply(200, `{"id":"1180000000000000000","channel_id":"1170000000000000000","content":"x"}`)
	p := newProvider(t, fake, "webhookUrl", fake.URL+hookPath, "username", "Herald", "avatarUrl", "https://example.com/a.png")
	res, err := p.Send(context.Background(), message())
	if err != nil {
		t.Fatal(err)
	}
	if res.ProviderMessageID != "1180000000000000000" {
		t.Errorf("id %q", res.ProviderMessageID)
	}
	r := fake.Last(t)
	if r.Method != "POST" || r.Path != hookPath || r.Query.Get("wait") != "true" || r.Header.Get("Content-Type") != "application/json" {
		t.Errorf("%s %s?%v %v", r.Method, r.Path, r.Query, r.Header)
	}
	providertest.EqualJSON(t, r.Body, `{
		"content": "**Deploy**\nDone @everyone\nhttps://ci.example.com/42",
		"username": "Herald", "avatar_url": "https://example.com/a.png",
		"allowed_mentions": {"parse": []}
	}`)
}

func TestRecipientWebhookOverrideAndLimits(t *testing.T) {
	fake := providertest.New(t)
	fake.Reply(200, `{"id":"1"}`)
	msg := message()
	msg.To.WebhookURL = fake.URL + "/api/webhooks/1/own?thread_id=keep"
	msg.Body = strings.Repeat("x", 3000)
	msg.Override = []byte(`{"embeds":[{"title":"Build 42","color":5763719}],"tts":false,"thread_id":"99","webhookUrl":"ignored"}`)
	if _, err := newProvider(t, fake, "webhookUrl", fake.URL+hookPath).Send(context.Background(), msg); err != nil {
		t.Fatal(err)
	}
	r := fake.Last(t)
	if r.Path != "/api/webhooks/1/own" || r.Query.Get("thread_id") != "99" || r.Query.Get("wait") != "true" {
		t.Errorf("%s?%v", r.Path, r.Query)
	}
	body := r.JSON(t)
	if n := len([]rune(body["content"].(string))); n != contentMax {
		t.Errorf("content of %d runes", n)
	}
	if body["embeds"] == nil || body["tts"] != false || body["webhookUrl"] != nil {
		t.Errorf("body %v", body)
	}
}

func TestFaultsAreClassified(t *testing.T) {
	fake := providertest.New(t)
	p := newProvider(t, fake, "webhookUrl", fake.URL+hookPath)
	send := func() error { _, err := p.Send(context.Background(), message()); return err }
	providertest.RunFaults(t, fake, []providertest.Fault{
		{Name: "rate limited", Status: 429, Body: `{"message":"You are being rate limited.","retry_after":1.2345,"global":false}`, Headers: []string{"Retry-After", "2"},
			Want: providertest.Want{Status: 429, RetryAfter: 1235 * time.Millisecond}},
		{Name: "rate limited, header only", Status: 429, Body: "", Headers: []string{"Retry-After", "3"}, Want: providertest.Want{Status: 429, RetryAfter: 3 * time.Second}},
		{Name: "unknown webhook", Status: 404, Body: `{"message":"Unknown Webhook","code":10015}`, Want: providertest.Want{Permanent: true, Status: 404}},
		{Name: "invalid token", Status: 401, Body: `{"message":"Invalid Webhook Token","code":50027}`, Want: providertest.Want{Permanent: true, Status: 401}},
		{Name: "invalid body", Status: 400, Body: `{"message":"Invalid Form Body","code":50035}`, Want: providertest.Want{Permanent: true, Status: 400}},
		{Name: "server error", Status: 502, Body: "", Want: providertest.Want{Status: 502}},
	}, send, hookPath, "3d89bb7572e0fb30")
	_, err := newProvider(t, fake).Send(context.Background(), message())
	providertest.ExpectError(t, err, providertest.Want{Permanent: true})
}

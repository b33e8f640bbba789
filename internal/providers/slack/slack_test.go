package slack

import (
	"context"
	"testing"
	"time"

	"github.com/heraldhq/herald/internal/providers"
	"github.com/heraldhq/herald/internal/providers/internal/providertest"
)

const (
	hookPath = "/services/T0001/B0001/XXXXhooksecret"
	botToken = "xoxb-bot-token-secret"
)

func newProvider(t *testing.T, fake *providertest.Fake, kv ...any) providers.Provider {
	t.Helper()
	p, err := Kind().New(providertest.Config(kv...), providers.Deps{HTTP: fake.Client()})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func message() providers.Message {
	return providers.Message{Channel: "slack", Title: "Deploy <prod>", Body: "Done & dusted", URL: "https://ci.example.com/42"}
}

func TestIncomingWebhook(t *testing.T) {
	fake := providertest.New(t)
	fake.Reply(200, "ok")
	msg := message()
	msg.To.WebhookURL = fake.URL + hookPath
	msg.Blocks = []byte(`[{"type":"section","text":{"type":"mrkdwn","text":"*Deploy*"}}]`)
	msg.Override = []byte(`{"username":"Herald","icon_emoji":":bell:","channel":"ignored-by-webhooks","unknown":1}`)
	// A bot token is configured, but the recipient's own webhook wins.
	res, err := newProvider(t, fake, "botToken", botToken).Send(context.Background(), msg)
	if err != nil {
		t.Fatal(err)
	}
	providertest.NoSecrets(t, res.Response, hookPath, botToken)
	r := fake.Last(t)
	if r.Method != "POST" || r.Path != hookPath || r.Header.Get("Content-Type") != "application/json" || r.Header.Get("Authorization") != "" {
		t.Errorf("%s %s %v", r.Method, r.Path, r.Header)
	}
	providertest.EqualJSON(t, r.Body, `{
		"text": "*Deploy &lt;prod&gt;*\nDone &amp; dusted\n<https://ci.example.com/42>",
		"blocks": [{"type":"section","text":{"type":"mrkdwn","text":"*Deploy*"}}],
		"username": "Herald", "icon_emoji": ":bell:"
	}`)
}

func TestConfiguredWebhookAndForeignBlocks(t *testing.T) {
	fake := providertest.New(t)
	fake.Reply(200, "ok")
	msg := message()
	msg.Blocks = []byte(`[{"kind":"image","src":"x"}]`) // not Block Kit: left out
	if _, err := newProvider(t, fake, "webhookUrl", fake.URL+hookPath).Send(context.Background(), msg); err != nil {
		t.Fatal(err)
	}
	r := fake.Last(t)
	if r.Path != hookPath {
		t.Errorf("path %s", r.Path)
	}
	if _, ok := r.JSON(t)["blocks"]; ok {
		t.Error("foreign blocks sent to Slack")
	}
}

func TestChatPostMessage(t *testing.T) {
	fake := providertest.New(t)
	fake.Reply(200, `{"ok":true,"channel":"C0123","ts":"1503435956.000247","message":{"text":"x"}}`)
	p := newProvider(t, fake, "botToken", botToken, "channel", "C-default", "baseUrl", fake.URL)
	msg := message()
	msg.Override = []byte(`{"thread_ts":"1503435956.000100"}`)
	res, err := p.Send(context.Background(), msg)
	if err != nil {
		t.Fatal(err)
	}
	if res.ProviderMessageID != "1503435956.000247" {
		t.Errorf("id %q", res.ProviderMessageID)
	}
	r := fake.Last(t)
	if r.Method != "POST" || r.Path != "/chat.postMessage" || r.Header.Get("Authorization") != "Bearer "+botToken ||
		r.Header.Get("Content-Type") != "application/json; charset=utf-8" {
		t.Errorf("%s %s %v", r.Method, r.Path, r.Header)
	}
	body := r.JSON(t)
	if body["channel"] != "C-default" || body["thread_ts"] != "1503435956.000100" {
		t.Errorf("body %v", body)
	}
	// The recipient's channel, then the override's, beat the default.
	msg.Override = []byte(`{"channel":"C-override"}`)
	if _, err := p.Send(context.Background(), msg); err != nil {
		t.Fatal(err)
	}
	if got := fake.Last(t).JSON(t)["channel"]; got != "C-override" {
		t.Errorf("channel %v", got)
	}
	msg.To.ChatChannel = "U-alice"
	if _, err := p.Send(context.Background(), msg); err != nil {
		t.Fatal(err)
	}
	if got := fake.Last(t).JSON(t)["channel"]; got != "U-alice" {
		t.Errorf("channel %v", got)
	}
}

func TestPostMessageErrorsAreClassified(t *testing.T) {
	fake := providertest.New(t)
	p := newProvider(t, fake, "botToken", botToken, "channel", "C1", "baseUrl", fake.URL)
	send := func() error { _, err := p.Send(context.Background(), message()); return err }
	providertest.RunFaults(t, fake, []providertest.Fault{
		{Name: "channel not found", Status: 200, Body: `{"ok":false,"error":"channel_not_found"}`, Want: providertest.Want{Permanent: true, Status: 200}},
		{Name: "revoked token", Status: 200, Body: `{"ok":false,"error":"token_revoked"}`, Want: providertest.Want{Permanent: true, Status: 200}},
		{Name: "not in channel", Status: 200, Body: `{"ok":false,"error":"not_in_channel"}`, Want: providertest.Want{Permanent: true, Status: 200}},
		{Name: "internal error", Status: 200, Body: `{"ok":false,"error":"internal_error"}`, Want: providertest.Want{Status: 200}},
		{Name: "rate limited", Status: 429, Body: `{"ok":false,"error":"ratelimited"}`, Headers: []string{"Retry-After", "30"},
			Want: providertest.Want{Status: 429, RetryAfter: 30 * time.Second}},
		{Name: "server error", Status: 503, Body: "", Want: providertest.Want{Status: 503}},
	}, send, botToken)
}

func TestWebhookErrorsAreClassified(t *testing.T) {
	fake := providertest.New(t)
	p := newProvider(t, fake, "webhookUrl", fake.URL+hookPath)
	send := func() error { _, err := p.Send(context.Background(), message()); return err }
	providertest.RunFaults(t, fake, []providertest.Fault{
		{Name: "invalid payload", Status: 400, Body: "invalid_payload", Want: providertest.Want{Permanent: true, Status: 400}},
		{Name: "prohibited", Status: 403, Body: "action_prohibited", Want: providertest.Want{Permanent: true, Status: 403}},
		{Name: "revoked hook", Status: 404, Body: "no_service", Want: providertest.Want{Permanent: true, Status: 404}},
		{Name: "archived", Status: 410, Body: "channel_is_archived", Want: providertest.Want{Permanent: true, Status: 410}},
		{Name: "rate limited", Status: 429, Body: "", Headers: []string{"Retry-After", "1"}, Want: providertest.Want{Status: 429, RetryAfter: time.Second}},
		{Name: "server error", Status: 500, Body: "", Want: providertest.Want{Status: 500}},
	}, send, hookPath)
}

func TestNowhereToPost(t *testing.T) {
	fake := providertest.New(t)
	_, err := newProvider(t, fake).Send(context.Background(), message())
	providertest.ExpectError(t, err, providertest.Want{Permanent: true})
	_, err = newProvider(t, fake, "botToken", botToken).Send(context.Background(), message())
	providertest.ExpectError(t, err, providertest.Want{Permanent: true})
	if n := len(fake.Requests()); n != 0 {
		t.Errorf("%d requests", n)
	}
}

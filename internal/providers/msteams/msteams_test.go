package msteams

import (
	"context"
	"testing"
	"time"

	"github.com/heraldhq/herald/internal/providers"
	"github.com/heraldhq/herald/internal/providers/internal/providertest"
)

const hookPath = "/workflows/a1b2c3/triggers/manual/paths/invoke"

func newProvider(t *testing.T, fake *providertest.Fake, kv ...any) providers.Provider {
	t.Helper()
	p, err := Kind().New(providertest.Config(kv...), providers.Deps{HTTP: fake.Client()})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func message() providers.Message {
	return providers.Message{Channel: "msTeams", Title: "Deploy", Body: "Done", URL: "https://ci.example.com/42"}
}

func TestAdaptiveCardToAWorkflowsWebhook(t *testing.T) {
	fake := providertest.New(t)
	fake.Reply(202, "")
	if _, err := newProvider(t, fake, "webhookUrl", fake.URL+hookPath+"?sig=secret-signature").Send(context.Background(), message()); err != nil {
		t.Fatal(err)
	}
	r := fake.Last(t)
	if r.Method != "POST" || r.Path != hookPath || r.Query.Get("sig") != "secret-signature" || r.Header.Get("Content-Type") != "application/json" {
		t.Errorf("%s %s %v", r.Method, r.Path, r.Header)
	}
	providertest.EqualJSON(t, r.Body, `{"type":"message","attachments":[{
		"contentType":"application/vnd.microsoft.card.adaptive","contentUrl":null,
		"content":{"$schema":"http://adaptivecards.io/schemas/adaptive-card.json","type":"AdaptiveCard","version":"1.4",
			"body":[{"type":"TextBlock","text":"Deploy","weight":"Bolder","size":"Medium","wrap":true},{"type":"TextBlock","text":"Done","wrap":true}],
			"actions":[{"type":"Action.OpenUrl","title":"Open","url":"https://ci.example.com/42"}]}}]}`)
}

func TestMessageCardAndOverrideCard(t *testing.T) {
	fake := providertest.New(t)
	fake.Reply(200, "1")
	msg := message()
	msg.To.WebhookURL = fake.URL + "/webhookb2/own"
	p := newProvider(t, fake, "webhookUrl", fake.URL+hookPath, "format", "messageCard")
	if _, err := p.Send(context.Background(), msg); err != nil {
		t.Fatal(err)
	}
	r := fake.Last(t)
	if r.Path != "/webhookb2/own" {
		t.Errorf("path %s", r.Path)
	}
	providertest.EqualJSON(t, r.Body, `{"@type":"MessageCard","@context":"https://schema.org/extensions","summary":"Deploy","title":"Deploy","text":"Done",
		"potentialAction":[{"@type":"OpenUri","name":"Open","targets":[{"os":"default","uri":"https://ci.example.com/42"}]}]}`)

	msg.Override = []byte(`{"card":{"type":"AdaptiveCard","version":"1.5","body":[{"type":"TextBlock","text":"custom"}]}}`)
	if _, err := newProvider(t, fake, "webhookUrl", fake.URL+hookPath).Send(context.Background(), msg); err != nil {
		t.Fatal(err)
	}
	content := fake.Last(t).JSON(t)["attachments"].([]any)[0].(map[string]any)["content"].(map[string]any)
	if content["version"] != "1.5" {
		t.Errorf("card %v", content)
	}
}

func TestFaultsAreClassified(t *testing.T) {
	fake := providertest.New(t)
	p := newProvider(t, fake, "webhookUrl", fake.URL+hookPath+"?sig=secret-signature")
	send := func() error { _, err := p.Send(context.Background(), message()); return err }
	providertest.RunFaults(t, fake, []providertest.Fault{
		{Name: "bad payload", Status: 400, Body: "Bad payload received by generic incoming webhook.", Want: providertest.Want{Permanent: true, Status: 400}},
		{Name: "schema mismatch", Status: 400, Body: `{"error":{"code":"TriggerInputSchemaMismatch","message":"..."}}`, Want: providertest.Want{Permanent: true, Status: 400}},
		{Name: "removed webhook", Status: 404, Body: "", Want: providertest.Want{Permanent: true, Status: 404}},
		{Name: "throttled", Status: 429, Body: "", Headers: []string{"Retry-After", "5"}, Want: providertest.Want{Status: 429, RetryAfter: 5 * time.Second}},
		{Name: "server error", Status: 500, Body: "", Want: providertest.Want{Status: 500}},
		{Name: "connector throttled inside a 200", Status: 200,
			Body: "Webhook message delivery failed with error: Microsoft Teams endpoint returned HTTP error 429 with ContextId tcid=0,server=msgapi", Want: providertest.Want{Status: 200}},
		{Name: "connector refused inside a 200", Status: 200,
			Body: "Webhook message delivery failed with error: Microsoft Teams endpoint returned HTTP error 413 with ContextId x", Want: providertest.Want{Permanent: true, Status: 200}},
	}, send, "secret-signature")
	_, err := newProvider(t, fake).Send(context.Background(), message())
	providertest.ExpectError(t, err, providertest.Want{Permanent: true})
}

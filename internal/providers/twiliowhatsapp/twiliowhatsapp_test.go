package twiliowhatsapp

import (
	"context"
	"testing"
	"time"

	"github.com/heraldhq/herald/internal/providers"
	"github.com/heraldhq/herald/internal/providers/internal/providertest"
)

const token = "twilio-auth-token-secret"

func newProvider(t *testing.T, fake *providertest.Fake) providers.Provider {
	t.Helper()
	p, err := Kind().New(providertest.Config("accountSid", "AC123", "authToken", token, "from", "+15550001111", "baseUrl", fake.URL),
		providers.Deps{HTTP: fake.Client()})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func message() providers.Message {
	return providers.Message{Channel: "whatsapp", Body: "Your order shipped", To: providers.Address{PhoneNumber: "+15552223333"}}
}

func TestSendPrefixesWhatsAppAddresses(t *testing.T) {
	fake := providertest.New(t)
	fake.Reply(201, `{"sid":"SM9","status":"queued"}`)
	res, err := newProvider(t, fake).Send(context.Background(), message())
	if err != nil || res.ProviderMessageID != "SM9" {
		t.Fatal(res, err)
	}
	r := fake.Last(t)
	if r.Path != "/2010-04-01/Accounts/AC123/Messages.json" {
		t.Errorf("path %s", r.Path)
	}
	form := r.Form(t)
	if form.Get("To") != "whatsapp:+15552223333" || form.Get("From") != "whatsapp:+15550001111" || form.Get("Body") != "Your order shipped" {
		t.Errorf("form %v", form)
	}
}

func TestTemplateFromOverride(t *testing.T) {
	fake := providertest.New(t)
	fake.Reply(201, `{"sid":"SM9","status":"queued"}`)
	msg := message()
	msg.Body = ""
	msg.Override = []byte(`{"contentSid":"HX0123","contentVariables":{"1":"Alice","2":"#42"}}`)
	if _, err := newProvider(t, fake).Send(context.Background(), msg); err != nil {
		t.Fatal(err)
	}
	form := fake.Last(t).Form(t)
	if form.Get("ContentSid") != "HX0123" || form.Get("ContentVariables") != `{"1":"Alice","2":"#42"}` || form.Has("Body") {
		t.Errorf("form %v", form)
	}
}

func TestFaultsAreClassified(t *testing.T) {
	fake := providertest.New(t)
	p := newProvider(t, fake)
	send := func() error { _, err := p.Send(context.Background(), message()); return err }
	providertest.RunFaults(t, fake, []providertest.Fault{
		{Name: "outside session window", Status: 400, Body: `{"code":63016,"message":"Failed to send freeform message because you are outside the allowed window.","status":400}`,
			Want: providertest.Want{Permanent: true, Status: 400}},
		{Name: "rate limited", Status: 429, Body: `{"code":20429,"message":"Too Many Requests"}`, Headers: []string{"Retry-After", "2"},
			Want: providertest.Want{Status: 429, RetryAfter: 2 * time.Second}},
		{Name: "server error", Status: 500, Body: `{}`, Want: providertest.Want{Status: 500}},
	}, send, token)
	msg := message()
	msg.Body = ""
	_, err := p.Send(context.Background(), msg)
	providertest.ExpectError(t, err, providertest.Want{Permanent: true})
}

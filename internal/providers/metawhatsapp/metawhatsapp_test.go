package metawhatsapp

import (
	"context"
	"strconv"
	"strings"
	"testing"

	"github.com/heraldhq/herald/internal/providers"
	"github.com/heraldhq/herald/internal/providers/internal/providertest"
)

const token = "EAAG-meta-access-token"

func newProvider(t *testing.T, fake *providertest.Fake) providers.Provider {
	t.Helper()
	p, err := Kind().New(providertest.Config("accessToken", token, "phoneNumberId", "106540352242922", "baseUrl", fake.URL),
		providers.Deps{HTTP: fake.Client()})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func message() providers.Message {
	return providers.Message{Channel: "whatsapp", IdempotencyKey: "req-1:alice:whatsapp", Title: "Order shipped", Body: "It arrives Friday",
		URL: "https://shop.example.com/o/42", To: providers.Address{PhoneNumber: "+16505551234"}}
}

const accepted = `{"messaging_product":"whatsapp","contacts":[{"input":"+16505551234","wa_id":"16505551234"}],"messages":[{"id":"wamid.HBgLMTY1MDM4Nzk0MzkVAgARGBJDQjZCMzlEQUE4OTJBMTE4RTUA"}]}`

func TestSendText(t *testing.T) {
	fake := providertest.New(t)
	fake.Reply(200, accepted)
	res, err := newProvider(t, fake).Send(context.Background(), message())
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(res.ProviderMessageID, "wamid.") {
		t.Errorf("id %q", res.ProviderMessageID)
	}
	r := fake.Last(t)
	if r.Method != "POST" || r.Path != "/v23.0/106540352242922/messages" {
		t.Errorf("%s %s", r.Method, r.Path)
	}
	if r.Header.Get("Authorization") != "Bearer "+token || r.Header.Get("Content-Type") != "application/json" {
		t.Errorf("headers %v", r.Header)
	}
	providertest.EqualJSON(t, r.Body, `{
		"messaging_product": "whatsapp", "recipient_type": "individual", "to": "+16505551234",
		"type": "text",
		"text": {"body": "Order shipped\nIt arrives Friday\nhttps://shop.example.com/o/42", "preview_url": true},
		"biz_opaque_callback_data": "req-1:alice:whatsapp"
	}`)
}

func TestSendTemplateFromOverride(t *testing.T) {
	fake := providertest.New(t)
	fake.Reply(200, accepted)
	msg := message()
	msg.Override = []byte(`{"template":{"name":"order_shipped","language":"en_US","components":[{"type":"body","parameters":[{"type":"text","text":"Friday"}]}]}}`)
	if _, err := newProvider(t, fake).Send(context.Background(), msg); err != nil {
		t.Fatal(err)
	}
	providertest.EqualJSON(t, fake.Last(t).Body, `{
		"messaging_product": "whatsapp", "recipient_type": "individual", "to": "+16505551234",
		"type": "template",
		"template": {"name": "order_shipped", "language": {"code": "en_US"},
			"components": [{"type": "body", "parameters": [{"type": "text", "text": "Friday"}]}]},
		"biz_opaque_callback_data": "req-1:alice:whatsapp"
	}`)
}

func TestFaultsAreClassified(t *testing.T) {
	fake := providertest.New(t)
	p := newProvider(t, fake)
	send := func() error { _, err := p.Send(context.Background(), message()); return err }
	metaError := func(code int, msg string) string {
		return `{"error":{"message":"` + msg + `","type":"OAuthException","code":` + strconv.Itoa(code) + `,"error_data":{"messaging_product":"whatsapp","details":"detail"},"fbtrace_id":"Az8or2yhqkZfEZ-_4Qn_Bam"}}`
	}
	providertest.RunFaults(t, fake, []providertest.Fault{
		{Name: "throughput limit", Status: 400, Body: metaError(130429, "Rate limit hit"), Want: providertest.Want{Status: 400}},
		{Name: "pair rate limit", Status: 400, Body: metaError(131056, "Pair rate limit hit"), Want: providertest.Want{Status: 400}},
		{Name: "outside window", Status: 400, Body: metaError(131047, "Re-engagement message"), Want: providertest.Want{Permanent: true, Status: 400}},
		{Name: "expired token", Status: 401, Body: metaError(190, "Error validating access token"), Want: providertest.Want{Permanent: true, Status: 401}},
		{Name: "template params", Status: 400, Body: metaError(132000, "Number of parameters does not match"), Want: providertest.Want{Permanent: true, Status: 400}},
		{Name: "service unavailable", Status: 503, Body: metaError(131016, "Service unavailable"), Want: providertest.Want{Status: 503}},
		{Name: "plain 500", Status: 500, Body: "oops", Want: providertest.Want{Status: 500}},
	}, send, token)
	fake.Reply(400, metaError(131026, "Message undeliverable"))
	if _, err := p.Send(context.Background(), message()); !strings.Contains(err.Error(), "WhatsApp error 131026: Message undeliverable (detail)") {
		t.Errorf("message %v", err)
	}
}

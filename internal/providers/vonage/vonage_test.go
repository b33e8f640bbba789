package vonage

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/heraldhq/herald/internal/providers"
	"github.com/heraldhq/herald/internal/providers/internal/providertest"
)

const secret = "vonage-api-secret"

func newProvider(t *testing.T, fake *providertest.Fake) providers.Provider {
	t.Helper()
	p, err := Kind().New(providertest.Config("apiKey", "abcd1234", "apiSecret", secret, "from", "Herald",
		"statusReportCallback", "https://herald.example.com/cb", "baseUrl", fake.URL), providers.Deps{HTTP: fake.Client()})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func message() providers.Message {
	return providers.Message{Channel: "sms", IdempotencyKey: "req-1:alice:sms", Body: "Your code is 1234",
		To: providers.Address{PhoneNumber: "+447700900000"}}
}

const accepted = `{"message-count":"1","messages":[{"to":"447700900000","message-id":"0C000000217B7F02","status":"0","remaining-balance":"15.53590000","message-price":"0.03330000","network":"23410"}]}`

func TestSendFollowsTheSMSAPI(t *testing.T) {
	fake := providertest.New(t)
	fake.Reply(200, accepted)
	res, err := newProvider(t, fake).Send(context.Background(), message())
	if err != nil {
		t.Fatal(err)
	}
	if res.ProviderMessageID != "0C000000217B7F02" {
		t.Errorf("id %q", res.ProviderMessageID)
	}
	providertest.NoSecrets(t, res.Response, secret)
	r := fake.Last(t)
	if r.Method != "POST" || r.Path != "/sms/json" {
		t.Errorf("%s %s", r.Method, r.Path)
	}
	form := r.Form(t)
	want := map[string]string{"api_key": "abcd1234", "api_secret": secret, "from": "Herald", "to": "447700900000",
		"text": "Your code is 1234", "client-ref": "req-1:alice:sms", "status-report-req": "1", "callback": "https://herald.example.com/cb"}
	for k, v := range want {
		if form.Get(k) != v {
			t.Errorf("%s = %q, want %q", k, form.Get(k), v)
		}
	}
	if form.Has("type") {
		t.Error("ASCII text sent as unicode")
	}
}

func TestUnicodeAndLongKeys(t *testing.T) {
	fake := providertest.New(t)
	fake.Reply(200, accepted)
	msg := message()
	msg.Body = "Ваш код 1234"
	msg.IdempotencyKey = "0199aaaa-bbbb-cccc-dddd-eeeeeeeeeeee:someone-with-a-long-identifier:sms"
	if _, err := newProvider(t, fake).Send(context.Background(), msg); err != nil {
		t.Fatal(err)
	}
	form := fake.Last(t).Form(t)
	if form.Get("type") != "unicode" || len(form.Get("client-ref")) != clientRefMax {
		t.Errorf("form %v", form)
	}
}

func TestStatusCodesAreClassified(t *testing.T) {
	fake := providertest.New(t)
	p := newProvider(t, fake)
	send := func() error { _, err := p.Send(context.Background(), message()); return err }
	refused := func(status, text string) string {
		return `{"message-count":"1","messages":[{"status":"` + status + `","error-text":"` + text + `"}]}`
	}
	providertest.RunFaults(t, fake, []providertest.Fault{
		{Name: "throttled", Status: 200, Body: refused("1", "Throttled"), Want: providertest.Want{RetryAfter: time.Second}},
		{Name: "internal error", Status: 200, Body: refused("5", "Internal Error"), Want: providertest.Want{}},
		{Name: "invalid parameters", Status: 200, Body: refused("3", "Invalid to address"), Want: providertest.Want{Permanent: true}},
		{Name: "bad credentials", Status: 200, Body: refused("4", "Bad Credentials"), Want: providertest.Want{Permanent: true}},
		{Name: "barred number", Status: 200, Body: refused("7", "Number barred"), Want: providertest.Want{Permanent: true}},
		{Name: "second part refused", Status: 200, Body: `{"message-count":"2","messages":[{"status":"0","message-id":"A"},{"status":"9","error-text":"Quota Exceeded"}]}`,
			Want: providertest.Want{Permanent: true}},
		{Name: "http 429", Status: 429, Body: "", Headers: []string{"Retry-After", "4"}, Want: providertest.Want{Status: 429, RetryAfter: 4 * time.Second}},
		{Name: "http 500", Status: 500, Body: "", Want: providertest.Want{Status: 500}},
		{Name: "http 401", Status: 401, Body: `{"type":"https://developer.nexmo.com/api-errors#unauthorized"}`, Want: providertest.Want{Permanent: true, Status: 401}},
	}, send, secret)
	fake.Reply(200, refused("7", "Number barred"))
	if _, err := p.Send(context.Background(), message()); !strings.Contains(err.Error(), "Vonage status 7: Number barred") {
		t.Errorf("message %v", err)
	}
}

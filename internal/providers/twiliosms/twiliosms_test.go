package twiliosms

import (
	"context"
	"encoding/base64"
	"strings"
	"testing"
	"time"

	"github.com/heraldhq/herald/internal/providers"
	"github.com/heraldhq/herald/internal/providers/internal/providertest"
)

const token = "twilio-auth-token-secret"

func newProvider(t *testing.T, fake *providertest.Fake, extra ...any) providers.Provider {
	t.Helper()
	kv := append([]any{"accountSid", "AC123", "authToken", token, "from", "+15550001111",
		"statusCallback", "https://herald.example.com/v1/providerInstances/7/callback", "baseUrl", fake.URL}, extra...)
	p, err := Kind().New(providertest.Config(kv...), providers.Deps{HTTP: fake.Client()})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func message() providers.Message {
	return providers.Message{Channel: "sms", IdempotencyKey: "req-1:alice:sms", Title: "Code", Body: "Your code is 1234",
		To: providers.Address{PhoneNumber: "+15552223333"}}
}

func TestSendFollowsTheMessagesAPI(t *testing.T) {
	fake := providertest.New(t)
	fake.Reply(201, `{"sid":"SM0123","status":"queued"}`)
	res, err := newProvider(t, fake).Send(context.Background(), message())
	if err != nil {
		t.Fatal(err)
	}
	if res.ProviderMessageID != "SM0123" || res.Response != "201 queued" {
		t.Errorf("result %+v", res)
	}
	r := fake.Last(t)
	if r.Method != "POST" || r.Path != "/2010-04-01/Accounts/AC123/Messages.json" {
		t.Errorf("%s %s", r.Method, r.Path)
	}
	if got := r.Header.Get("Authorization"); got != "Basic "+base64.StdEncoding.EncodeToString([]byte("AC123:"+token)) {
		t.Errorf("Authorization %q", got)
	}
	form := r.Form(t)
	want := map[string]string{"To": "+15552223333", "From": "+15550001111", "Body": "Code\nYour code is 1234",
		"StatusCallback": "https://herald.example.com/v1/providerInstances/7/callback"}
	for k, v := range want {
		if form.Get(k) != v {
			t.Errorf("%s = %q, want %q", k, form.Get(k), v)
		}
	}
	if len(form) != len(want) {
		t.Errorf("form %v", form)
	}
}

func TestMessagingServiceAndMedia(t *testing.T) {
	fake := providertest.New(t)
	fake.Reply(201, `{"sid":"SM1","status":"accepted"}`)
	msg := message()
	msg.Override = []byte(`{"mediaUrl":["https://example.com/a.png","https://example.com/b.png"]}`)
	p := newProvider(t, fake, "from", "", "messagingServiceSid", "MG42")
	if _, err := p.Send(context.Background(), msg); err != nil {
		t.Fatal(err)
	}
	form := fake.Last(t).Form(t)
	if form.Get("MessagingServiceSid") != "MG42" || form.Has("From") || len(form["MediaUrl"]) != 2 {
		t.Errorf("form %v", form)
	}
}

func TestFaultsAreClassified(t *testing.T) {
	fake := providertest.New(t)
	p := newProvider(t, fake)
	send := func() error { _, err := p.Send(context.Background(), message()); return err }
	providertest.RunFaults(t, fake, []providertest.Fault{
		{Name: "invalid number", Status: 400, Body: `{"code":21211,"message":"The 'To' number +1555 is not a valid phone number.","status":400}`,
			Want: providertest.Want{Permanent: true, Status: 400}},
		{Name: "unsubscribed (STOP)", Status: 400, Body: `{"code":21610,"message":"Attempt to send to unsubscribed recipient","status":400}`,
			Want: providertest.Want{Permanent: true, OptedOut: true, Status: 400}},
		{Name: "bad credentials", Status: 401, Body: `{"code":20003,"message":"Authenticate","status":401}`, Want: providertest.Want{Permanent: true, Status: 401}},
		{Name: "rate limited", Status: 429, Body: `{"code":20429,"message":"Too Many Requests","status":429}`, Headers: []string{"Retry-After", "5"},
			Want: providertest.Want{Status: 429, RetryAfter: 5 * time.Second}},
		{Name: "server error", Status: 503, Body: `{"code":20503,"message":"Service unavailable","status":503}`, Want: providertest.Want{Status: 503}},
	}, send, token)
	fake.Reply(400, `{"code":21211,"message":"The 'To' number is not a valid phone number.","status":400}`)
	if _, err := p.Send(context.Background(), message()); !strings.Contains(err.Error(), "Twilio error 21211") {
		t.Errorf("message %v", err)
	}
}

func TestRefusesWithoutNumberOrSender(t *testing.T) {
	fake := providertest.New(t)
	msg := message()
	msg.To.PhoneNumber = ""
	_, err := newProvider(t, fake).Send(context.Background(), msg)
	providertest.ExpectError(t, err, providertest.Want{Permanent: true})
	if _, err := Kind().New(providertest.Config("accountSid", "AC1", "authToken", "x"), providers.Deps{}); err == nil ||
		err.Error() != "from or messagingServiceSid is required" {
		t.Errorf("config error %v", err)
	}
}

package sendgrid

import (
	"context"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/heraldhq/herald/internal/providers"
	"github.com/heraldhq/herald/internal/providers/internal/providertest"
)

const apiKey = "SG.very-secret-key"

func newProvider(t *testing.T, fake *providertest.Fake) providers.Provider {
	t.Helper()
	p, err := Kind().New(providertest.Config("apiKey", apiKey, "from", "noreply@example.com",
		"fromName", "Herald", "replyTo", "help@example.com", "baseUrl", fake.URL), providers.Deps{HTTP: fake.Client()})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func message() providers.Message {
	return providers.Message{
		Channel: "email", IdempotencyKey: "req-1:alice:email", RequestID: "req-1", UserIdentifier: "alice",
		To:      providers.Address{Email: "alice@example.com"},
		Subject: "Welcome", Text: "Hi Alice", HTML: "<p>Hi Alice</p>",
		CC:          []string{"bob@example.com", "ALICE@example.com", ""},
		BCC:         []string{"carol@example.com", "bob@example.com"},
		Attachments: []providers.Attachment{{Filename: "a.txt", ContentType: "text/plain", Content: []byte("hello")}},
	}
}

// withHeaders is message() with the unsubscribe headers of a non-critical email.
func withHeaders() providers.Message {
	m := message()
	m.Headers = []providers.Header{{Name: "List-Unsubscribe", Value: "<https://h.example.com/unsubscribe/t>"}, {Name: "List-Unsubscribe-Post", Value: "List-Unsubscribe=One-Click"}}
	return m
}

func TestSendFollowsTheMailSendFormat(t *testing.T) {
	fake := providertest.New(t)
	fake.Reply(202, "", "X-Message-Id", "msg-42")
	res, err := newProvider(t, fake).Send(context.Background(), withHeaders())
	if err != nil {
		t.Fatal(err)
	}
	if res.ProviderMessageID != "msg-42" {
		t.Errorf("message id %q", res.ProviderMessageID)
	}
	providertest.NoSecrets(t, res.Response, apiKey)
	r := fake.Last(t)
	if r.Method != "POST" || r.Path != "/v3/mail/send" {
		t.Errorf("%s %s", r.Method, r.Path)
	}
	if got := r.Header.Get("Authorization"); got != "Bearer "+apiKey {
		t.Errorf("Authorization %q", got)
	}
	if got := r.Header.Get("Content-Type"); got != "application/json" {
		t.Errorf("Content-Type %q", got)
	}
	providertest.EqualJSON(t, r.Body, `{
		"personalizations": [{
			"to": [{"email": "alice@example.com"}],
			"cc": [{"email": "bob@example.com"}],
			"bcc": [{"email": "carol@example.com"}]
		}],
		"from": {"email": "noreply@example.com", "name": "Herald"},
		"reply_to": {"email": "help@example.com"},
		"subject": "Welcome",
		"content": [{"type": "text/plain", "value": "Hi Alice"}, {"type": "text/html", "value": "<p>Hi Alice</p>"}],
		"attachments": [{"content": "aGVsbG8=", "type": "text/plain", "filename": "a.txt", "disposition": "attachment"}],
		"custom_args": {"heraldIdempotencyKey": "req-1:alice:email", "heraldRequestId": "req-1"},
		"headers": {"List-Unsubscribe": "<https://h.example.com/unsubscribe/t>", "List-Unsubscribe-Post": "List-Unsubscribe=One-Click"}
	}`)
}

func TestOverrideSenderWins(t *testing.T) {
	fake := providertest.New(t)
	fake.Reply(202, "")
	msg := message()
	msg.From, msg.FromName, msg.ReplyTo = "news@example.com", "News", "news-replies@example.com"
	if _, err := newProvider(t, fake).Send(context.Background(), msg); err != nil {
		t.Fatal(err)
	}
	body := fake.Last(t).JSON(t)
	from := body["from"].(map[string]any)
	if from["email"] != "news@example.com" || from["name"] != "News" {
		t.Errorf("from %v", from)
	}
	if rt := body["reply_to"].(map[string]any); rt["email"] != "news-replies@example.com" {
		t.Errorf("reply_to %v", rt)
	}
}

func TestFaultsAreClassified(t *testing.T) {
	fake := providertest.New(t)
	p := newProvider(t, fake)
	send := func() error { _, err := p.Send(context.Background(), message()); return err }
	providertest.RunFaults(t, fake, []providertest.Fault{
		{Name: "bad request", Status: 400, Body: `{"errors":[{"message":"The from address does not match a verified Sender Identity","field":"from"}]}`,
			Want: providertest.Want{Permanent: true, Status: 400}},
		{Name: "bad key", Status: 401, Body: `{"errors":[{"message":"The provided authorization grant is invalid"}]}`,
			Want: providertest.Want{Permanent: true, Status: 401}},
		{Name: "server error", Status: 500, Body: `{"errors":[{"message":"internal"}]}`, Want: providertest.Want{Status: 500}},
		{Name: "rate limited", Status: 429, Body: `{"errors":[{"message":"too many requests"}]}`, Headers: []string{"Retry-After", "7"},
			Want: providertest.Want{Status: 429, RetryAfter: 7 * time.Second}},
	}, send, apiKey)
}

func TestRateLimitResetHeader(t *testing.T) {
	fake := providertest.New(t)
	reset := time.Now().Add(time.Minute).Unix()
	fake.Reply(429, `{"errors":[]}`, "X-RateLimit-Reset", strconv.FormatInt(reset, 10))
	_, err := newProvider(t, fake).Send(context.Background(), message())
	pe, ok := err.(*providers.Error)
	if !ok || pe.Permanent || pe.RetryAfter < 30*time.Second || pe.RetryAfter > time.Minute {
		t.Fatalf("got %#v", err)
	}
}

func TestRefusesUnsendableMessages(t *testing.T) {
	fake := providertest.New(t)
	p := newProvider(t, fake)
	noAddress := message()
	noAddress.To.Email = ""
	noBody := message()
	noBody.Text, noBody.HTML = "", ""
	for _, msg := range []providers.Message{noAddress, noBody} {
		_, err := p.Send(context.Background(), msg)
		providertest.ExpectError(t, err, providertest.Want{Permanent: true})
	}
	if n := len(fake.Requests()); n != 0 {
		t.Errorf("%d requests sent", n)
	}
}

func TestConfigRequiresKeyAndSender(t *testing.T) {
	_, err := Kind().New(providertest.Config(), providers.Deps{})
	if err == nil || !strings.Contains(err.Error(), "apiKey is required") || !strings.Contains(err.Error(), "from is required") {
		t.Errorf("got %v", err)
	}
}

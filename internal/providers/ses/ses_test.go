package ses

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/heraldhq/herald/internal/providers"
	"github.com/heraldhq/herald/internal/providers/internal/providertest"
)

const secretKey = "ses-secret-access-key"

func newProvider(t *testing.T, fake *providertest.Fake) providers.Provider {
	t.Helper()
	p, err := Kind().New(providertest.Config("accessKeyId", "AKIATEST", "secretAccessKey", secretKey,
		"region", "eu-west-1", "from", "noreply@example.com", "fromName", "Hérald",
		"configurationSetName", "herald-events", "baseUrl", fake.URL), providers.Deps{HTTP: fake.Client()})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func message() providers.Message {
	return providers.Message{
		Channel: "email", IdempotencyKey: "req-1:alice@example.com:email", RequestID: "req-1",
		To:      providers.Address{Email: "alice@example.com"},
		Subject: "Welcome", Text: "Hi", HTML: "<p>Hi</p>", ReplyTo: "help@example.com",
		CC: []string{"bob@example.com"}, BCC: []string{"carol@example.com"},
		Attachments: []providers.Attachment{{Filename: "a.txt", ContentType: "text/plain", Content: []byte("hello")}},
	}
}

// withHeaders is message() with the unsubscribe headers of a non-critical email.
func withHeaders() providers.Message {
	m := message()
	m.Headers = []providers.Header{{Name: "List-Unsubscribe", Value: "<https://h.example.com/unsubscribe/t>"}, {Name: "List-Unsubscribe-Post", Value: "List-Unsubscribe=One-Click"}}
	return m
}

func TestSendFollowsSendEmailV2(t *testing.T) {
	fake := providertest.New(t)
	fake.Reply(200, `{"MessageId":"0102018c-ses-id"}`)
	res, err := newProvider(t, fake).Send(context.Background(), withHeaders())
	if err != nil {
		t.Fatal(err)
	}
	if res.ProviderMessageID != "0102018c-ses-id" {
		t.Errorf("id %q", res.ProviderMessageID)
	}
	r := fake.Last(t)
	if r.Method != "POST" || r.Path != "/v2/email/outbound-emails" {
		t.Errorf("%s %s", r.Method, r.Path)
	}
	providertest.EqualJSON(t, r.Body, `{
		"FromEmailAddress": "=?utf-8?q?H=C3=A9rald?= <noreply@example.com>",
		"Destination": {"ToAddresses": ["alice@example.com"], "CcAddresses": ["bob@example.com"], "BccAddresses": ["carol@example.com"]},
		"ReplyToAddresses": ["help@example.com"],
		"Content": {"Simple": {
			"Subject": {"Data": "Welcome", "Charset": "UTF-8"},
			"Body": {"Text": {"Data": "Hi", "Charset": "UTF-8"}, "Html": {"Data": "<p>Hi</p>", "Charset": "UTF-8"}},
			"Attachments": [{"FileName": "a.txt", "RawContent": "aGVsbG8=", "ContentType": "text/plain", "ContentDisposition": "ATTACHMENT"}],
			"Headers": [{"Name": "List-Unsubscribe", "Value": "<https://h.example.com/unsubscribe/t>"}, {"Name": "List-Unsubscribe-Post", "Value": "List-Unsubscribe=One-Click"}]
		}},
		"EmailTags": [{"Name": "heraldKey", "Value": "req-1_alice_example_com_email"}, {"Name": "heraldRequest", "Value": "req-1"}],
		"ConfigurationSetName": "herald-events"
	}`)

	// The signature covers what arrived: re-sign the received request and compare.
	auth := r.Header.Get("Authorization")
	if !strings.HasPrefix(auth, "AWS4-HMAC-SHA256 Credential=AKIATEST/") || !strings.Contains(auth, "/eu-west-1/ses/aws4_request, SignedHeaders=content-type;host;x-amz-date, ") {
		t.Fatalf("Authorization %s", auth)
	}
	at, err := time.Parse(amzDateFormat, r.Header.Get("X-Amz-Date"))
	if err != nil {
		t.Fatal(err)
	}
	check, _ := http.NewRequest(r.Method, fake.URL+r.Path, nil)
	check.Header.Set("Content-Type", r.Header.Get("Content-Type"))
	signV4(check, r.Body, credentials{"AKIATEST", secretKey, ""}, "eu-west-1", "ses", at)
	if check.Header.Get("Authorization") != auth {
		t.Errorf("signature does not verify:\n got %s\nwant %s", auth, check.Header.Get("Authorization"))
	}
}

func TestDefaultEndpointIsRegional(t *testing.T) {
	p, err := Kind().New(providertest.Config("accessKeyId", "a", "secretAccessKey", "s", "region", "us-west-2", "from", "a@b.c"), providers.Deps{})
	if err != nil {
		t.Fatal(err)
	}
	if got := p.(*provider).cfg.BaseURL; got != "https://email.us-west-2.amazonaws.com" {
		t.Errorf("base %s", got)
	}
}

func TestFaultsAreClassified(t *testing.T) {
	fake := providertest.New(t)
	p := newProvider(t, fake)
	send := func() error { _, err := p.Send(context.Background(), message()); return err }
	providertest.RunFaults(t, fake, []providertest.Fault{
		{Name: "rejected", Status: 400, Body: `{"message":"Email address is not verified."}`, Headers: []string{"x-amzn-ErrorType", "MessageRejected:http://internal.amazon.com/"},
			Want: providertest.Want{Permanent: true, Status: 400}},
		{Name: "bad signature", Status: 403, Body: `{"message":"The request signature we calculated does not match"}`, Headers: []string{"x-amzn-ErrorType", "SignatureDoesNotMatch"},
			Want: providertest.Want{Permanent: true, Status: 403}},
		{Name: "throttled as 400", Status: 400, Body: `{"__type":"ThrottlingException","message":"Maximum sending rate exceeded."}`,
			Want: providertest.Want{Status: 400}},
		{Name: "too many requests", Status: 429, Body: `{"message":"Too many requests"}`, Headers: []string{"x-amzn-ErrorType", "TooManyRequestsException", "Retry-After", "1"},
			Want: providertest.Want{Status: 429, RetryAfter: time.Second}},
		{Name: "server error", Status: 500, Body: `{"message":"internal"}`, Want: providertest.Want{Status: 500}},
	}, send, secretKey)
	_, err := p.Send(context.Background(), message())
	if !strings.Contains(err.Error(), "Internal") && !strings.Contains(err.Error(), "internal") {
		t.Errorf("message %v", err)
	}
}

package mailgun

import (
	"bytes"
	"context"
	"encoding/base64"
	"io"
	"mime"
	"mime/multipart"
	"strings"
	"testing"
	"time"

	"github.com/heraldhq/herald/internal/providers"
	"github.com/heraldhq/herald/internal/providers/internal/providertest"
)

const apiKey = "key-very-secret"

func newProvider(t *testing.T, fake *providertest.Fake, extra ...any) providers.Provider {
	t.Helper()
	kv := append([]any{"apiKey", apiKey, "domain", "mg.example.com", "from", "noreply@example.com",
		"fromName", "Herald Team", "baseUrl", fake.URL}, extra...)
	p, err := Kind().New(providertest.Config(kv...), providers.Deps{HTTP: fake.Client()})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func message() providers.Message {
	return providers.Message{
		Channel: "email", IdempotencyKey: "req-1:alice:email", RequestID: "req-1",
		To:      providers.Address{Email: "alice@example.com"},
		Subject: "Welcome", Text: "Hi Alice", HTML: "<p>Hi Alice</p>", ReplyTo: "help@example.com",
		CC: []string{"bob@example.com"}, BCC: []string{"carol@example.com", "bob@example.com"},
		Attachments: []providers.Attachment{{Filename: "report.pdf", ContentType: "application/pdf", Content: []byte("%PDF-1.4")}},
	}
}

// parts reads a multipart/form-data body into its fields and files.
func parts(t *testing.T, r providertest.Request) (map[string][]string, map[string][]byte) {
	t.Helper()
	mt, params, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if err != nil || mt != "multipart/form-data" {
		t.Fatalf("Content-Type %q", r.Header.Get("Content-Type"))
	}
	fields, files := map[string][]string{}, map[string][]byte{}
	mr := multipart.NewReader(bytes.NewReader(r.Body), params["boundary"])
	for {
		p, err := mr.NextPart()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		data, _ := io.ReadAll(p)
		if p.FileName() != "" {
			files[p.FormName()+":"+p.FileName()+":"+p.Header.Get("Content-Type")] = data
			continue
		}
		fields[p.FormName()] = append(fields[p.FormName()], string(data))
	}
	return fields, files
}

// withHeaders is message() with the unsubscribe headers of a non-critical email.
func withHeaders() providers.Message {
	m := message()
	m.Headers = []providers.Header{{Name: "List-Unsubscribe", Value: "<https://h.example.com/unsubscribe/t>"}, {Name: "List-Unsubscribe-Post", Value: "List-Unsubscribe=One-Click"}}
	return m
}

func TestSendFollowsTheMessagesAPI(t *testing.T) {
	fake := providertest.New(t)
	fake.Reply(200, `{"id":"<20260101.1@mg.example.com>","message":"Queued. Thank you."}`)
	res, err := newProvider(t, fake).Send(context.Background(), withHeaders())
	if err != nil {
		t.Fatal(err)
	}
	if res.ProviderMessageID != "20260101.1@mg.example.com" {
		t.Errorf("id %q", res.ProviderMessageID)
	}
	r := fake.Last(t)
	if r.Method != "POST" || r.Path != "/v3/mg.example.com/messages" {
		t.Errorf("%s %s", r.Method, r.Path)
	}
	if got := r.Header.Get("Authorization"); got != "Basic "+base64.StdEncoding.EncodeToString([]byte("api:"+apiKey)) {
		t.Errorf("Authorization %q", got)
	}
	fields, files := parts(t, r)
	want := map[string]string{
		"from": `"Herald Team" <noreply@example.com>`, "to": "alice@example.com", "cc": "bob@example.com",
		"bcc": "carol@example.com", "subject": "Welcome", "text": "Hi Alice", "html": "<p>Hi Alice</p>",
		"h:Reply-To": "help@example.com", "v:heraldIdempotencyKey": "req-1:alice:email", "v:heraldRequestId": "req-1",
		"h:List-Unsubscribe": "<https://h.example.com/unsubscribe/t>", "h:List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
	}
	for k, v := range want {
		if got := fields[k]; len(got) != 1 || got[0] != v {
			t.Errorf("%s = %q, want %q", k, got, v)
		}
	}
	if got := string(files["attachment:report.pdf:application/pdf"]); got != "%PDF-1.4" {
		t.Errorf("attachment %q (files %v)", got, files)
	}
}

func TestRegionPicksTheHost(t *testing.T) {
	for region, host := range map[string]string{"us": "https://api.mailgun.net", "eu": "https://api.eu.mailgun.net"} {
		p, err := Kind().New(providertest.Config("apiKey", "k", "domain", "d", "from", "a@b.c", "region", region), providers.Deps{})
		if err != nil {
			t.Fatal(err)
		}
		if got := p.(*provider).cfg.BaseURL; got != host {
			t.Errorf("%s: %s", region, got)
		}
	}
	_, err := Kind().New(providertest.Config("apiKey", "k", "domain", "d", "from", "a@b.c", "region", "asia"), providers.Deps{})
	if err == nil || !strings.Contains(err.Error(), "region must be one of us, eu") {
		t.Errorf("got %v", err)
	}
}

func TestFaultsAreClassified(t *testing.T) {
	fake := providertest.New(t)
	p := newProvider(t, fake)
	send := func() error { _, err := p.Send(context.Background(), message()); return err }
	providertest.RunFaults(t, fake, []providertest.Fault{
		{Name: "bad parameter", Status: 400, Body: `{"message":"'to' parameter is not a valid address. please check documentation"}`,
			Want: providertest.Want{Permanent: true, Status: 400}},
		{Name: "bad key", Status: 401, Body: "Forbidden", Want: providertest.Want{Permanent: true, Status: 401}},
		{Name: "unknown domain", Status: 404, Body: `{"message":"Domain not found: mg.example.com"}`, Want: providertest.Want{Permanent: true, Status: 404}},
		{Name: "server error", Status: 502, Body: "bad gateway", Want: providertest.Want{Status: 502}},
		{Name: "rate limited", Status: 429, Body: `{"message":"Too many requests"}`, Headers: []string{"Retry-After", "3"},
			Want: providertest.Want{Status: 429, RetryAfter: 3 * time.Second}},
	}, send, apiKey)
}

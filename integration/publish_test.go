package integration

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/heraldhq/herald/internal/platform/config"
	"github.com/heraldhq/herald/internal/testkit/smtptest"
	"github.com/heraldhq/herald/internal/testkit/stacktest"
)

// lockedBuffer collects the stack's log lines from many goroutines.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// console drives the management API as one signed-in console user.
type console struct {
	t   *testing.T
	e   *stacktest.Env
	tok string
}

func (c console) do(method, path string, body any, status int) map[string]any {
	c.t.Helper()
	res := c.e.Do(method, path, body, stacktest.Headers{"Authorization": "Bearer " + c.tok})
	if res.Status != status {
		c.t.Fatalf("%s %s: %d, want %d: %s", method, path, res.Status, status, res.Body)
	}
	if len(res.Body) == 0 || res.Body[0] != '{' {
		return nil
	}
	return res.Map(c.t)
}

// signUp creates a verified console account through the API and signs it in.
func signUp(t *testing.T, e *stacktest.Env, mail *smtptest.Server, email string) console {
	t.Helper()
	const password = "correct horse battery"
	if res := e.Do("POST", "/v1/auth/signup?redirect=/welcome", map[string]string{"email": email, "password": password}, nil); res.Status != 201 {
		t.Fatalf("sign up: %d %s", res.Status, res.Body)
	}
	code := mail.Last(t, email).Find(t, `verificationCode=([A-Za-z0-9_-]+)`)
	if res := e.Do("POST", "/v1/auth/verify/"+code, map[string]string{"password": password}, nil); res.Status != 200 {
		t.Fatalf("verify: %d %s", res.Status, res.Body)
	}
	res := e.Do("POST", "/v1/auth?redirect=/apps", map[string]string{"email": email, "password": password}, nil)
	if res.Status != 200 {
		t.Fatalf("sign in: %d %s", res.Status, res.Body)
	}
	return console{t: t, e: e, tok: res.Map(t)["accessToken"].(string)}
}

// TestConfigureCommitPublishAndSend is the configuration story end to end: an SMTP instance
// (with a password) configured in app "development", a template with a layout and two
// translations, a commit, a publish to app "production", production's own SMTP password,
// and a send with production's credentials to users of two locales — each email rendered
// in its locale. No provider secret shows up in any answer, log line or commit snapshot.
func TestConfigureCommitPublishAndSend(t *testing.T) {
	system := smtptest.Start(t)
	var logs lockedBuffer
	e := stacktest.New(t, stacktest.Options{Temporal: true, Log: &logs, Configure: func(c *config.Config) {
		c.Console.SMTPHost, c.Console.SMTPPort = system.Host, system.Port
		c.Console.URL = "https://console.example.com"
		c.Console.FilesDir = t.TempDir()
	}})
	var answers []string
	var mu sync.Mutex
	e.OnResponse = func(method, path string, res *stacktest.Response) {
		mu.Lock()
		defer mu.Unlock()
		answers = append(answers, method+" "+path+" → "+string(res.Body))
	}
	mail := smtptest.Start(t)
	const smtpPass, devPass, sendgridKey = "prod-smtp-secret-4e1f9a", "dev-smtp-secret-0b7c22", "SG.dev-key-93ad11"
	mail.Username, mail.Password = "herald", smtpPass

	owner := signUp(t, e, system, "owner@example.com")
	client := owner.do("POST", "/v1/clients", map[string]string{"name": "Acme"}, 201)["id"]
	devApp := owner.do("POST", fmt.Sprintf("/v1/clients/%v/apps", client), map[string]string{"name": "development"}, 201)
	prodApp := owner.do("POST", fmt.Sprintf("/v1/clients/%v/apps", client), map[string]string{"name": "production"}, 201)
	dev, prod := fmt.Sprintf("/v1/apps/%v", devApp["id"]), fmt.Sprintf("/v1/apps/%v", prodApp["id"])

	// Development: providers, layout, template, translations.
	smtpConfig := map[string]any{"host": mail.Host, "port": mail.Port, "security": "none", "username": "herald", "password": devPass,
		"from": "orders@acme.test", "fromName": "Acme"}
	if res := e.Do("POST", dev+"/channels/email/providers/smtp?test=true", map[string]any{"config": smtpConfig},
		stacktest.Headers{"Authorization": "Bearer " + owner.tok}); res.Status != 400 || !strings.Contains(string(res.Body), "connection test failed") {
		t.Fatalf("development's password is not the server's: %d %s", res.Status, res.Body)
	}
	inst := owner.do("POST", dev+"/channels/email/providers/smtp", map[string]any{"config": smtpConfig}, 200)
	if inst["config"].(map[string]any)["password"] != "********" {
		t.Fatalf("instance %v", inst)
	}
	owner.do("POST", dev+"/channels/email/providerInstances", map[string]any{"providerIdentifier": "sendgrid", "name": "sendgrid", "priority": 10,
		"config": map[string]any{"apiKey": sendgridKey, "from": "orders@acme.test"}}, 201)
	owner.do("POST", dev+"/layouts", map[string]any{"identifier": "brand", "default": true,
		"html": `<html><body><h1>{{app.name}}</h1>{{{content}}}<footer>{{t "footer"}}</footer></body></html>`, "text": "{{{content}}}\n-- {{t \"footer\"}}"}, 201)
	tpl := owner.do("POST", dev+"/templates", map[string]any{"identifier": "order-shipped", "name": "Order shipped"}, 201)["id"]
	owner.do("PUT", fmt.Sprintf("/v1/templates/%v/contents/email", tpl), map[string]any{"layoutIdentifier": "brand", "content": map[string]string{
		"subject": `{{t "shipped"}} #{{data.orderId}}`, "html": `<p>{{t "hello"}}</p>`, "text": `{{t "hello"}}`}}, 200)
	owner.do("POST", dev+"/translations", map[string]any{"locale": "en", "default": true,
		"entries": map[string]string{"shipped": "Order shipped", "hello": "Hello {{user.profile.name}}", "footer": "Thanks"}}, 201)
	owner.do("POST", dev+"/translations", map[string]any{"locale": "fr",
		"entries": map[string]string{"shipped": "Commande expédiée", "hello": "Bonjour {{user.profile.name}}", "footer": "Merci"}}, 201)

	// Commit in development, publish to production.
	changes := owner.do("GET", dev+"/uncommited-changes", nil, 200)
	if n := changes["pagination"].(map[string]any)["totalCount"]; n != 6.0 {
		t.Errorf("uncommitted changes %v", changes)
	}
	commit := owner.do("POST", dev+"/commits", map[string]string{"message": "Order emails"}, 201)["id"]
	pub := owner.do("POST", dev+"/publish", map[string]any{"commitId": commit, "publishTo": prodApp["id"]}, 200)
	if w := fmt.Sprint(pub["warnings"]); !strings.Contains(w, "email/sendgrid is disabled") {
		t.Errorf("publish warnings %s", w)
	}
	// Production has the configuration without development's secrets; it sets its own.
	prodInst := owner.do("GET", prod+"/channels/v1/email/providers/smtp", nil, 200)["instances"].([]any)[0].(map[string]any)
	if prodInst["config"].(map[string]any)["password"] != nil || prodInst["enabled"] != true {
		t.Fatalf("production instance %v", prodInst)
	}
	tested := owner.do("PATCH", fmt.Sprintf("%s/channels/email/providerInstances/%v", prod, prodInst["id"]),
		map[string]any{"config": map[string]any{"password": smtpPass}, "test": true}, 200)
	if tested["connectionTest"] != "passed" {
		t.Errorf("connection test %v", tested)
	}

	// Send with production's credentials to a French and an English user.
	h := stacktest.Headers{e.Cfg.HeaderPrefix + "API-KEY": prodApp["apiKey"].(string), e.Cfg.HeaderPrefix + "API-SECRET": prodApp["apiSecret"].(string)}
	res := e.Do("POST", "/v3/notifications", `{
		"notification": {"templateIdentifier": "order-shipped"},
		"sendTo": {"recipients": [
			{"identifier": "amelie", "email": "amelie@example.com", "name": "Amélie", "locale": "fr-FR"},
			{"identifier": "bob", "email": "bob@example.com", "name": "Bob"}
		]},
		"data": {"orderId": 1042}
	}`, h)
	if res.Status != 202 {
		t.Fatalf("send: %d %s", res.Status, res.Body)
	}
	req := res.Map(t)["requestId"].(string)
	got := waitForLogs(t, e, req, "amelie/email", "bob/email")
	for _, k := range []string{"amelie/email", "bob/email"} {
		if got[k].Status != "sent" || got[k].Provider != "smtp" {
			t.Errorf("%s: %+v", k, got[k])
		}
	}
	byTo := map[string]smtptest.Message{}
	for _, m := range mail.Messages() {
		byTo[m.To[0]] = m
	}
	fr, en := byTo["amelie@example.com"], byTo["bob@example.com"]
	if fr.Subject() != "Commande expédiée #1042" || fr.Parts["text/html"] != `<html><body><h1>production</h1><p>Bonjour Amélie</p><footer>Merci</footer></body></html>` ||
		fr.Parts["text/plain"] != "Bonjour Amélie\n-- Merci" {
		t.Errorf("French email: %q %q", fr.Subject(), fr.Parts)
	}
	if en.Subject() != "Order shipped #1042" || en.Parts["text/html"] != `<html><body><h1>production</h1><p>Hello Bob</p><footer>Thanks</footer></body></html>` ||
		en.Parts["text/plain"] != "Hello Bob\n-- Thanks" || !strings.Contains(en.Header.Get("From"), "orders@acme.test") {
		t.Errorf("English email: %q %q %v", en.Subject(), en.Parts, en.Header)
	}

	// Read everything back once more, then search answers, logs and snapshots.
	for _, p := range []string{dev + "/channels", prod + "/channels", dev + "/channels/v1", prod + "/channels/v1/email/providers", dev + "/commits",
		prod + "/commits", dev + "/uncommited-changes", prod + "/uncommited-changes", fmt.Sprintf("/v1/templates/%v", tpl), "/v1/providers"} {
		owner.do("GET", p, nil, 200)
	}
	var snapshots string
	if err := e.Stack.DB.Pool.QueryRow(context.Background(), `SELECT string_agg(snapshot::text || changes::text, ' ') FROM commits`).Scan(&snapshots); err != nil {
		t.Fatal(err)
	}
	var publications string
	if err := e.Stack.DB.Pool.QueryRow(context.Background(), `SELECT string_agg(changes::text || warnings::text, ' ') FROM commit_publications`).Scan(&publications); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	all := strings.Join(answers, "\n")
	mu.Unlock()
	if len(answers) < 25 || !strings.Contains(all, `"password":"********"`) || !strings.Contains(logs.String(), "level=") {
		t.Fatalf("recorded %d answers and %d bytes of logs: the search would prove nothing", len(answers), len(logs.String()))
	}
	for _, secret := range []string{smtpPass, devPass, sendgridKey} {
		for where, text := range map[string]string{"an answer": all, "the log": logs.String(), "a commit snapshot": snapshots, "a publication": publications} {
			if strings.Contains(text, secret) {
				t.Errorf("%s contains the secret %q", where, secret)
			}
		}
	}
}

package security

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/google/uuid"

	"github.com/heraldhq/herald/db/dbsqlc"
	"github.com/heraldhq/herald/internal/send"
	"github.com/heraldhq/herald/internal/testkit/smtptest"
	"github.com/heraldhq/herald/internal/testkit/stacktest"
)

// Stored provider secrets never reach a destination they were not entered for (security
// round 3, items 1 and 2). A SendGrid instance holds an API key and an SMTP instance a
// password; a loopback HTTP server and an SMTP server play the attacker (both allow-listed
// in HERALD_PRIVATE_HOSTS, as a legitimate server beside each is).

// capture is an HTTP server recording what it is sent; it answers as SendGrid does.
type capture struct {
	*httptest.Server
	mu   sync.Mutex
	reqs []string // each request's headers and body, as text
}

func newCapture(t *testing.T) *capture {
	t.Helper()
	c := &capture{}
	c.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		c.mu.Lock()
		c.reqs = append(c.reqs, fmt.Sprintf("%s %s\n%v\n%s", r.Method, r.URL, r.Header, body))
		c.mu.Unlock()
		w.Header().Set("X-Message-Id", "msg-1")
		w.WriteHeader(http.StatusAccepted)
	}))
	t.Cleanup(c.Close)
	return c
}

// carrying returns how many requests contained s.
func (c *capture) carrying(s string) (with, all int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, r := range c.reqs {
		if strings.Contains(r, s) {
			with++
		}
	}
	return with, len(c.reqs)
}

func (o *outboundEnv) sendWith(t *testing.T, override string) *stacktest.Response {
	t.Helper()
	return o.e.Do("POST", "/v3/notifications", `{"notification":{"title":"Invoice","message":"hello"},
		"sendTo":{"recipients":[{"identifier":"ada","email":"ada@example.com"}]},"override":`+override+`}`, o.appKey)
}

// testSend is the console's test send, as the developer.
func (o *outboundEnv) testSend(override string) *stacktest.Response {
	return o.e.Do("POST", o.appPath+"/notifications", `{"notification":{"title":"Invoice","message":"hello"},
		"sendTo":{"recipients":[{"identifier":"ada","email":"ada@example.com"}]},"override":`+override+`}`, o.dev)
}

func refusedOverride(t *testing.T, res *stacktest.Response, what string, fields ...string) {
	t.Helper()
	var want []string
	for _, f := range fields {
		want = append(want, f+": a send may not change the destination of a stored provider instance; give complete credentials instead")
	}
	var body struct{ Message []string }
	if res.Status != 400 || json.Unmarshal(res.Body, &body) != nil || !slices.Equal(body.Message, want) {
		t.Errorf("%s: %d %s\nwant 400 %q", what, res.Status, res.Body, want)
	}
}

// accepted sends override and returns the message log of the email.
func (o *outboundEnv) delivered(t *testing.T, override string) (status, errText string) {
	t.Helper()
	res := o.e.Must(o.sendWith(t, override), 202, "send "+override)
	status, errText, _ = messageLog(t, o.e, res.Map(t)["requestId"].(string), "email")
	return status, errText
}

// TestStoredSecretsStayWithTheirDestination: a send's override naming a destination of the
// stored instance (SendGrid's baseUrl; SMTP's host and port) is refused at accept on the
// developer API and the console's test send; a request stored without that check (as one
// accepted before it) fails at delivery; a developer cannot re-point the instance (PATCH
// with a connection test). The attacker's servers receive nothing of the stored secrets
// — no request, no connection — while an ordinary override (the sender name) is
// delivered through the stored instance, and a send with its own complete credentials
// reaches its own server with only those.
func TestStoredSecretsStayWithTheirDestination(t *testing.T) {
	o := newOutboundEnv(t, []string{"127.0.0.1"})
	e := o.e
	const apiKey, smtpPass = "SG.stored-key-5d3f0a", "stored-smtp-pass-91e2"
	legit, attacker := newCapture(t), newCapture(t)
	legitMail, attackerMail := smtptest.Start(t), smtptest.Start(t)
	legitMail.Username, legitMail.Password = "mailer", smtpPass

	// SendGrid.
	res := e.Must(o.save("email", "sendgrid", map[string]any{"apiKey": apiKey, "from": "noreply@guard.example", "fromName": "Guard", "baseUrl": legit.URL}, false), 201, "sendgrid")
	sendgridID := int64(res.Map(t)["id"].(float64))
	away := fmt.Sprintf(`{"channels":["email"],"sendgrid":{"_config":{"baseUrl":%q}}}`, attacker.URL)
	refusedOverride(t, o.sendWith(t, away), "v3 send re-pointing SendGrid", "override.sendgrid._config.baseUrl")
	refusedOverride(t, o.testSend(away), "console test send re-pointing SendGrid", "override.sendgrid._config.baseUrl")
	res = e.Do("PATCH", fmt.Sprintf("%s/channels/email/providerInstances/%d?test=true", o.appPath, sendgridID), map[string]any{"config": map[string]any{"baseUrl": attacker.URL}}, o.dev)
	if res.Status != 403 {
		t.Errorf("developer re-pointing the instance: %d %s", res.Status, res.Body)
	}

	// A request that skipped the accept check is refused when delivered.
	var appID int64
	fmt.Sscanf(o.appPath, "/v1/apps/%d", &appID)
	req, err := send.Parse([]byte(`{"notification":{"title":"Old","message":"hello"},"sendTo":{"recipients":[{"identifier":"ada","email":"ada@example.com"}]},"override":` + away + `}`))
	if err != nil {
		t.Fatal(err)
	}
	payload, _ := json.Marshal(req)
	id := uuid.New()
	if err := e.Stack.DB.InsertRequest(context.Background(), dbsqlc.InsertRequestParams{ID: id, AppID: appID, Payload: payload, RecipientCount: 1}); err != nil {
		t.Fatal(err)
	}
	e.Stack.Relay.Wake()
	if status, errText, _ := messageLog(t, e, id.String(), "email"); status != "failed" || !strings.Contains(errText, "override.sendgrid._config.baseUrl: a send may not change the destination") {
		t.Errorf("unchecked request: %s %q, want a permanent refusal", status, errText)
	}

	// An ordinary override goes through the stored instance.
	if status, errText := o.delivered(t, `{"channels":["email"],"sendgrid":{"_config":{"fromName":"Billing Team"}}}`); status != "sent" {
		t.Errorf("ordinary override: %s %q", status, errText)
	}
	if with, all := legit.carrying(`"name":"Billing Team"`); with != 1 || all != 1 {
		t.Errorf("the stored destination got %d requests, %d with the overridden sender name", all, with)
	}
	if with, _ := legit.carrying("Bearer " + apiKey); with != 1 {
		t.Errorf("the stored destination got the stored key %d times", with)
	}
	// A send's own complete credentials reach its own server, with nothing stored.
	own := fmt.Sprintf(`{"channels":["email"],"sendgrid":{"_config":{"apiKey":"SG.own-key","from":"me@guard.example","baseUrl":%q}}}`, attacker.URL)
	if status, errText := o.delivered(t, own); status != "sent" {
		t.Errorf("own credentials: %s %q", status, errText)
	}
	if with, all := attacker.carrying("Bearer SG.own-key"); with != 1 || all != 1 {
		t.Errorf("the send's own server got %d requests, %d with its own key", all, with)
	}
	for _, leak := range []string{apiKey, "Guard\""} {
		if with, _ := attacker.carrying(leak); with != 0 {
			t.Errorf("the attacker's server got %d requests carrying %q", with, leak)
		}
	}
	e.Must(e.Do("PUT", fmt.Sprintf("%s/channels/email/providerInstances/%d/disable", o.appPath, sendgridID), nil, o.dev), 200, "disable sendgrid")

	// SMTP.
	res = e.Must(o.save("email", "smtp", map[string]any{"host": legitMail.Host, "port": legitMail.Port, "security": "none",
		"from": "noreply@guard.example", "username": "mailer", "password": smtpPass}, true), 201, "smtp")
	smtpID := int64(res.Map(t)["id"].(float64))
	away = fmt.Sprintf(`{"channels":["email"],"smtp":{"_config":{"host":%q,"port":%d}}}`, attackerMail.Host, attackerMail.Port)
	refusedOverride(t, o.sendWith(t, away), "v3 send re-pointing SMTP", "override.smtp._config.host", "override.smtp._config.port")
	refusedOverride(t, o.testSend(away), "console test send re-pointing SMTP", "override.smtp._config.host", "override.smtp._config.port")
	refusedOverride(t, o.sendWith(t, `{"smtp":{"_config":{"security":"none"}}}`), "v3 send changing the TLS mode", "override.smtp._config.security")
	res = e.Do("PATCH", fmt.Sprintf("%s/channels/email/providerInstances/%d?test=true", o.appPath, smtpID), map[string]any{"config": map[string]any{"port": attackerMail.Port}}, o.dev)
	if res.Status != 403 {
		t.Errorf("developer re-pointing the SMTP instance: %d %s", res.Status, res.Body)
	}
	if status, errText := o.delivered(t, `{"channels":["email"],"smtp":{"_config":{"fromName":"Billing Team"}}}`); status != "sent" {
		t.Errorf("ordinary SMTP override: %s %q", status, errText)
	}
	if m := legitMail.Last(t, "ada@example.com"); !strings.Contains(m.Header.Get("From"), "Billing Team") {
		t.Errorf("From %q, want the overridden name", m.Header.Get("From"))
	}
	if n, pw := attackerMail.Connections(), attackerMail.Passwords(); n != 0 || len(pw) != 0 {
		t.Errorf("the attacker's SMTP server got %d connections and passwords %q", n, pw)
	}
	// Own SMTP credentials: the attacker's server, now the send's own, sees only those.
	own = fmt.Sprintf(`{"channels":["email"],"smtp":{"_config":{"host":%q,"port":%d,"security":"none","from":"me@guard.example","username":"me","password":"own-pass"}}}`,
		attackerMail.Host, attackerMail.Port)
	attackerMail.Username, attackerMail.Password = "me", "own-pass"
	if status, errText := o.delivered(t, own); status != "sent" {
		t.Errorf("own SMTP credentials: %s %q", status, errText)
	}
	if pw := attackerMail.Passwords(); slices.Contains(pw, smtpPass) || !slices.Contains(pw, "own-pass") {
		t.Errorf("the send's own server was offered %q", pw)
	}
}

package security

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/heraldhq/herald/internal/platform/config"
	"github.com/heraldhq/herald/internal/testkit/smtptest"
	"github.com/heraldhq/herald/internal/testkit/stacktest"
)

// The outbound guard (issue 15, items 4-6): a developer of a tenant configures where
// Herald connects — SMTP hosts, webhook URLs, API base URLs — so without a guard they could
// aim Herald at the services beside it and read their answers in error messages. These
// scenarios use real loopback targets: an SMTP server from smtptest and a local HTTP
// server, on 127.0.0.1 and on [::1].

// outboundEnv is a stack with the console, an app owned by one account, and a second
// account with the developer role on the app's client (the role the issue names).
type outboundEnv struct {
	e       *stacktest.Env
	dev     stacktest.Headers
	owner   stacktest.Headers
	appPath string
	appKey  stacktest.Headers
}

func newOutboundEnv(t *testing.T, private []string) *outboundEnv {
	t.Helper()
	e, c := stacktest.NewWithConsole(t, stacktest.Options{Temporal: true, Configure: func(cfg *config.Config) { cfg.PrivateHosts = private }})
	owner := c.User("owner@guard.example", password)
	client := c.Client(owner.AccessToken, "Guarded")
	app := c.App(owner.AccessToken, client, "Prod")
	dev := c.User("dev@guard.example", password)
	e.Must(e.Do("POST", fmt.Sprintf("/v1/clients/%d/invite-users?role=developer", client), []string{dev.Email}, stacktest.Bearer(owner.AccessToken)), 200, "invite")
	code := c.Mail.Last(t, dev.Email).Find(t, `/invitations/([A-Za-z0-9_-]+)`)
	e.Must(e.Do("GET", "/v1/invitations/"+code+"/accept", nil, stacktest.Bearer(dev.AccessToken)), 200, "accept")
	p := e.Cfg.HeaderPrefix
	return &outboundEnv{
		e: e, dev: stacktest.Bearer(dev.AccessToken), owner: stacktest.Bearer(owner.AccessToken),
		appPath: fmt.Sprintf("/v1/apps/%d", int64(app["id"].(float64))),
		appKey:  stacktest.Headers{p + "API-KEY": app["apiKey"].(string), p + "API-SECRET": app["apiSecret"].(string)},
	}
}

// save creates an instance as the developer, with a connection test when test is set.
func (o *outboundEnv) save(channel, provider string, cfg map[string]any, test bool) *stacktest.Response {
	return o.e.Do("POST", fmt.Sprintf("%s/channels/%s/providerInstances?test=%t", o.appPath, channel, test),
		map[string]any{"providerIdentifier": provider, "name": fmt.Sprintf("%s %d", provider, time.Now().UnixNano()), "config": cfg}, o.dev)
}

// refused asserts a 400 whose one message refuses field for address and says how to allow it.
func refused(t *testing.T, res *stacktest.Response, field, address, what string) {
	t.Helper()
	var body struct{ Message []string }
	if res.Status != 400 || json.Unmarshal(res.Body, &body) != nil || len(body.Message) != 1 {
		t.Errorf("%s: %d %s, want a 400 with one message", what, res.Status, res.Body)
		return
	}
	want := "config." + field + ": " + address + ": Herald does not connect to loopback, private or link-local addresses unless the operator adds the host to HERALD_PRIVATE_HOSTS"
	if body.Message[0] != want {
		t.Errorf("%s: %q\nwant %q", what, body.Message[0], want)
	}
}

// hookServer is a local HTTP endpoint counting the requests it gets.
func hookServer(t *testing.T, listen string) (*httptest.Server, *atomic.Int64) {
	t.Helper()
	ln, err := net.Listen("tcp", listen)
	if err != nil {
		t.Skipf("cannot listen on %s: %v", listen, err)
	}
	var n atomic.Int64
	srv := &httptest.Server{Listener: ln, Config: &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n.Add(1)
		io.Copy(io.Discard, r.Body)
		w.Write([]byte(`{"internal":"secret-internal-answer"}`))
	})}}
	srv.Start()
	t.Cleanup(srv.Close)
	return srv, &n
}

// messageLog waits for the request's log row of channel to settle and returns it.
func messageLog(t *testing.T, e *stacktest.Env, requestID, channel string) (status, errText string, attempts int) {
	t.Helper()
	e.Eventually(60*time.Second, "message log of "+requestID, func() bool {
		err := e.Stack.DB.Pool.QueryRow(context.Background(), `SELECT status, coalesce(error, ''), attempts FROM message_logs
			WHERE request_id = $1 AND channel = $2`, requestID, channel).Scan(&status, &errText, &attempts)
		return err == nil && status != "queued"
	})
	return status, errText, attempts
}

func (o *outboundEnv) send(t *testing.T, channel string) string {
	t.Helper()
	res := o.e.Must(o.e.Do("POST", "/v3/notifications", fmt.Sprintf(`{"notification":{"title":"Guarded","message":"hello"},
		"sendTo":{"recipients":[{"identifier":"ada","email":"ada@example.com"}]},"override":{"channels":[%q]}}`, channel), o.appKey), 202, "send")
	return res.Map(t)["requestId"].(string)
}

// TestOutboundGuardRefusesInternalTargets: without HERALD_PRIVATE_HOSTS, a developer can
// neither save nor test a provider aimed at loopback (SMTP, webhook, an HTTP provider's
// base URL; IPv4, IPv6 and a name resolving to loopback), the refusal says how to allow it,
// nothing connects to the targets; and a destination that turns internal after it was
// saved (DNS changed; simulated by rewriting the stored row) is refused at delivery,
// permanently, with the same explanation.
func TestOutboundGuardRefusesInternalTargets(t *testing.T) {
	o := newOutboundEnv(t, nil)
	e := o.e
	mail4, mail6 := smtptest.Start(t), smtptest.StartAt(t, "[::1]:0")
	hook4, hits4 := hookServer(t, "127.0.0.1:0")
	hook6, hits6 := hookServer(t, "[::1]:0")
	smtpCfg := func(host string, port int) map[string]any {
		return map[string]any{"host": host, "port": port, "security": "none", "from": "noreply@guard.example"}
	}

	for _, test := range []bool{false, true} {
		what := fmt.Sprintf("(test=%t)", test)
		refused(t, o.save("email", "smtp", smtpCfg("127.0.0.1", mail4.Port), test), "host", "address 127.0.0.1 is not public", "smtp 127.0.0.1 "+what)
		refused(t, o.save("email", "smtp", smtpCfg("::1", mail6.Port), test), "host", "address ::1 is not public", "smtp ::1 "+what)
		refused(t, o.save("email", "smtp", smtpCfg("[::1]", mail6.Port), test), "host", "address ::1 is not public", "smtp [::1] "+what)
		refused(t, o.save("email", "smtp", smtpCfg("localhost", mail4.Port), test), "host", "localhost resolves to 127.0.0.1, an address that is not public", "smtp localhost "+what)
		// The services beside Herald: Postgres, the metadata address.
		refused(t, o.save("email", "smtp", smtpCfg("127.0.0.1", 5432), test), "host", "address 127.0.0.1 is not public", "smtp to postgres "+what)
		refused(t, o.save("webhook", "webhook", map[string]any{"url": "http://169.254.169.254/latest/meta-data/", "secret": "0123456789abcdef"}, test),
			"url", "address 169.254.169.254 is not public", "metadata webhook "+what)
		refused(t, o.save("webhook", "webhook", map[string]any{"url": hook4.URL + "/hook", "secret": "0123456789abcdef"}, test), "url", "address 127.0.0.1 is not public", "webhook 127.0.0.1 "+what)
		refused(t, o.save("webhook", "webhook", map[string]any{"url": hook6.URL + "/hook", "secret": "0123456789abcdef"}, test), "url", "address ::1 is not public", "webhook [::1] "+what)
		refused(t, o.save("email", "sendgrid", map[string]any{"apiKey": "SG.x", "from": "noreply@guard.example", "baseUrl": hook4.URL}, test),
			"baseUrl", "address 127.0.0.1 is not public", "sendgrid baseUrl "+what)
	}
	// The channel-level route and an update are checked too, and a refused update changes
	// nothing.
	refused(t, e.Do("POST", o.appPath+"/channels/webhook/providers/webhook", map[string]any{"config": map[string]any{"url": hook4.URL, "secret": "0123456789abcdef"}}, o.dev),
		"url", "address 127.0.0.1 is not public", "enable webhook")
	res := e.Must(o.save("webhook", "webhook", map[string]any{"url": "https://hooks.guard.example/in", "secret": "0123456789abcdef"}, false), 201, "public webhook")
	hookID := int64(res.Map(t)["id"].(float64))
	// (Re-pointing an instance is the owner's or an admin's, with its secret entered again.)
	refused(t, e.Do("PATCH", fmt.Sprintf("%s/channels/webhook/providerInstances/%d", o.appPath, hookID), map[string]any{"config": map[string]any{"url": hook6.URL, "secret": "0123456789abcdef"}}, o.owner),
		"url", "address ::1 is not public", "update webhook")
	got := e.Must(e.Do("GET", fmt.Sprintf("%s/channels/webhook/providerInstances/%d", o.appPath, hookID), nil, o.dev), 200, "read webhook").Map(t)
	if u := got["config"].(map[string]any)["url"]; u != "https://hooks.guard.example/in" {
		t.Errorf("a refused update changed the url to %v", u)
	}
	// Nothing connected to any target.
	if n := mail4.Connections() + mail6.Connections(); n != 0 {
		t.Errorf("the SMTP servers accepted %d connections", n)
	}
	if n := hits4.Load() + hits6.Load(); n != 0 {
		t.Errorf("the HTTP servers got %d requests", n)
	}

	// Delivery: the stored destinations now point inside.
	smtpID := int64(e.Must(o.save("email", "smtp", smtpCfg("smtp.guard.example", mail6.Port), false), 201, "public smtp").Map(t)["id"].(float64))
	for id, cfg := range map[int64]string{hookID: `{"url": "` + hook6.URL + `/hook"}`, smtpID: `{"host": "::1"}`} {
		if _, err := e.Stack.DB.Pool.Exec(context.Background(), `UPDATE provider_instances SET config = config || $1::jsonb, updated_at = now() WHERE id = $2`, cfg, id); err != nil {
			t.Fatal(err)
		}
	}
	for channel, prefix := range map[string]string{"webhook": "webhook request failed: ", "email": "smtp: "} {
		status, errText, attempts := messageLog(t, e, o.send(t, channel), channel)
		want := prefix + "address ::1 is not public: Herald does not connect to loopback, private or link-local addresses unless the operator adds the host to HERALD_PRIVATE_HOSTS"
		if status != "failed" || attempts != 1 || !strings.Contains(errText, want) {
			t.Errorf("%s delivery: %s after %d attempts: %q, want a permanent refusal %q", channel, status, attempts, errText, want)
		}
	}
	if n, h := mail6.Connections(), hits6.Load(); n != 0 || h != 0 {
		t.Errorf("delivery reached the internal targets: %d SMTP connections, %d HTTP requests", n, h)
	}
}

// TestOutboundGuardAllowList: with the loopback addresses in HERALD_PRIVATE_HOSTS the same
// targets pass the connection test and receive deliveries, over IPv4 and IPv6; an
// allow-listed host that is not an SMTP server is reported without a byte of what it sent.
func TestOutboundGuardAllowList(t *testing.T) {
	o := newOutboundEnv(t, []string{"127.0.0.1", "::1"})
	e := o.e
	for _, listen := range []string{"127.0.0.1:0", "[::1]:0"} {
		mail := smtptest.StartAt(t, listen)
		res := e.Must(o.save("email", "smtp", map[string]any{"host": mail.Host, "port": mail.Port, "security": "none", "from": "noreply@guard.example"}, true), 201, "smtp on "+listen)
		if got := res.Map(t)["connectionTest"]; got != "passed" {
			t.Errorf("%s: connection test %v", listen, got)
		}
		status, errText, _ := messageLog(t, e, o.send(t, "email"), "email")
		if status != "sent" || mail.Count("ada@example.com") != 1 {
			t.Errorf("%s: email %s %q, %d received", listen, status, errText, mail.Count("ada@example.com"))
		}
		e.Must(e.Do("PUT", fmt.Sprintf("%s/channels/email/providerInstances/%d/disable", o.appPath, int64(res.Map(t)["id"].(float64))), nil, o.dev), 200, "disable smtp")

		hook, hits := hookServer(t, listen)
		res = e.Must(o.save("webhook", "webhook", map[string]any{"url": hook.URL + "/hook", "secret": "0123456789abcdef"}, true), 201, "webhook on "+listen)
		status, errText, _ = messageLog(t, e, o.send(t, "webhook"), "webhook")
		if status != "sent" || hits.Load() != 1 {
			t.Errorf("%s: webhook %s %q, %d requests", listen, status, errText, hits.Load())
		}
		e.Must(e.Do("PUT", fmt.Sprintf("%s/channels/webhook/providerInstances/%d/disable", o.appPath, int64(res.Map(t)["id"].(float64))), nil, o.dev), 200, "disable webhook")
	}

	// An allow-listed host running something else, which greets first (as Redis errors,
	// SSH and many admin services do): the connection test says it is not SMTP and repeats
	// nothing it sent.
	const banner = "HTTP/1.1 400 Bad Request\r\nX-Internal-Token: secret-internal-banner\r\n\r\n"
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				defer c.Close()
				c.Write([]byte(banner))
				io.Copy(io.Discard, c)
			}()
		}
	}()
	p := ln.Addr().(*net.TCPAddr).Port
	res := o.save("email", "smtp", map[string]any{"host": "127.0.0.1", "port": p, "security": "none", "from": "noreply@guard.example"}, true)
	var body struct{ Message []string }
	res.JSON(t, &body)
	want := "config: connection test failed: smtp: the server at " + net.JoinHostPort("127.0.0.1", strconv.Itoa(p)) + " did not speak SMTP"
	if res.Status != 400 || len(body.Message) != 1 || body.Message[0] != want || strings.Contains(string(res.Body), "secret-internal") {
		t.Errorf("probe of a non-SMTP service: %d %s, want %q", res.Status, res.Body, want)
	}
}

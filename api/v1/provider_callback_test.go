package v1_test

import (
	"fmt"
	"strconv"
	"testing"
	"time"

	"github.com/heraldhq/herald/internal/providers/webhook"
	"github.com/heraldhq/herald/internal/testkit/stacktest"
)

// TestProviderCallbackAnswersEveryListedMethod calls the callback route with each method
// the spec lists (GET, POST, PUT, DELETE, PATCH, OPTIONS, HEAD): none may answer 405, a
// signed event is accepted, an unsigned one is a 401 and an unknown instance a 404, for
// every method alike. HEAD answers what GET answers, without a body.
func TestProviderCallbackAnswersEveryListedMethod(t *testing.T) {
	f := newFixture(t)
	const secret = "a-signing-secret-of-some-length"
	inst := must(t, f.Do("POST", f.appPath+"/channels/webhook/providerInstances", map[string]any{"providerIdentifier": "webhook", "name": "hook",
		"config": map[string]any{"url": "https://hooks.example.com/herald", "secret": secret}}, bearer(f.dev)), 201, "webhook instance").Map(t)
	callback := fmt.Sprintf("/v1/providerInstances/%d/callback", int64(inst["id"].(float64)))
	event := `{"id":"msg-not-sent-by-herald","status":"delivered"}`
	signed := func(body string) stacktest.Headers {
		ts := strconv.FormatInt(time.Now().Unix(), 10)
		return stacktest.Headers{webhook.HeaderTimestamp: ts, webhook.HeaderSignature: webhook.Sign(secret, ts, []byte(body))}
	}
	for _, m := range []string{"GET", "POST", "PUT", "DELETE", "PATCH", "OPTIONS", "HEAD"} {
		res := f.Do(m, callback, event, signed(event))
		if res.Status != 200 {
			t.Errorf("%s signed event: %d %s", m, res.Status, res.Body)
		} else if m == "HEAD" && len(res.Body) != 0 {
			t.Errorf("HEAD answered a body: %s", res.Body)
		} else if m != "HEAD" && string(res.Body) != `{"status":"ok","updated":0}` {
			t.Errorf("%s signed event: %s", m, res.Body)
		}
		if res := f.Do(m, callback, event, nil); res.Status != 401 {
			t.Errorf("%s unsigned: %d %s", m, res.Status, res.Body)
		}
		if res := f.Do(m, callback, event, stacktest.Headers{webhook.HeaderTimestamp: strconv.FormatInt(time.Now().Unix(), 10), webhook.HeaderSignature: webhook.Sign("another-secret-of-some-length", strconv.FormatInt(time.Now().Unix(), 10), []byte(event))}); res.Status != 401 {
			t.Errorf("%s signed with another secret: %d %s", m, res.Status, res.Body)
		}
		if res := f.Do(m, "/v1/providerInstances/999999999/callback", event, signed(event)); res.Status != 404 {
			t.Errorf("%s unknown instance: %d %s", m, res.Status, res.Body)
		}
	}
}

package v3_test

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"strings"
	"testing"
	"time"

	"github.com/heraldhq/herald/internal/platform/config"
	"github.com/heraldhq/herald/internal/testkit/stacktest"
)

func TestRealtimeTokenRequest(t *testing.T) {
	e := stacktest.New(t, stacktest.Options{})
	before := time.Now().Truncate(time.Second)
	// The route takes no body; one sent anyway is ignored.
	res := e.Do("POST", "/v3/sdk/realtimeTokenRequests", `{"ignored":true}`, e.UserHeaders("alice"))
	if res.Status != 200 {
		t.Fatalf("status %d: %s", res.Status, res.Body)
	}
	var out struct {
		Token, ExpiresAt, Endpoint, Path, SSE string
	}
	res.JSON(t, &out)
	if !strings.HasPrefix(out.Token, "hrt_") || out.Endpoint != e.BaseURL || out.Path != "/socket.io/" || out.SSE != e.BaseURL+"/v3/realtime" {
		t.Errorf("response %+v", out)
	}
	exp, err := time.Parse(time.RFC3339, out.ExpiresAt)
	if err != nil || exp.Before(before.Add(e.Cfg.RealtimeTokenTTL)) || exp.After(time.Now().Add(e.Cfg.RealtimeTokenTTL)) {
		t.Errorf("expiresAt %q (%v), want the token TTL from now", out.ExpiresAt, err)
	}
	key, user, err := e.Stack.Realtime.Tokens.Verify(out.Token)
	if err != nil || key != e.App.APIKey || user != "alice" {
		t.Errorf("token names %q/%q (%v)", key, user, err)
	}
}

func TestRealtimeTokenRequestUsesThePublicURL(t *testing.T) {
	e := stacktest.New(t, stacktest.Options{Configure: func(c *config.Config) { c.PublicURL = "https://herald.example.com/" }})
	res := e.Do("POST", "/v3/sdk/realtimeTokenRequests", nil, e.UserHeaders("alice"))
	m := res.Map(t)
	if res.Status != 200 || m["endpoint"] != "https://herald.example.com" || m["sse"] != "https://herald.example.com/v3/realtime" {
		t.Errorf("%d %s", res.Status, res.Body)
	}
}

func TestRealtimeTokenRequestNeedsUserCredentials(t *testing.T) {
	e := stacktest.New(t, stacktest.Options{})
	for _, tc := range []struct {
		name    string
		headers stacktest.Headers
		want    string
	}{
		{"none", nil, "No authentication parameters found: send X-SERVICE-API-KEY with X-SERVICE-API-SECRET (app) or with X-SERVICE-USER-ID (user)"},
		{"app credentials", e.AppHeaders(), "No valid combination of authentication parameters found: this route needs X-SERVICE-API-KEY and X-SERVICE-USER-ID"},
		{"unknown key", stacktest.Headers{"X-SERVICE-API-KEY": "nope", "X-SERVICE-USER-ID": "alice"}, "Invalid API key"},
	} {
		res := e.Do("POST", "/v3/sdk/realtimeTokenRequests", nil, tc.headers)
		m := res.Map(t)
		if res.Status != 401 || m["status"] != "error" || m["message"] != tc.want {
			t.Errorf("%s: %d %s", tc.name, res.Status, res.Body)
		}
	}
}

func TestRealtimeTokenRequestChecksTheHMACSignature(t *testing.T) {
	e := stacktest.New(t, stacktest.Options{})
	if err := e.Stack.Apps.SetHMACAuth(context.Background(), e.App.AppID, true); err != nil {
		t.Fatal(err)
	}
	sign := func(user string) string {
		m := hmac.New(sha256.New, []byte(e.App.APISecret))
		m.Write([]byte(user))
		return base64.StdEncoding.EncodeToString(m.Sum(nil))
	}
	with := func(sig string) stacktest.Headers {
		h := e.UserHeaders("alice")
		h["X-SERVICE-USER-SIGNATURE"] = sig
		return h
	}
	for _, tc := range []struct {
		name    string
		headers stacktest.Headers
		status  int
		message string
	}{
		{"no signature", e.UserHeaders("alice"), 401, "This app requires X-SERVICE-USER-SIGNATURE"},
		{"another user's signature", with(sign("bob")), 401, "Invalid user signature"},
		{"not base64", with("%%%"), 401, "Invalid user signature"},
		{"the user's signature", with(sign("alice")), 200, ""},
	} {
		res := e.Do("POST", "/v3/sdk/realtimeTokenRequests", nil, tc.headers)
		if m := res.Map(t); res.Status != tc.status || (tc.message != "" && m["message"] != tc.message) {
			t.Errorf("%s: %d %s", tc.name, res.Status, res.Body)
		}
	}
}

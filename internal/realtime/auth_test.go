package realtime_test

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/heraldhq/herald/internal/audience/userjwt"
	"github.com/heraldhq/herald/internal/console/apps"
	"github.com/heraldhq/herald/internal/inbox/events"
	"github.com/heraldhq/herald/internal/realtime"
	"github.com/heraldhq/herald/internal/testkit/realtimetest"
	"github.com/heraldhq/herald/internal/testkit/stacktest"
)

// authApps are apps in each authentication setting.
type authApps struct {
	plain, hmac, secure apps.Credentials
	jwt                 func(user string, ttl time.Duration) string
}

func newAuthApps(t *testing.T, e *stacktest.Env) authApps {
	t.Helper()
	ctx := context.Background()
	a := authApps{plain: e.App, hmac: e.NewApp("hmac"), secure: e.NewApp("secure")}
	if err := e.Stack.Apps.SetHMACAuth(ctx, a.hmac.AppID, true); err != nil {
		t.Fatal(err)
	}
	if _, _, err := e.Stack.Apps.GenerateRSAKey(ctx, a.secure.AppID); err != nil {
		t.Fatal(err)
	}
	if err := e.Stack.Apps.SetSecureAuth(ctx, a.secure.AppID, true); err != nil {
		t.Fatal(err)
	}
	key, err := e.Stack.Apps.RSAPrivateKey(ctx, a.secure.AppID)
	if err != nil {
		t.Fatal(err)
	}
	// A negative ttl mints a token that expired that long ago.
	a.jwt = func(user string, ttl time.Duration) string {
		issued := time.Now()
		if ttl < 0 {
			issued, ttl = issued.Add(2*ttl), -ttl
		}
		tok, err := userjwt.Mint(key, a.secure.APIKey, user, ttl, issued)
		if err != nil {
			t.Fatal(err)
		}
		return tok
	}
	return a
}

func signature(secret, user string) string {
	m := hmac.New(sha256.New, []byte(secret))
	m.Write([]byte(user))
	return base64.StdEncoding.EncodeToString(m.Sum(nil))
}

// realtimeToken asks the API for a realtime token as a user of the test app.
func realtimeToken(t *testing.T, e *stacktest.Env, user string) string {
	t.Helper()
	res := e.Do("POST", "/v3/sdk/realtimeTokenRequests", nil, e.UserHeaders(user))
	if res.Status != 200 {
		t.Fatalf("token request: %d %s", res.Status, res.Body)
	}
	return res.Map(t)["token"].(string)
}

func TestSocketAuthentication(t *testing.T) {
	e := newEnv(t, stacktest.Options{})
	a := newAuthApps(t, e)
	token := realtimeToken(t, e, "alice")
	expired, _ := realtime.NewTokens(e.Cfg.SecretKey, -time.Minute).Issue(a.plain.APIKey, "alice")
	forged, _ := realtime.NewTokens("another secret key entirely", time.Hour).Issue(a.plain.APIKey, "alice")
	wrongKeyJWT := strings.Replace(a.jwt("alice", time.Hour), ".", ".x", 1)
	q := func(kv ...string) url.Values {
		v := url.Values{}
		for i := 0; i < len(kv); i += 2 {
			v.Set(kv[i], kv[i+1])
		}
		return v
	}
	for _, tc := range []struct {
		name  string
		query url.Values
		auth  map[string]any
		// want is the CONNECT_ERROR message, or "" for success as wantUser of app.
		want, wantUser string
		app            int64
	}{
		{name: "nothing", want: "No authentication parameters found: pass apiKey and userId, or a token"},
		{name: "key without user", query: q("apiKey", a.plain.APIKey), want: "No valid combination of authentication parameters found: pass apiKey with userId, or a token"},
		{name: "unknown key", query: q("apiKey", "nope", "userId", "alice"), want: "Invalid API key"},
		{name: "plain app", query: q("apiKey", a.plain.APIKey, "userId", "alice"), wantUser: "alice", app: a.plain.AppID},
		{name: "plain app, signature undefined", query: q("apiKey", a.plain.APIKey, "userId", "alice", "userSignature", "undefined"), wantUser: "alice", app: a.plain.AppID},
		{name: "credentials in the auth payload", auth: map[string]any{"apiKey": a.plain.APIKey, "userId": "carol"}, wantUser: "carol", app: a.plain.AppID},
		{name: "hmac app without signature", query: q("apiKey", a.hmac.APIKey, "userId", "alice"), want: "This app requires userSignature"},
		{name: "hmac app, signature undefined", query: q("apiKey", a.hmac.APIKey, "userId", "alice", "userSignature", "undefined"), want: "This app requires userSignature"},
		{name: "hmac app, wrong signature", query: q("apiKey", a.hmac.APIKey, "userId", "alice", "userSignature", signature(a.hmac.APISecret, "bob")), want: "Invalid user signature"},
		{name: "hmac app, signature", query: q("apiKey", a.hmac.APIKey, "userId", "alice", "userSignature", signature(a.hmac.APISecret, "alice")), wantUser: "alice", app: a.hmac.AppID},
		{name: "secure app without token", query: q("apiKey", a.secure.APIKey, "userId", "alice"), want: "This app requires a user token (secure mode): pass the user's JWT as token"},
		{name: "secure app, JWT in auth", auth: map[string]any{"token": a.jwt("alice", time.Hour)}, wantUser: "alice", app: a.secure.AppID},
		{name: "secure app, JWT with key and user", query: q("apiKey", a.secure.APIKey, "userId", "alice"), auth: map[string]any{"token": a.jwt("alice", time.Hour)}, wantUser: "alice", app: a.secure.AppID},
		{name: "secure app, JWT of another user", query: q("apiKey", a.secure.APIKey, "userId", "bob"), auth: map[string]any{"token": a.jwt("alice", time.Hour)}, want: "The token was issued for another user"},
		{name: "secure app, expired JWT", auth: map[string]any{"token": a.jwt("alice", -time.Hour)}, want: userjwt.ErrInvalid.Error()},
		{name: "secure app, JWT without exp", auth: map[string]any{"token": a.jwt("alice", 0)}, want: userjwt.ErrNoExpiry.Error()},
		{name: "JWT checked with another app's key", query: q("apiKey", a.plain.APIKey), auth: map[string]any{"token": a.jwt("alice", time.Hour)}, want: userjwt.ErrNoKey.Error()},
		{name: "tampered JWT", auth: map[string]any{"token": wrongKeyJWT}, want: userjwt.ErrMalformed.Error()},
		{name: "realtime token", auth: map[string]any{"token": token}, wantUser: "alice", app: a.plain.AppID},
		{name: "realtime token in the query", query: q("token", token), wantUser: "alice", app: a.plain.AppID},
		{name: "realtime token of another user", query: q("userId", "bob"), auth: map[string]any{"token": token}, want: "The token was issued for another user"},
		{name: "realtime token of another app", query: q("apiKey", a.hmac.APIKey), auth: map[string]any{"token": token}, want: "The token was issued for another app"},
		{name: "tampered realtime token", auth: map[string]any{"token": token[:len(token)-2] + "xx"}, want: realtime.ErrBadToken.Error()},
		{name: "expired realtime token", auth: map[string]any{"token": expired}, want: realtime.ErrBadToken.Error()},
		{name: "realtime token signed with another key", auth: map[string]any{"token": forged}, want: realtime.ErrBadToken.Error()},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := realtimetest.DialRaw(t, e.BaseURL, tc.query, realtimetest.DialOptions{})
			connect := "40"
			if tc.auth != nil {
				b, _ := json.Marshal(tc.auth)
				connect += string(b)
			}
			s.Send(connect)
			f := s.Next()
			if tc.want != "" {
				want, _ := json.Marshal(map[string]string{"message": tc.want})
				if f != "44"+string(want) {
					t.Fatalf("got %q, want CONNECT_ERROR %s", f, want)
				}
				if f, err := s.Read(); err == nil {
					t.Fatalf("the connection stayed open after CONNECT_ERROR (got %q)", f)
				}
				return
			}
			if !strings.HasPrefix(f, "40{") {
				t.Fatalf("got %q, want a CONNECT answer", f)
			}
			// The connection is the expected user's: an event for that user reaches it.
			e.Stack.Events.Publish(context.Background(), events.Event{Kind: events.AllNotificationRead, AppID: tc.app, UserIDs: []int64{userID(t, e, tc.app, tc.wantUser)}})
			if f := s.Next(); f != `42["ALL_NOTIFICATION_READ",{}]` {
				t.Fatalf("got %q, want the user's event", f)
			}
			s.Send("41")
		})
	}
}

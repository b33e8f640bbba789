// Package fcm sends mobile push notifications through the Firebase Cloud Messaging HTTP v1
// API (POST /v1/projects/{project}/messages:send), authorised with an OAuth access token
// obtained from a service account key.
package fcm

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/heraldhq/herald/internal/providers"
	"github.com/heraldhq/herald/internal/providers/internal/compose"
	"github.com/heraldhq/herald/internal/providers/internal/config"
	"github.com/heraldhq/herald/internal/providers/internal/fanout"
	"github.com/heraldhq/herald/internal/providers/internal/httpcall"
)

func spec() config.Spec {
	return config.Spec{
		{Name: "serviceAccount", Type: "string", Required: true, Secret: true, Description: "service account key file (JSON text) with the Firebase Cloud Messaging API Admin role"},
		{Name: "projectId", Type: "string", Description: "Firebase project ID; default: the service account's project_id"},
		{Name: "baseUrl", Type: "string", Format: "uri", Destination: config.DestinationURL, Default: "https://fcm.googleapis.com", Description: "FCM API base URL"},
		{Name: "tokenUrl", Type: "string", Format: "uri", Destination: config.DestinationURL, Description: "OAuth token endpoint; default: the service account's token_uri (https://oauth2.googleapis.com/token)"},
	}
}

type settings struct {
	ServiceAccount string `json:"serviceAccount"`
	ProjectID      string `json:"projectId"`
	BaseURL        string `json:"baseUrl"`
	TokenURL       string `json:"tokenUrl"`
}

// Kind describes the FCM provider.
func Kind() providers.Kind {
	return providers.Kind{
		Identifier: "fcm", Name: "Firebase Cloud Messaging", Channel: "mobilePush",
		ConfigSchema: spec().Schema(),
		New: func(raw json.RawMessage, deps providers.Deps) (providers.Provider, error) {
			var s settings
			if err := spec().Decode(raw, &s); err != nil {
				return nil, err
			}
			account, key, err := parseServiceAccount(s.ServiceAccount)
			if err != nil {
				return nil, err
			}
			if s.ProjectID == "" {
				s.ProjectID = account.ProjectID
			}
			if s.ProjectID == "" {
				return nil, fmt.Errorf("projectId is required (the service account names no project_id)")
			}
			if s.TokenURL == "" {
				s.TokenURL = account.TokenURI
			}
			if s.TokenURL == "" {
				s.TokenURL = "https://oauth2.googleapis.com/token"
			}
			client := httpcall.Client(deps)
			return &provider{cfg: s, http: client, tokens: &tokenSource{
				account: account, key: key, tokenURL: s.TokenURL, http: client, now: time.Now,
			}}, nil
		},
	}
}

type provider struct {
	cfg    settings
	http   *http.Client
	tokens *tokenSource
}

// Send pushes to each of the recipient's registration tokens (see fanout.Send for how the
// outcomes fold). FCM takes no idempotency key; a digest of the key becomes the Android
// notification tag and the APNs collapse id, so a duplicate from a retried activity
// replaces the first on the device instead of showing twice.
func (p *provider) Send(ctx context.Context, msg providers.Message) (providers.Result, error) {
	return fanout.Send(ctx, msg.To.PushTokens, func(ctx context.Context, token string) (string, error) {
		return p.sendOne(ctx, token, msg)
	})
}

// message builds the v1 Message for one token: notification {title, body}; data from the
// message's data (values as strings) plus url and icon; override android, apns, webpush,
// fcm_options, notification and data merged in.
func message(token string, msg providers.Message) map[string]any {
	data := map[string]any{}
	for k, v := range compose.DataStrings(msg.Data) {
		data[k] = v
	}
	if msg.URL != "" {
		data["url"] = msg.URL
	}
	if msg.Icon != "" {
		data["icon"] = msg.Icon
	}
	m := map[string]any{"token": token}
	if msg.Title != "" || msg.Body != "" {
		m["notification"] = map[string]any{"title": msg.Title, "body": msg.Body}
	}
	if msg.IdempotencyKey != "" {
		tag := compose.Digest(msg.IdempotencyKey, 32)
		m["android"] = map[string]any{"notification": map[string]any{"tag": tag}}
		m["apns"] = map[string]any{"headers": map[string]any{"apns-collapse-id": tag}}
	}
	if msg.URL != "" && strings.HasPrefix(msg.URL, "https://") {
		m["webpush"] = map[string]any{"fcm_options": map[string]any{"link": msg.URL}}
	}
	compose.Merge(m, compose.Pick(compose.Object(msg.Override), "android", "apns", "webpush", "fcm_options", "notification", "data"))
	if extra, ok := m["data"].(map[string]any); ok {
		for k, v := range extra {
			data[k] = v
		}
	}
	// FCM requires every data value to be a string.
	for k, v := range data {
		if _, ok := v.(string); !ok {
			raw, _ := json.Marshal(v)
			data[k] = string(raw)
		}
	}
	if len(data) > 0 {
		m["data"] = data
	} else {
		delete(m, "data")
	}
	return m
}

func (p *provider) sendOne(ctx context.Context, token string, msg providers.Message) (string, error) {
	access, err := p.tokens.get(ctx)
	if err != nil {
		return "", err
	}
	target := fmt.Sprintf("%s/v1/projects/%s/messages:send", strings.TrimRight(p.cfg.BaseURL, "/"), url.PathEscape(p.cfg.ProjectID))
	req, err := httpcall.NewJSON(ctx, http.MethodPost, target, map[string]any{"message": message(token, msg)})
	if err != nil {
		return "", err
	}
	req.Header.Set("Authorization", "Bearer "+access)
	res, raw, err := httpcall.Do(p.http, req)
	if err != nil {
		return "", err
	}
	if err := httpcall.Check(res, raw, false); err != nil {
		if res.StatusCode == http.StatusUnauthorized {
			p.tokens.invalidate()
		}
		return "", classify(err, res.StatusCode, raw)
	}
	var answer struct {
		Name string `json:"name"`
	}
	_ = json.Unmarshal(raw, &answer)
	return answer.Name, nil
}

// classify reads FCM's error: UNREGISTERED, or INVALID_ARGUMENT on message.token, means the
// token is gone; QUOTA_EXCEEDED and UNAVAILABLE retry (Retry-After honoured); a 401 that is
// not THIRD_PARTY_AUTH_ERROR means our access token was refused, so a new one is fetched and
// the send retried; SENDER_ID_MISMATCH and the rest of the 4xx are permanent.
func classify(err error, status int, raw []byte) error {
	pe, ok := err.(*providers.Error)
	if !ok {
		return err
	}
	var answer struct {
		Error struct {
			Message string `json:"message"`
			Status  string `json:"status"`
			Details []struct {
				ErrorCode       string `json:"errorCode"`
				FieldViolations []struct {
					Field string `json:"field"`
				} `json:"fieldViolations"`
			} `json:"details"`
		} `json:"error"`
	}
	if json.Unmarshal(raw, &answer) != nil {
		return pe
	}
	code, badToken := answer.Error.Status, false
	for _, d := range answer.Error.Details {
		if d.ErrorCode != "" {
			code = d.ErrorCode
		}
		for _, v := range d.FieldViolations {
			badToken = badToken || v.Field == "message.token"
		}
	}
	switch {
	case code == "UNREGISTERED" || (code == "INVALID_ARGUMENT" && badToken):
		pe.Permanent, pe.Gone = true, true
	case code == "QUOTA_EXCEEDED" || code == "UNAVAILABLE" || code == "INTERNAL":
		pe.Permanent = false
	case status == http.StatusUnauthorized && code != "THIRD_PARTY_AUTH_ERROR":
		pe.Permanent = false
	}
	pe.Message = fmt.Sprintf("FCM %s: %s", code, answer.Error.Message)
	return pe
}

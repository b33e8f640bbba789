package devices

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"net/url"
	"strings"
	"time"

	herald "github.com/heraldhq/herald"
	"github.com/heraldhq/herald/db"
	"github.com/heraldhq/herald/db/dbsqlc"
	"github.com/heraldhq/herald/internal/audience/users"
	js "github.com/heraldhq/herald/internal/platform/jsonshape"
	"github.com/heraldhq/herald/internal/platform/jsontime"
)

// MaxEndpointLength caps a push service endpoint URL.
const MaxEndpointLength = 2048

// Sizes of a subscription's keys (RFC 8291): an uncompressed P-256 point and the 16-byte
// authentication secret.
const (
	p256dhSize = 65
	authSize   = 16
)

// WebPushSubscription is a browser's PushSubscription as stored for a device.
type WebPushSubscription struct {
	DeviceID string `json:"deviceId"`
	Endpoint string `json:"endpoint"`
	// ExpirationTime is in milliseconds since the epoch, as the browser gives it.
	ExpirationTime *int64        `json:"expirationTime"`
	Keys           WebPushKeys   `json:"keys"`
	CreatedAt      jsontime.Time `json:"createdAt"`
	UpdatedAt      jsontime.Time `json:"updatedAt"`
}

// WebPushKeys are the subscription's keys, base64url without padding.
type WebPushKeys struct {
	P256dh string `json:"p256dh"`
	Auth   string `json:"auth"`
}

// SaveWebPush stores the browser PushSubscription of the body {endpoint, expirationTime,
// keys: {p256dh, auth}} for one of the user's devices (registered by device connect). The
// same endpoint sent again replaces the stored keys.
func (s *Service) SaveWebPush(ctx context.Context, appID int64, identifier, deviceID string, body []byte) (WebPushSubscription, error) {
	var p herald.Problems
	checkDeviceID(deviceID, &p)
	sub := parseSubscription(body, &p)
	if err := p.Err(); err != nil {
		return WebPushSubscription{}, err
	}
	notFound := herald.Errorf(herald.ENOTFOUND, "device %q not found: register it with POST /v3/sdk/connect first", deviceID)
	uid, err := users.ID(ctx, s.db.Queries, appID, identifier)
	if err != nil {
		if herald.ErrorCode(err) == herald.ENOTFOUND {
			return WebPushSubscription{}, notFound
		}
		return WebPushSubscription{}, err
	}
	ok, err := s.db.DeviceRegistered(ctx, dbsqlc.DeviceRegisteredParams{AppID: appID, UserID: uid, DeviceID: deviceID})
	if err != nil {
		return WebPushSubscription{}, db.MapError(err)
	}
	if !ok {
		return WebPushSubscription{}, notFound
	}
	params := dbsqlc.UpsertWebPushSubscriptionParams{
		AppID: appID, UserID: uid, DeviceID: deviceID, Endpoint: sub.Endpoint, P256dh: sub.Keys.P256dh, Auth: sub.Keys.Auth,
	}
	if sub.ExpirationTime != nil {
		t := time.UnixMilli(*sub.ExpirationTime)
		params.ExpirationTime = &t
	}
	row, err := s.db.UpsertWebPushSubscription(ctx, params)
	if err != nil {
		return WebPushSubscription{}, db.MapError(err)
	}
	out := WebPushSubscription{
		DeviceID: row.DeviceID, Endpoint: row.Endpoint, Keys: WebPushKeys{P256dh: row.P256dh, Auth: row.Auth},
		CreatedAt: jsontime.Time(row.CreatedAt), UpdatedAt: jsontime.Time(row.UpdatedAt),
	}
	if row.ExpirationTime != nil {
		ms := row.ExpirationTime.UnixMilli()
		out.ExpirationTime = &ms
	}
	return out, nil
}

// parseSubscription checks a PushSubscription body, recording every problem.
func parseSubscription(body []byte, p *herald.Problems) WebPushSubscription {
	var sub WebPushSubscription
	f := js.Fields(body)
	if f == nil {
		p.Addf("body must be a JSON object")
		return sub
	}
	endpoint, ok := js.String(f["endpoint"])
	if u, err := url.Parse(endpoint); !ok || err != nil || u.Scheme != "https" || u.Host == "" || len(endpoint) > MaxEndpointLength {
		p.Addf("endpoint must be an https URL of at most %d characters", MaxEndpointLength)
	}
	sub.Endpoint = endpoint
	switch raw := f["expirationTime"]; js.Kind(raw) {
	case "", "null":
	case "number":
		var ms float64
		if json.Unmarshal(raw, &ms) != nil || ms < 0 || ms > 1e15 {
			p.Addf("expirationTime must be a time in milliseconds since the epoch, or null")
		} else {
			v := int64(ms)
			sub.ExpirationTime = &v
		}
	default:
		p.Addf("expirationTime must be a time in milliseconds since the epoch, or null")
	}
	keys := js.Fields(f["keys"])
	if keys == nil {
		p.Addf("keys must be an object")
		return sub
	}
	sub.Keys.P256dh = checkKey(keys["p256dh"], "keys.p256dh must be the base64url encoding of an uncompressed P-256 public key (65 bytes)", p256dhSize, p)
	sub.Keys.Auth = checkKey(keys["auth"], "keys.auth must be the base64url encoding of a 16-byte secret", authSize, p)
	return sub
}

// checkKey reads a base64url key (padded or not) that must decode to size bytes, and
// returns it unpadded, the one form stored.
func checkKey(raw json.RawMessage, problem string, size int, p *herald.Problems) string {
	s, ok := js.String(raw)
	b, err := base64.RawURLEncoding.DecodeString(strings.TrimRight(s, "="))
	if !ok || err != nil || len(b) != size || (size == p256dhSize && b[0] != 4) {
		p.Addf("%s", problem)
		return s
	}
	return base64.RawURLEncoding.EncodeToString(b)
}

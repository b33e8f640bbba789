// Package devices registers a user's devices (device connect) and stores their browser
// push subscriptions.
package devices

import (
	"context"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/jackc/pgx/v5"

	herald "github.com/heraldhq/herald"
	"github.com/heraldhq/herald/db"
	"github.com/heraldhq/herald/db/dbsqlc"
	"github.com/heraldhq/herald/internal/audience/categories"
	"github.com/heraldhq/herald/internal/audience/prefs"
	"github.com/heraldhq/herald/internal/audience/users"
	"github.com/heraldhq/herald/internal/console/apps"
	js "github.com/heraldhq/herald/internal/platform/jsonshape"
	"github.com/heraldhq/herald/internal/providers"
)

// MaxDeviceIDLength caps a device id.
const MaxDeviceIDLength = 255

// DeviceTypes are the kinds of device that connect.
var DeviceTypes = []string{"browser", "android", "ios"}

// Connection is the answer of device connect: what a front-end SDK needs to start.
type Connection struct {
	UnreadCount int64   `json:"unreadCount"`
	App         AppInfo `json:"app"`
}

// AppInfo describes the app to its front-end clients.
type AppInfo struct {
	ID   string `json:"id"`
	Name string `json:"name"`
	// PublicKey is the app's VAPID public key for web push subscriptions (null until the
	// app has one).
	PublicKey     *string               `json:"publicKey"`
	EnableWebPush bool                  `json:"enableWebPush"`
	HideBranding  bool                  `json:"hideBranding"`
	Channels      []string              `json:"channels"`
	Categories    []categories.Category `json:"categories"`
}

// Service registers devices.
type Service struct {
	db         *db.DB
	categories *categories.Service
	prefs      *prefs.Service
	// Keys makes an app's web push key pair when connect needs it (nil: never).
	Keys KeySource
}

// KeySource returns an app's web push key pair, generating it on first use.
type KeySource func(ctx context.Context, appID int64) (*providers.VAPIDKeys, error)

// NewService returns a Service over the database.
func NewService(d *db.DB, cats *categories.Service, p *prefs.Service) *Service {
	return &Service{db: d, categories: cats, prefs: p}
}

// checkDeviceID records the problems of a device id.
func checkDeviceID(id string, p *herald.Problems) {
	switch {
	case strings.TrimSpace(id) == "":
		p.Addf("device id should not be empty")
	case utf8.RuneCountInString(id) > MaxDeviceIDLength:
		p.Addf("device id must be at most %d characters", MaxDeviceIDLength)
	}
}

// Connect registers (or refreshes) a user's device from the body {deviceType}, creating
// the user when needed, and returns the user's unread count and the app's description.
func (s *Service) Connect(ctx context.Context, app apps.App, identifier, deviceID string, body []byte) (Connection, error) {
	var p herald.Problems
	users.CheckIdentifier("user id", identifier, &p)
	checkDeviceID(deviceID, &p)
	f := js.Fields(body)
	var deviceType string
	if f == nil {
		p.Addf("body must be a JSON object")
	} else if v, ok := js.String(f["deviceType"]); !ok || !slices.Contains(DeviceTypes, v) {
		p.Addf("deviceType must be one of the following values: %s", strings.Join(DeviceTypes, ", "))
	} else {
		deviceType = v
	}
	if err := p.Err(); err != nil {
		return Connection{}, err
	}
	var uid int64
	err := s.db.InTx(ctx, func(q *dbsqlc.Queries, _ pgx.Tx) error {
		ids, err := users.Ensure(ctx, q, app.ID, []string{identifier})
		if err != nil {
			return err
		}
		uid = ids[0]
		return db.MapError(q.UpsertDevice(ctx, dbsqlc.UpsertDeviceParams{AppID: app.ID, UserID: uid, DeviceID: deviceID, DeviceType: deviceType}))
	})
	if err != nil {
		return Connection{}, err
	}
	conn := Connection{App: AppInfo{
		ID: strconv.FormatInt(app.ID, 10), Name: app.Name,
		EnableWebPush: app.EnableWebPush, HideBranding: app.HideBranding,
	}}
	switch {
	case app.VAPIDPublicKey != "":
		conn.App.PublicKey = &app.VAPIDPublicKey
	case app.EnableWebPush && s.Keys != nil:
		// Web push is on but the app has no key pair yet: make it, so browsers can subscribe.
		keys, err := s.Keys(ctx, app.ID)
		if err != nil {
			return Connection{}, err
		}
		conn.App.PublicKey = &keys.PublicKey
	}
	counts, err := s.db.InboxCounters(ctx, dbsqlc.InboxCountersParams{AppID: app.ID, UserID: uid})
	if err != nil {
		return Connection{}, db.MapError(err)
	}
	conn.UnreadCount = counts.Unread
	if conn.App.Channels, err = s.prefs.AppChannels(ctx, app.ID); err != nil {
		return Connection{}, err
	}
	if conn.App.Categories, err = s.categories.List(ctx, app.ID); err != nil {
		return Connection{}, err
	}
	return conn, nil
}

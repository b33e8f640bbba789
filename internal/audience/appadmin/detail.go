package appadmin

import (
	"context"
	"time"

	"github.com/heraldhq/herald/db"
	"github.com/heraldhq/herald/db/dbsqlc"
	"github.com/heraldhq/herald/internal/audience/prefs"
	"github.com/heraldhq/herald/internal/inbox"
)

// Detail is what the console's user page needs besides the profile: the services that
// change preferences and read the inbox, shared with the developer API so both apply one
// set of rules.
type Detail struct {
	Prefs *prefs.Service
	Inbox *inbox.Service
}

// SetPreferences changes a known user's switches from the body the developer API's PATCH
// /preferences takes ({preference: [{categoryId, channels: [{channel, enabled}]}]}) and
// returns the user's effective preferences. An unknown user is not found; every problem of
// the body is reported and nothing is changed.
func (s *Service) SetPreferences(ctx context.Context, appID int64, identifier string, body []byte) ([]Preference, error) {
	if _, err := s.user(ctx, appID, identifier); err != nil {
		return nil, err
	}
	if err := s.Detail.Prefs.Update(ctx, appID, identifier, body); err != nil {
		return nil, err
	}
	return s.Preferences(ctx, appID, identifier)
}

// Inbox returns a page of a known user's in-app notifications, newest first.
func (s *Service) Inbox(ctx context.Context, appID int64, identifier string, q inbox.ListQuery) (inbox.Page, error) {
	if _, err := s.user(ctx, appID, identifier); err != nil {
		return inbox.Page{}, err
	}
	return s.Detail.Inbox.List(ctx, appID, identifier, q)
}

// Device is one of a user's devices as the console shows it. The push token is shown by
// its first characters only: enough to tell tokens apart, not enough to send with.
type Device struct {
	DeviceID             string    `json:"deviceId"`
	DeviceType           string    `json:"deviceType"`
	PushToken            *string   `json:"pushToken"`
	WebPushSubscriptions int64     `json:"webPushSubscriptions"`
	CreatedAt            time.Time `json:"createdAt"`
	LastSeenAt           time.Time `json:"lastSeenAt"`
}

// tokenShown is how many characters of a push token the console sees.
const tokenShown = 12

// Devices lists a known user's devices (the 100 seen last), newest seen first.
func (s *Service) Devices(ctx context.Context, appID int64, identifier string) ([]Device, error) {
	u, err := s.user(ctx, appID, identifier)
	if err != nil {
		return nil, err
	}
	rows, err := s.db.ListUserDevices(ctx, dbsqlc.ListUserDevicesParams{AppID: appID, UserID: u.ID})
	if err != nil {
		return nil, db.MapError(err)
	}
	out := make([]Device, len(rows))
	for i, r := range rows {
		out[i] = Device{DeviceID: r.DeviceID, DeviceType: r.DeviceType, WebPushSubscriptions: r.WebPushSubscriptions,
			CreatedAt: r.CreatedAt.UTC(), LastSeenAt: r.LastSeenAt.UTC()}
		if r.PushToken != nil && *r.PushToken != "" {
			t := *r.PushToken
			if len(t) > tokenShown {
				t = t[:tokenShown] + "…"
			}
			out[i].PushToken = &t
		}
	}
	return out, nil
}

package herald

import (
	"context"
	"net/http"
	"net/url"
	"strconv"
	"time"
)

// UserClient acts on one user's behalf (user mode): inbox, profile, preferences,
// categories and device connect. It sends the API key and the user id, and the user JWT
// in secure mode; never the API secret.
type UserClient struct {
	c         *Client
	user      string
	token     string
	signature string
	deviceID  string
}

// UserOption configures a UserClient.
type UserOption func(*UserClient)

// WithUserToken sets the user JWT sent as the bearer token (secure mode); see SignUserToken.
func WithUserToken(jwt string) UserOption { return func(u *UserClient) { u.token = jwt } }

// WithUserSignature sets the deprecated HMAC user signature; see UserSignature.
func WithUserSignature(sig string) UserOption { return func(u *UserClient) { u.signature = sig } }

// WithDeviceID sets the device id header, needed by ConnectDevice.
func WithDeviceID(id string) UserOption { return func(u *UserClient) { u.deviceID = id } }

// AsUser returns a client acting for the user. When the Client has a signing key
// (WithSigningKey) and no token is given, each call carries a freshly signed user JWT.
func (c *Client) AsUser(identifier string, opts ...UserOption) *UserClient {
	u := &UserClient{c: c, user: identifier}
	for _, o := range opts {
		o(u)
	}
	return u
}

func (u *UserClient) headers() (http.Header, error) {
	h := http.Header{}
	p := u.c.prefix
	h.Set(p+"API-KEY", u.c.apiKey)
	h.Set(p+"USER-ID", u.user)
	tok := u.token
	if tok == "" && u.c.signingKey != nil {
		var err error
		if tok, err = SignUserToken(u.c.signingKey, u.c.apiKey, u.user, u.c.tokenTTL); err != nil {
			return nil, err
		}
	}
	if tok != "" {
		h.Set("Authorization", "Bearer "+tok)
	}
	if u.signature != "" {
		h.Set(p+"USER-SIGNATURE", u.signature)
	}
	if u.deviceID != "" {
		h.Set(p+"DEVICE-ID", u.deviceID)
	}
	return h, nil
}

func (u *UserClient) do(ctx context.Context, r request, out any) error {
	h, err := u.headers()
	if err != nil {
		return err
	}
	r.header = h
	return u.c.do(ctx, r, out)
}

// Filter selects notifications of a list.
type Filter string

// Values of Filter.
const (
	FilterUnread     Filter = "unread"
	FilterRead       Filter = "read"
	FilterSeen       Filter = "seen"
	FilterUnseen     Filter = "unseen"
	FilterInteracted Filter = "interacted"
)

// ListOptions select a page of the inbox.
type ListOptions struct {
	// PageNo is the 1-based page (default 1).
	PageNo int
	// Limit is the page size, at most 20 (default 10).
	Limit int
	// Filter keeps only some notifications.
	Filter Filter
	// Category is a category identifier.
	Category string
}

func (o ListOptions) query() url.Values {
	q := url.Values{}
	if o.PageNo > 0 {
		q.Set("pageNo", strconv.Itoa(o.PageNo))
	}
	if o.Limit > 0 {
		q.Set("limit", strconv.Itoa(o.Limit))
	}
	if o.Filter != "" {
		q.Set("filter", string(o.Filter))
	}
	if o.Category != "" {
		q.Set("category", o.Category)
	}
	return q
}

// ListNotifications returns one page of the user's inbox (GET /v3/notifications).
func (u *UserClient) ListNotifications(ctx context.Context, o ListOptions) (*NotificationPage, error) {
	var out NotificationPage
	if err := u.do(ctx, request{method: http.MethodGet, path: "/notifications", query: o.query()}, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// Notification returns one notification of the user's inbox.
func (u *UserClient) Notification(ctx context.Context, id int64) (*Notification, error) {
	return u.notification(ctx, http.MethodGet, id, "", nil)
}

func (u *UserClient) notification(ctx context.Context, method string, id int64, suffix string, body any) (*Notification, error) {
	var out Notification
	r := request{method: method, path: "/notifications/" + strconv.FormatInt(id, 10) + suffix, body: body, idempotent: true}
	if err := u.do(ctx, r, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// MarkSeen marks a notification seen.
func (u *UserClient) MarkSeen(ctx context.Context, id int64) (*Notification, error) {
	return u.notification(ctx, http.MethodPost, id, "/views", nil)
}

// MarkUnseen marks a notification unseen.
func (u *UserClient) MarkUnseen(ctx context.Context, id int64) (*Notification, error) {
	return u.notification(ctx, http.MethodDelete, id, "/views", nil)
}

// MarkRead marks a notification read.
func (u *UserClient) MarkRead(ctx context.Context, id int64) (*Notification, error) {
	return u.notification(ctx, http.MethodPost, id, "/reads", nil)
}

// MarkUnread marks a notification unread.
func (u *UserClient) MarkUnread(ctx context.Context, id int64) (*Notification, error) {
	return u.notification(ctx, http.MethodDelete, id, "/reads", nil)
}

// Click records a click on a notification.
func (u *UserClient) Click(ctx context.Context, id int64) (*Notification, error) {
	return u.notification(ctx, http.MethodPost, id, "/click", nil)
}

// SetState sets a notification's free-form state (seen, read and clicked also set their times).
func (u *UserClient) SetState(ctx context.Context, id int64, state string) (*Notification, error) {
	return u.notification(ctx, http.MethodPut, id, "/state", StateChange{State: state})
}

// Snooze hides a notification until until: it leaves the list and the counts and comes
// back unread then (snoozing again moves the time).
func (u *UserClient) Snooze(ctx context.Context, id int64, until time.Time) (*Snoozed, error) {
	var out Snoozed
	err := u.do(ctx, request{method: http.MethodPut, path: "/notifications/" + strconv.FormatInt(id, 10) + "/snooze", body: SnoozeRequest{Until: until}, idempotent: true}, &out)
	if err != nil {
		return nil, err
	}
	return &out, nil
}

// Unsnooze brings a snoozed notification back now, unread.
func (u *UserClient) Unsnooze(ctx context.Context, id int64) (*Notification, error) {
	return u.notification(ctx, http.MethodDelete, id, "/snooze", nil)
}

// DeleteNotification deletes a notification from the user's inbox.
func (u *UserClient) DeleteNotification(ctx context.Context, id int64) error {
	return u.do(ctx, request{method: http.MethodDelete, path: "/notifications/" + strconv.FormatInt(id, 10)}, nil)
}

func (u *UserClient) bulk(ctx context.Context, what string) (*BulkResult, error) {
	var out BulkResult
	if err := u.do(ctx, request{method: http.MethodPost, path: "/notifications/" + what, idempotent: true}, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// MarkAllSeen marks every notification of the user seen.
func (u *UserClient) MarkAllSeen(ctx context.Context) (*BulkResult, error) {
	return u.bulk(ctx, "markAllNotificationsAsSeen")
}

// MarkAllRead marks every notification of the user read.
func (u *UserClient) MarkAllRead(ctx context.Context) (*BulkResult, error) {
	return u.bulk(ctx, "markAllNotificationsAsRead")
}

// DeleteAll deletes every notification of the user.
func (u *UserClient) DeleteAll(ctx context.Context) (*BulkResult, error) {
	return u.bulk(ctx, "markAllNotificationsAsDeleted")
}

// Profile returns the user's profile.
func (u *UserClient) Profile(ctx context.Context) (Profile, error) {
	var out Profile
	err := u.do(ctx, request{method: http.MethodGet, path: "/profile"}, &out)
	return out, err
}

// UpdateProfile sets these profile fields, keeping the others (PUT /v3/profile).
func (u *UserClient) UpdateProfile(ctx context.Context, fields Profile) (Profile, error) {
	var out Profile
	err := u.do(ctx, request{method: http.MethodPut, path: "/profile", body: fields}, &out)
	return out, err
}

// PatchProfile applies RFC 6902 operations to the profile, all or none (PATCH /v3/profile).
func (u *UserClient) PatchProfile(ctx context.Context, ops JsonPatch) (Profile, error) {
	var out Profile
	err := u.do(ctx, request{method: http.MethodPatch, path: "/profile", body: ops}, &out)
	return out, err
}

// Preferences returns the user's channel preferences per category.
func (u *UserClient) Preferences(ctx context.Context) ([]Preference, error) {
	var out []Preference
	err := u.do(ctx, request{method: http.MethodGet, path: "/preferences"}, &out)
	return out, err
}

// UpdatePreferences turns channels on or off per category (PATCH /v3/preferences).
func (u *UserClient) UpdatePreferences(ctx context.Context, update PreferenceUpdate) error {
	var msg string
	return u.do(ctx, request{method: http.MethodPatch, path: "/preferences", body: update, idempotent: true}, &msg)
}

// Categories lists the app's categories.
func (u *UserClient) Categories(ctx context.Context) ([]Category, error) {
	var out []Category
	err := u.do(ctx, request{method: http.MethodGet, path: "/categories"}, &out)
	return out, err
}

// ConnectDevice connects the user's device (POST /v3/sdk/connect; needs WithDeviceID) and
// returns the unread count and the app's channels and categories.
func (u *UserClient) ConnectDevice(ctx context.Context, deviceType ConnectRequestDeviceType) (*Connection, error) {
	var out Connection
	err := u.do(ctx, request{method: http.MethodPost, path: "/sdk/connect", body: ConnectRequest{DeviceType: deviceType}, idempotent: true}, &out)
	if err != nil {
		return nil, err
	}
	return &out, nil
}

// RealtimeToken requests a short-lived token for the realtime endpoint
// (POST /v3/sdk/realtimeTokenRequests).
func (u *UserClient) RealtimeToken(ctx context.Context) (RealtimeToken, error) {
	var out RealtimeToken
	err := u.do(ctx, request{method: http.MethodPost, path: "/sdk/realtimeTokenRequests"}, &out)
	return out, err
}

// SaveWebPushSubscription stores the browser's push subscription for a device
// (POST /v3/devices/{deviceId}/webPushSubscription).
func (u *UserClient) SaveWebPushSubscription(ctx context.Context, deviceID string, sub PushSubscription) error {
	return u.do(ctx, request{method: http.MethodPost, path: "/devices/" + pathEscape(deviceID) + "/webPushSubscription", body: sub, idempotent: true}, nil)
}

// MergeProfile applies an RFC 7386 merge patch to the profile: each key replaces the
// profile's, nil removes it, an object merges (PATCH /v3/profile).
func (u *UserClient) MergeProfile(ctx context.Context, patch ProfileMergePatch) (Profile, error) {
	var out Profile
	err := u.do(ctx, request{method: http.MethodPatch, path: "/profile", body: patch}, &out)
	return out, err
}

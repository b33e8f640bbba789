package herald

import (
	"context"
	"net/http"
	"net/url"
)

// ChannelPreferences returns the user's switch for each channel as a whole, unset ones on
// (GET /v3/preferences/channels).
func (u *UserClient) ChannelPreferences(ctx context.Context) (*ChannelSwitches, error) {
	var out ChannelSwitches
	if err := u.do(ctx, request{method: http.MethodGet, path: "/preferences/channels"}, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// SetChannelPreferences turns whole channels on or off for everything the user gets; the
// channels left nil keep their switch (PUT /v3/preferences/channels). It returns every
// switch. Critical notifications are delivered whatever these say.
func (u *UserClient) SetChannelPreferences(ctx context.Context, s ChannelSwitches) (*ChannelSwitches, error) {
	var out ChannelSwitches
	if err := u.do(ctx, request{method: http.MethodPut, path: "/preferences/channels", body: s}, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// WorkflowPreferences returns the user's switches per published workflow
// (GET /v3/preferences/workflows).
func (u *UserClient) WorkflowPreferences(ctx context.Context) ([]FlowPreference, error) {
	var out []FlowPreference
	err := u.do(ctx, request{method: http.MethodGet, path: "/preferences/workflows"}, &out)
	return out, err
}

// UpdateWorkflowPreferences sets some of the user's switches per workflow, keeping the
// others (PATCH /v3/preferences/workflows), and returns every workflow's switches.
func (u *UserClient) UpdateWorkflowPreferences(ctx context.Context, update FlowPreferenceUpdate) ([]FlowPreference, error) {
	var out []FlowPreference
	err := u.do(ctx, request{method: http.MethodPatch, path: "/preferences/workflows", body: update, idempotent: true}, &out)
	return out, err
}

// Translations returns the inbox UI strings for locale, or for the profile's locale when
// locale is empty (GET /v3/translations/inapp).
func (u *UserClient) Translations(ctx context.Context, locale string) (*InAppTranslations, error) {
	q := url.Values{}
	if locale != "" {
		q.Set("locale", locale)
	}
	var out InAppTranslations
	if err := u.do(ctx, request{method: http.MethodGet, path: "/translations/inapp", query: q}, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// OpenAPI returns the developer API's OpenAPI document as the server serves it
// (GET /v3/openapi.json).
func (c *Client) OpenAPI(ctx context.Context) (map[string]any, error) {
	var out map[string]any
	err := c.do(ctx, request{method: http.MethodGet, path: "/openapi.json"}, &out)
	return out, err
}

// QuietHours returns the user's quiet hours and time zone; Enabled is false when none are
// set (GET /v3/preferences/quiet-hours).
func (u *UserClient) QuietHours(ctx context.Context) (*QuietHours, error) {
	var out QuietHours
	if err := u.do(ctx, request{method: http.MethodGet, path: "/preferences/quiet-hours"}, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// SetQuietHours replaces the user's quiet hours (a daily window, whole days, or both; a
// Timezone given is written to the profile), or removes them with Enabled false, and returns
// them (PUT /v3/preferences/quiet-hours). Non-critical messages on external channels that
// fall inside them are held until they end.
func (u *UserClient) SetQuietHours(ctx context.Context, q QuietHoursUpdate) (*QuietHours, error) {
	var out QuietHours
	if err := u.do(ctx, request{method: http.MethodPut, path: "/preferences/quiet-hours", body: q}, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

package templates

import (
	"encoding/json"
	"maps"

	herald "github.com/heraldhq/herald"
	"github.com/heraldhq/herald/internal/delivery/render"
)

// Category is the category of a send, as templates see it.
type Category struct {
	Identifier string
	Name       string
}

// SendData is the template data shared by every recipient of a send:
//
//	data          the send's data object
//	app           {id, name}
//	category      {identifier, name}, or null
//	notification  {title, message, icon, url}
//	template      {identifier}, or null
//
// Recipient adds user (and its alias recipient): {identifier, profile}; SetLinks adds
// unsubscribeUrl and preferencesUrl.
func SendData(sendData json.RawMessage, appID int64, appName string, cat *Category, n herald.Content) (map[string]any, error) {
	d, err := render.DecodeJSON(sendData)
	if err != nil {
		return nil, err
	}
	out := map[string]any{
		"data":         d,
		"app":          map[string]any{"id": appID, "name": appName},
		"notification": map[string]any{"title": n.Title, "message": n.Message, "icon": n.Icon, "url": n.URL},
		"category":     nil,
		"template":     nil,
	}
	if cat != nil {
		out["category"] = map[string]any{"identifier": cat.Identifier, "name": cat.Name}
	}
	if n.TemplateIdentifier != "" {
		out["template"] = map[string]any{"identifier": n.TemplateIdentifier}
	}
	return out, nil
}

// Names of the link variables of email templates and layouts.
const (
	VarUnsubscribeURL = "unsubscribeUrl"
	VarPreferencesURL = "preferencesUrl"
)

// Sample links a template preview shows in place of a recipient's own.
const (
	PreviewUnsubscribeURL = "https://herald.example.com/unsubscribe/preview-sample-token"
	PreviewPreferencesURL = "https://herald.example.com/preferences/preview-sample-token"
)

// SetLinks sets a recipient's {{unsubscribeUrl}} (the one-click unsubscribe link of the
// email) and {{preferencesUrl}} (the hosted page where they manage all their
// preferences): empty strings when the message has none (unsubscribe: another channel, no
// category, critical; preferences: another channel), so {{#if unsubscribeUrl}} hides a
// footer.
func SetLinks(data map[string]any, unsubscribeURL, preferencesURL string) {
	data[VarUnsubscribeURL] = unsubscribeURL
	data[VarPreferencesURL] = preferencesURL
}

// Recipient returns the template data of one recipient: the send's data plus the user.
func Recipient(send map[string]any, identifier string, profile json.RawMessage) map[string]any {
	p, err := render.DecodeJSON(profile)
	if err != nil {
		p = map[string]any{}
	}
	out := maps.Clone(send)
	user := map[string]any{"identifier": identifier, "profile": p}
	out["user"] = user
	out["recipient"] = user
	return out
}

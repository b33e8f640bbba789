// Package twilioapi is the Twilio Programmable Messaging call shared by the twilio-sms and
// twilio-whatsapp providers: POST /2010-04-01/Accounts/{AccountSid}/Messages.json,
// form-encoded, basic auth AccountSid:AuthToken.
package twilioapi

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"github.com/heraldhq/herald/internal/providers"
	"github.com/heraldhq/herald/internal/providers/internal/compose"
	"github.com/heraldhq/herald/internal/providers/internal/config"
	"github.com/heraldhq/herald/internal/providers/internal/httpcall"
)

// Spec lists the configuration keys; fromDescription explains the sender of the channel.
func Spec(fromDescription string) config.Spec {
	return config.Spec{
		{Name: "accountSid", Type: "string", Required: true, Description: "Twilio Account SID (AC…)"},
		{Name: "authToken", Type: "string", Required: true, Secret: true, Description: "Twilio Auth Token"},
		{Name: "from", Type: "string", Description: fromDescription + "; this or messagingServiceSid is required"},
		{Name: "messagingServiceSid", Type: "string", Description: "Messaging Service SID (MG…) that picks the sender"},
		{Name: "statusCallback", Type: "string", Format: "uri", Description: "URL Twilio posts delivery status to (Herald's provider callback URL)"},
		{Name: "baseUrl", Type: "string", Format: "uri", Destination: config.DestinationURL, Default: "https://api.twilio.com", Description: "API base URL"},
	}
}

// Settings is a decoded configuration.
type Settings struct {
	AccountSID          string `json:"accountSid"`
	AuthToken           string `json:"authToken"`
	From                string `json:"from"`
	MessagingServiceSID string `json:"messagingServiceSid"`
	StatusCallback      string `json:"statusCallback"`
	BaseURL             string `json:"baseUrl"`
}

// Decode reads and checks a configuration.
func Decode(spec config.Spec, raw json.RawMessage) (Settings, error) {
	var s Settings
	if err := spec.Decode(raw, &s); err != nil {
		return s, err
	}
	if s.From == "" && s.MessagingServiceSID == "" {
		return s, errors.New("from or messagingServiceSid is required")
	}
	return s, nil
}

// Client sends messages for one configuration.
type Client struct {
	Settings Settings
	HTTP     *http.Client
}

// Send creates a Message resource from the channel addresses to and from ("" when a
// Messaging Service picks the sender). The text is the message's title and body; the
// override may carry contentSid and contentVariables (a Content API template) and mediaUrl.
// Twilio's Messages API takes no idempotency key.
func (c *Client) Send(ctx context.Context, to, from string, msg providers.Message) (providers.Result, error) {
	form := url.Values{"To": {to}}
	if c.Settings.MessagingServiceSID != "" {
		form.Set("MessagingServiceSid", c.Settings.MessagingServiceSID)
	} else {
		form.Set("From", from)
	}
	if text := compose.Text(msg); text != "" {
		form.Set("Body", text)
	}
	if c.Settings.StatusCallback != "" {
		form.Set("StatusCallback", c.Settings.StatusCallback)
	}
	override := compose.Object(msg.Override)
	if sid := compose.String(override, "contentSid"); sid != "" {
		form.Set("ContentSid", sid)
		switch v := override["contentVariables"].(type) {
		case string:
			form.Set("ContentVariables", v)
		case map[string]any:
			raw, _ := json.Marshal(v)
			form.Set("ContentVariables", string(raw))
		}
	}
	switch v := override["mediaUrl"].(type) {
	case string:
		form.Add("MediaUrl", v)
	case []any:
		for _, u := range v {
			if s, ok := u.(string); ok {
				form.Add("MediaUrl", s)
			}
		}
	}
	if form.Get("Body") == "" && form.Get("ContentSid") == "" && form.Get("MediaUrl") == "" {
		return providers.Result{}, providers.Permanent("the message has no text")
	}

	target := fmt.Sprintf("%s/2010-04-01/Accounts/%s/Messages.json", strings.TrimRight(c.Settings.BaseURL, "/"), url.PathEscape(c.Settings.AccountSID))
	req, err := httpcall.NewForm(ctx, target, form)
	if err != nil {
		return providers.Result{}, err
	}
	req.SetBasicAuth(c.Settings.AccountSID, c.Settings.AuthToken)
	res, raw, err := httpcall.Do(c.HTTP, req)
	if err != nil {
		return providers.Result{}, err
	}
	var answer struct {
		SID     string `json:"sid"`
		Status  string `json:"status"`
		Code    int    `json:"code"`
		Message string `json:"message"`
	}
	_ = json.Unmarshal(raw, &answer)
	if err := httpcall.Check(res, raw, false); err != nil {
		if pe, ok := err.(*providers.Error); ok && answer.Code != 0 {
			// e.g. 21211 invalid To, 21610 recipient unsubscribed, 20003 bad credentials.
			pe.Message = fmt.Sprintf("Twilio error %d: %s", answer.Code, answer.Message)
			// 21610: the number replied STOP (or another opt-out keyword) to this sender.
			pe.OptedOut = answer.Code == twilioUnsubscribed
		}
		return providers.Result{}, err
	}
	return providers.Result{ProviderMessageID: answer.SID, Response: fmt.Sprintf("%d %s", res.StatusCode, answer.Status)}, nil
}

// twilioUnsubscribed is Twilio's error code for a recipient who opted out of the sender
// (replied STOP or another opt-out keyword).
const twilioUnsubscribed = 21610

// Package twiliowhatsapp sends WhatsApp messages through Twilio Programmable Messaging
// (addresses prefixed "whatsapp:"; templates via the Content API's contentSid).
package twiliowhatsapp

import (
	"context"
	"encoding/json"
	"strings"

	"github.com/heraldhq/herald/internal/providers"
	"github.com/heraldhq/herald/internal/providers/internal/httpcall"
	"github.com/heraldhq/herald/internal/providers/internal/twilioapi"
)

const fromDescription = "WhatsApp-enabled sender number in E.164 (+15551234567; the whatsapp: prefix is added)"

// Kind describes the Twilio WhatsApp provider.
func Kind() providers.Kind {
	return providers.Kind{
		Identifier: "twilio-whatsapp", Name: "Twilio WhatsApp", Channel: "whatsapp",
		ConfigSchema: twilioapi.Spec(fromDescription).Schema(),
		New: func(raw json.RawMessage, deps providers.Deps) (providers.Provider, error) {
			s, err := twilioapi.Decode(twilioapi.Spec(fromDescription), raw)
			if err != nil {
				return nil, err
			}
			return &provider{twilioapi.Client{Settings: s, HTTP: httpcall.Client(deps)}}, nil
		},
	}
}

type provider struct{ client twilioapi.Client }

// Send messages the recipient's WhatsApp number. Outside WhatsApp's 24-hour session a
// business-initiated message must be an approved template: pass override contentSid (and
// contentVariables).
func (p *provider) Send(ctx context.Context, msg providers.Message) (providers.Result, error) {
	if msg.To.PhoneNumber == "" {
		return providers.Result{}, providers.Permanent("no phone number")
	}
	from := ""
	if p.client.Settings.From != "" {
		from = whatsapp(p.client.Settings.From)
	}
	return p.client.Send(ctx, whatsapp(msg.To.PhoneNumber), from, msg)
}

func whatsapp(number string) string {
	if strings.HasPrefix(number, "whatsapp:") {
		return number
	}
	return "whatsapp:" + number
}

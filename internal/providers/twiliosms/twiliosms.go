// Package twiliosms sends SMS through Twilio Programmable Messaging.
package twiliosms

import (
	"context"
	"encoding/json"

	"github.com/heraldhq/herald/internal/providers"
	"github.com/heraldhq/herald/internal/providers/internal/httpcall"
	"github.com/heraldhq/herald/internal/providers/internal/twilioapi"
)

const fromDescription = "sender phone number in E.164 (+15551234567) or an alphanumeric sender ID"

// Kind describes the Twilio SMS provider.
func Kind() providers.Kind {
	return providers.Kind{
		Identifier: "twilio-sms", Name: "Twilio SMS", Channel: "sms",
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

// Send texts the recipient's phone number.
func (p *provider) Send(ctx context.Context, msg providers.Message) (providers.Result, error) {
	if msg.To.PhoneNumber == "" {
		return providers.Result{}, providers.Permanent("no phone number")
	}
	return p.client.Send(ctx, msg.To.PhoneNumber, p.client.Settings.From, msg)
}

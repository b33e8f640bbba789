package pipeline

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	herald "github.com/heraldhq/herald"
	"github.com/heraldhq/herald/db"
	"github.com/heraldhq/herald/db/dbsqlc"
	"github.com/heraldhq/herald/internal/delivery"
	"github.com/heraldhq/herald/internal/delivery/templates"
	js "github.com/heraldhq/herald/internal/platform/jsonshape"
	"github.com/heraldhq/herald/internal/providers"
)

// compose renders a message for one recipient and fills its address and overrides; it
// also returns the recipient's template data, which routes test their conditions on.
// Its errors are permanent: the same input renders the same way on a retry.
func (a *Service) compose(ctx context.Context, e *sendEntry, lg dbsqlc.MessageLog, identifier string, profile json.RawMessage) (providers.Message, map[string]any, error) {
	if e.templateErr != "" {
		return providers.Message{}, nil, errors.New(e.templateErr)
	}
	data := templates.Recipient(e.sendData, identifier, profile)
	headers := withLink(data, a.unsubscribeLink(lg, e.categoryID, e.critical), a.preferencesURL(lg))
	out, err := e.bundle.Render(ctx, lg.Channel, data)
	if err != nil {
		return providers.Message{}, nil, fmt.Errorf("render: %w", err)
	}
	msg, err := e.message(lg, identifier, profile, out)
	msg.Headers = headers
	return msg, data, err
}

// message builds a recipient's provider message from rendered content: the address from
// the profile, the send's data and blocks, and for email the send's attachments and
// override.channel.email. Its errors are permanent.
func (e *sendEntry) message(lg dbsqlc.MessageLog, identifier string, profile json.RawMessage, out templates.Rendered) (providers.Message, error) {
	pm, _ := DecodeProfile(profile)
	msg := providers.Message{
		Channel: lg.Channel, IdempotencyKey: lg.IdempotencyKey, RequestID: lg.RequestID.String(), UserIdentifier: identifier,
		To:      delivery.Address(lg.Channel, pm),
		Subject: out.Subject, HTML: out.HTML, Text: out.Text,
		Title: out.Title, Body: out.Body, Icon: out.Icon, URL: out.URL,
		Data: e.req.Data, Blocks: e.req.Notification.Blocks,
	}
	if lg.Channel == herald.ChannelEmail {
		if e.attachErr != "" {
			return providers.Message{}, errors.New(e.attachErr)
		}
		msg.Attachments = e.attachments
		if err := applyEmailOverride(&msg, js.Fields(js.Fields(e.override["channel"])[herald.ChannelEmail])); err != nil {
			return providers.Message{}, err
		}
	}
	if msg.To.Email == "" && lg.Channel == herald.ChannelEmail {
		return providers.Message{}, errors.New(delivery.ReasonNoEmail)
	}
	return msg, nil
}

// applyEmailOverride applies override.channel.email: from, fromName, replyTo, cc, bcc,
// subject.
func applyEmailOverride(m *providers.Message, o map[string]json.RawMessage) error {
	for field, dst := range map[string]*string{"from": &m.From, "fromName": &m.FromName, "replyTo": &m.ReplyTo, "subject": &m.Subject} {
		if raw := o[field]; js.Present(raw) {
			v, ok := js.String(raw)
			if !ok {
				return fmt.Errorf("override.channel.email.%s must be a string", field)
			}
			*dst = v
		}
	}
	for field, dst := range map[string]*[]string{"cc": &m.CC, "bcc": &m.BCC} {
		raw := o[field]
		if !js.Present(raw) {
			continue
		}
		if v, ok := js.String(raw); ok {
			*dst = []string{v}
		} else if vs, ok := js.Strings(raw); ok {
			*dst = vs
		} else {
			return fmt.Errorf("override.channel.email.%s must be a string or an array of strings", field)
		}
	}
	return nil
}

// pushTarget is one address of a push channel and how to drop it when it is gone.
type pushTarget struct {
	msg    providers.Message
	forget func(context.Context) error
}

// pushTargets returns one message per stored web push subscription or device token; nil
// for other channels.
func (a *Service) pushTargets(ctx context.Context, lg dbsqlc.MessageLog, m *providers.Message) ([]pushTarget, error) {
	switch lg.Channel {
	case herald.ChannelWebPush:
		subs, err := a.DB.DeliveryWebPushSubscriptions(ctx, dbsqlc.DeliveryWebPushSubscriptionsParams{AppID: lg.AppID, UserID: lg.UserID})
		if err != nil {
			return nil, db.MapError(err)
		}
		out := make([]pushTarget, 0, len(subs))
		for _, s := range subs {
			t := pushTarget{msg: *m}
			t.msg.To.WebPush = &providers.WebPushSubscription{Endpoint: s.Endpoint, P256dh: s.P256dh, Auth: s.Auth}
			id := s.ID
			t.forget = func(ctx context.Context) error {
				return a.DB.DeleteWebPushSubscription(ctx, dbsqlc.DeleteWebPushSubscriptionParams{AppID: lg.AppID, ID: id})
			}
			out = append(out, t)
		}
		return out, nil
	case herald.ChannelMobilePush:
		devs, err := a.DB.DeliveryPushTokens(ctx, dbsqlc.DeliveryPushTokensParams{AppID: lg.AppID, UserID: lg.UserID})
		if err != nil {
			return nil, db.MapError(err)
		}
		out := make([]pushTarget, 0, len(devs))
		for _, d := range devs {
			t := pushTarget{msg: *m}
			t.msg.To.PushTokens = []string{d.PushToken}
			id := d.ID
			t.forget = func(ctx context.Context) error {
				return a.DB.ClearDevicePushToken(ctx, dbsqlc.ClearDevicePushTokenParams{AppID: lg.AppID, ID: id})
			}
			out = append(out, t)
		}
		return out, nil
	}
	return nil, nil
}

func missingPushReason(channel string) string {
	if channel == herald.ChannelWebPush {
		return delivery.ReasonNoPushSub
	}
	return delivery.ReasonNoDeviceToken
}

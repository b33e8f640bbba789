package pipeline

import (
	"context"
	"slices"

	herald "github.com/heraldhq/herald"
	"github.com/heraldhq/herald/db"
	"github.com/heraldhq/herald/db/dbsqlc"
	"github.com/heraldhq/herald/internal/audience/categories"
	"github.com/heraldhq/herald/internal/delivery"
	"github.com/heraldhq/herald/internal/delivery/templates"
	"github.com/heraldhq/herald/workflows/flowrun"
)

// stepSkip returns why the recipient does not get the step ("" when it does), with the
// send's rules: a topic subscriber gets only its subscription's channels, the channel needs
// a provider instance (in-app excepted) and template content, the user must not have opted
// out of the channel (everywhere, for the workflow, or for the category) unless the workflow or its category
// is critical, and the address must be there. note is what a delivered step's log row says
// when a critical step ignored an opt-out.
func (a *Service) stepSkip(ctx context.Context, in flowrun.DeliverStepInput, cat StepCat, b *templates.Bundle, user dbsqlc.DeliveryUsersRow) (skip, note string, err error) {
	channel := in.Step.Type
	if len(in.Recipient.Channels) > 0 && !slices.Contains(in.Recipient.Channels, channel) {
		return delivery.ReasonTopicChannels, "", nil
	}
	configured, err := a.Channels.ConfiguredChannels(ctx, in.AppID)
	if err != nil {
		return "", "", err
	}
	sc := delivery.ForSend([]string{channel}, true, b.Channels(), configured)
	sendCtx := &sendContext{appID: in.AppID, categoryID: cat.ID, channels: sc}
	prefs, err := a.callPreferences(ctx, nil, sendCtx, []int64{user.ID})
	if err != nil {
		return "", "", err
	}
	off, err := a.channelsOff(ctx, in.AppID, []int64{user.ID})
	if err != nil {
		return "", "", err
	}
	critical, err := a.FlowCritical(ctx, in.AppID, in.Flow.Identifier)
	if err != nil {
		return "", "", err
	}
	flowRows, err := a.DB.DeliveryFlowPreferences(ctx, dbsqlc.DeliveryFlowPreferencesParams{AppID: in.AppID, UserID: user.ID, Identifier: in.Flow.Identifier})
	if err != nil {
		return "", "", db.MapError(err)
	}
	flowPrefs := make(map[string]bool, len(flowRows))
	for _, fp := range flowRows {
		flowPrefs[fp.Channel] = fp.Enabled
	}
	var reach delivery.Reach
	if channel == herald.ChannelWebPush || channel == herald.ChannelMobilePush {
		has, err := a.usersWith(ctx, sendCtx, channel, []int64{user.ID})
		if err != nil {
			return "", "", err
		}
		reach = delivery.Reach{WebPush: has[user.ID], PushToken: has[user.ID]}
	}
	profile, _ := DecodeProfile(user.Profile)
	r := delivery.Recipient{
		Preferences:     prefs[user.ID],
		Defaults:        cat.Defaults,
		Category:        in.Category,
		ChannelsOff:     off[user.ID],
		Flow:            in.Flow.Identifier,
		FlowPreferences: flowPrefs,
		Missing:         func(ch string) string { return delivery.MissingAddress(ch, profile, reach) },
	}
	if critical {
		r.Critical = "workflow " + in.Flow.Identifier
	} else if cat.Critical {
		r.Critical = "category " + in.Category
	}
	_, skips := delivery.ForRecipient(sc, r)
	if len(skips) > 0 {
		return skips[0].Reason, "", nil
	}
	return "", delivery.Bypass(r, channel), nil
}

// StepCat is a run's category: its id (nil: none, or no longer there), critical mark and
// channel defaults.
type StepCat struct {
	ID       *int64
	Critical bool
	Defaults map[string]bool
}

// StepCategory finds a run's category.
func (a *Service) StepCategory(ctx context.Context, appID int64, identifier string) (StepCat, error) {
	if identifier == "" {
		return StepCat{}, nil
	}
	c, err := a.DB.DeliveryCategory(ctx, dbsqlc.DeliveryCategoryParams{AppID: appID, Identifier: identifier})
	if err != nil {
		if err = db.MapError(err); herald.ErrorCode(err) == herald.ENOTFOUND {
			return StepCat{}, nil
		}
		return StepCat{}, err
	}
	return StepCat{ID: &c.ID, Critical: c.Critical, Defaults: categories.DecodeDefaults(c.ChannelDefaults)}, nil
}

// FlowCritical tells whether a workflow is marked critical now (a deleted one is not).
func (a *Service) FlowCritical(ctx context.Context, appID int64, identifier string) (bool, error) {
	critical, err := a.DB.DeliveryFlowCritical(ctx, dbsqlc.DeliveryFlowCriticalParams{AppID: appID, Identifier: identifier})
	if err != nil {
		if err = db.MapError(err); herald.ErrorCode(err) == herald.ENOTFOUND {
			return false, nil
		}
		return false, err
	}
	return critical, nil
}

// Package prefpage is the hosted preference page's service: what the page opened with a
// preference token (unsubscribe.KindPreferences) shows, and saving the form, through the
// rules of package prefs (docs/preferences.md, "The hosted preference page").
package prefpage

import (
	"context"
	"slices"
	"strconv"
	"time"

	herald "github.com/heraldhq/herald"
	"github.com/heraldhq/herald/db"
	"github.com/heraldhq/herald/db/dbsqlc"
	"github.com/heraldhq/herald/internal/audience/prefs"
	"github.com/heraldhq/herald/internal/audience/unsubscribe"
)

// ErrInvalid is the message of every refused link, whatever the reason.
const ErrInvalid = "invalid or expired preference link"

// Service opens and saves the page.
type Service struct {
	DB *db.DB
	// Signer verifies preference tokens (unsubscribe.NewPreferencesSigner).
	Signer *unsubscribe.Signer
	Prefs  *prefs.Service
	// Now is the clock (nil: time.Now).
	Now func() time.Time
}

// Page is what the page shows: the app's name and every switch of the user.
type Page struct {
	AppName string
	User    string
	// Columns are the channels of the category matrix, in the order of herald.Channels.
	Columns    []string
	Categories []Category
	Channels   []Switch
	Flows      []Flow
	app        int64
}

// Flow is one workflow: its whole-workflow switch and its workflow × channel switches
// (the matrix's channels, and any other the user set for it). A critical one is locked.
type Flow struct {
	Switch
	Channels []Switch
}

// Category is one category's row of switches. A critical one is locked.
type Category struct {
	ID           int64
	Name         string
	Critical     bool
	LockedReason string
	Switches     []Switch
}

// Switch is one checkbox: its form field, what it is, and whether it is on.
type Switch struct {
	Field, Label, Channel string
	On, Locked            bool
	LockedReason          string
	category              int64
	flow                  string
}

// Form fields: a category × channel switch (category.<id>.<channel>), a channel as a whole
// (channel.<channel>), a workflow as a whole (workflow.<identifier>) and a workflow ×
// channel switch (workflow.<identifier>.<channel>).
const (
	fieldCategory = "category."
	fieldChannel  = "channel."
	fieldFlow     = "workflow."
)

func (s *Service) now() time.Time {
	if s.Now != nil {
		return s.Now()
	}
	return time.Now()
}

func invalid() error { return herald.Errorf(herald.ENOTFOUND, "%s", ErrInvalid) }

// Open returns the page of a preference token; a token that is not one (an unsubscribe
// token included), expired, or whose user is gone is a not-found error.
func (s *Service) Open(ctx context.Context, token string) (Page, error) {
	c, err := s.Signer.Verify(token, s.now())
	if err != nil || c.Kind != unsubscribe.KindPreferences {
		return Page{}, invalid()
	}
	row, err := s.DB.PreferencePageUser(ctx, dbsqlc.PreferencePageUserParams{AppID: c.App, UserID: c.User})
	if err = db.MapError(err); herald.ErrorCode(err) == herald.ENOTFOUND {
		return Page{}, invalid()
	} else if err != nil {
		return Page{}, err
	}
	return s.load(ctx, c.App, row.AppName, row.UserIdentifier)
}

func (s *Service) load(ctx context.Context, app int64, appName, user string) (Page, error) {
	p := Page{AppName: appName, User: user, app: app}
	cats, err := s.Prefs.Get(ctx, app, user)
	if err != nil {
		return Page{}, err
	}
	// The matrix shows every channel some category shows, and email (the page is reached
	// from an email): a category without a channel of the matrix shows its app default.
	cols := map[string]bool{herald.ChannelEmail: true}
	for _, c := range cats {
		for _, cp := range c.ChannelPreferences {
			cols[cp.Channel] = true
		}
	}
	for _, ch := range herald.Channels {
		if cols[ch] {
			p.Columns = append(p.Columns, ch)
		}
	}
	for _, c := range cats {
		name := c.Category.Name
		if name == "" {
			name = c.Category.Identifier
		}
		row := Category{ID: c.Category.ID, Name: name, Critical: c.Critical, LockedReason: c.LockedReason}
		for _, ch := range p.Columns {
			on := prefs.DefaultEnabled(c.Category, ch)
			if i := slices.IndexFunc(c.ChannelPreferences, func(cp prefs.ChannelPreference) bool { return cp.Channel == ch }); i >= 0 {
				on = c.ChannelPreferences[i].Enabled
			}
			row.Switches = append(row.Switches, Switch{
				Field: fieldCategory + strconv.FormatInt(c.Category.ID, 10) + "." + ch, Label: name + ": " + ChannelName(ch), Channel: ch,
				On: on || c.Critical, Locked: c.Critical, LockedReason: c.LockedReason, category: c.Category.ID,
			})
		}
		p.Categories = append(p.Categories, row)
	}
	chans, err := s.Prefs.Channels(ctx, app, user)
	if err != nil {
		return Page{}, err
	}
	for _, ch := range herald.Channels {
		p.Channels = append(p.Channels, Switch{Field: fieldChannel + ch, Label: ChannelName(ch), Channel: ch, On: chans[ch]})
	}
	flows, err := s.Prefs.Flows(ctx, app, user)
	if err != nil {
		return Page{}, err
	}
	for _, f := range flows {
		p.Flows = append(p.Flows, flowSwitches(f, p.Columns))
	}
	return p, nil
}

// flowSwitches are a workflow's switches: the whole workflow, then one per channel of cols
// and per other channel the user set for it. A channel switch the user never set shows the
// whole workflow's (it follows it); critical ones are on and locked.
func flowSwitches(f prefs.FlowPreference, cols []string) Flow {
	name := f.Workflow.Name
	if name == "" {
		name = f.Workflow.Identifier
	}
	id := f.Workflow.Identifier
	out := Flow{Switch: Switch{Field: fieldFlow + id, Label: name, On: f.Enabled || f.Critical,
		Locked: f.Critical, LockedReason: f.LockedReason, flow: id}}
	for _, ch := range herald.Channels {
		on, set := f.Channels[ch]
		if !set && !slices.Contains(cols, ch) {
			continue
		}
		if !set {
			on = f.Enabled
		}
		out.Channels = append(out.Channels, Switch{Field: fieldFlow + id + "." + ch, Label: name + ": " + ChannelName(ch), Channel: ch,
			On: on || f.Critical, Locked: f.Critical, LockedReason: f.LockedReason, flow: id})
	}
	return out
}

// ChannelName is a channel as the page names it.
func ChannelName(ch string) string {
	switch ch {
	case herald.ChannelInApp:
		return "In-app"
	case herald.ChannelEmail:
		return "Email"
	case herald.ChannelSMS:
		return "SMS"
	case herald.ChannelWhatsApp:
		return "WhatsApp"
	case herald.ChannelWebPush:
		return "Browser push"
	case herald.ChannelMobilePush:
		return "Mobile push"
	case herald.ChannelSlack:
		return "Slack"
	case herald.ChannelDiscord:
		return "Discord"
	case herald.ChannelMSTeams:
		return "Microsoft Teams"
	case herald.ChannelWebhook:
		return "Webhook"
	}
	return ch
}

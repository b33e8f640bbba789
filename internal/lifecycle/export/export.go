// Package export gathers everything Herald holds about one user of an app into one JSON
// document (a data-subject access request): profile, preferences, devices, topic
// subscriptions, inbox, message log and workflow runs with their step logs.
package export

import (
	"context"
	"encoding/json"
	"time"

	"github.com/google/uuid"

	herald "github.com/heraldhq/herald"
	"github.com/heraldhq/herald/db"
	"github.com/heraldhq/herald/db/dbsqlc"
	"github.com/heraldhq/herald/internal/console/audit"
	"github.com/heraldhq/herald/internal/lifecycle/erasure"
)

// MaxRows caps the rows of one kind in an export; a kind with more is cut at the oldest
// MaxRows and listed in Truncated (retention keeps real inboxes far below it).
const MaxRows = 100_000

// Export is everything Herald holds about a user.
type Export struct {
	ExportedAt  time.Time         `json:"exportedAt"`
	AppID       int64             `json:"appId"`
	User        User              `json:"user"`
	Preferences Preferences       `json:"preferences"`
	Devices     []Device          `json:"devices"`
	WebPush     []WebPush         `json:"webPushSubscriptions"`
	Topics      []Topic           `json:"topicSubscriptions"`
	Inbox       []Notification    `json:"notifications"`
	Messages    []Message         `json:"messageLogs"`
	Runs        []FlowRun         `json:"workflowRuns"`
	RunLogs     []FlowLog         `json:"workflowLogs"`
	Truncated   []string          `json:"truncated"`
	Notes       map[string]string `json:"notes"`
}

// User is the profile.
type User struct {
	Identifier string          `json:"identifier"`
	Profile    json.RawMessage `json:"profile"`
	CreatedAt  time.Time       `json:"createdAt"`
	UpdatedAt  time.Time       `json:"updatedAt"`
}

// Preferences are the user's switches.
type Preferences struct {
	Categories []CategoryPreference `json:"categories"`
	Channels   []ChannelPreference  `json:"channels"`
	Workflows  []FlowPreference     `json:"workflows"`
}

// CategoryPreference is a switch of a category (nil category: the app-wide default row)
// and channel.
type CategoryPreference struct {
	Category  *string   `json:"category"`
	Channel   string    `json:"channel"`
	Enabled   bool      `json:"enabled"`
	UpdatedAt time.Time `json:"updatedAt"`
}

// ChannelPreference is a switch of a whole channel.
type ChannelPreference struct {
	Channel   string    `json:"channel"`
	Enabled   bool      `json:"enabled"`
	UpdatedAt time.Time `json:"updatedAt"`
}

// FlowPreference is a switch of a workflow (channel "" : the whole workflow).
type FlowPreference struct {
	Workflow  string    `json:"workflow"`
	Channel   string    `json:"channel"`
	Enabled   bool      `json:"enabled"`
	UpdatedAt time.Time `json:"updatedAt"`
}

// Device is a device the user connected.
type Device struct {
	DeviceID   string    `json:"deviceId"`
	DeviceType string    `json:"deviceType"`
	PushToken  *string   `json:"pushToken"`
	CreatedAt  time.Time `json:"createdAt"`
	LastSeenAt time.Time `json:"lastSeenAt"`
}

// WebPush is a browser push subscription (its encryption keys are left out: they are
// credentials of the browser, not facts about the user).
type WebPush struct {
	DeviceID       string     `json:"deviceId"`
	Endpoint       string     `json:"endpoint"`
	ExpirationTime *time.Time `json:"expirationTime"`
	CreatedAt      time.Time  `json:"createdAt"`
	UpdatedAt      time.Time  `json:"updatedAt"`
}

// Topic is a topic subscription.
type Topic struct {
	Topic     string    `json:"topic"`
	Channels  []string  `json:"channels"`
	CreatedAt time.Time `json:"createdAt"`
	UpdatedAt time.Time `json:"updatedAt"`
}

// Notification is an inbox item, deleted ones included.
type Notification struct {
	ID        int64           `json:"id"`
	RequestID uuid.UUID       `json:"requestId"`
	Title     string          `json:"title"`
	Message   string          `json:"message"`
	Icon      string          `json:"icon"`
	URL       string          `json:"url"`
	Data      json.RawMessage `json:"data"`
	Blocks    json.RawMessage `json:"blocks"`
	Category  *string         `json:"category"`
	State     *string         `json:"state"`
	SeenAt    *time.Time      `json:"seenAt"`
	ReadAt    *time.Time      `json:"readAt"`
	ClickedAt *time.Time      `json:"clickedAt"`
	DeletedAt *time.Time      `json:"deletedAt"`
	CreatedAt time.Time       `json:"createdAt"`
}

// Message is a message log row: one message to the user on one channel.
type Message struct {
	ID                int64      `json:"id"`
	RequestID         uuid.UUID  `json:"requestId"`
	Channel           string     `json:"channel"`
	Step              string     `json:"step"`
	Status            string     `json:"status"`
	Reason            *string    `json:"reason"`
	Error             *string    `json:"error"`
	Template          *string    `json:"template"`
	Provider          *string    `json:"provider"`
	ProviderMessageID *string    `json:"providerMessageId"`
	Attempts          int32      `json:"attempts"`
	CreatedAt         time.Time  `json:"createdAt"`
	UpdatedAt         time.Time  `json:"updatedAt"`
	SentAt            *time.Time `json:"sentAt"`
	DeliveredAt       *time.Time `json:"deliveredAt"`
	FailedAt          *time.Time `json:"failedAt"`
	BouncedAt         *time.Time `json:"bouncedAt"`
	OpenedAt          *time.Time `json:"openedAt"`
	ClickedAt         *time.Time `json:"clickedAt"`
	// Content is what a workflow step rendered and sent (null for other messages).
	Content json.RawMessage `json:"content"`
}

// FlowRun is a run of a workflow for the user.
type FlowRun struct {
	RequestID       uuid.UUID  `json:"requestId"`
	Workflow        string     `json:"workflow"`
	CancellationKey *string    `json:"cancellationKey"`
	WorkflowID      string     `json:"workflowId"`
	Status          string     `json:"status"`
	CreatedAt       time.Time  `json:"createdAt"`
	FinishedAt      *time.Time `json:"finishedAt"`
}

// FlowLog is one step of a workflow run for the user.
type FlowLog struct {
	RequestID  string    `json:"requestId"`
	Workflow   string    `json:"workflow"`
	Version    int32     `json:"version"`
	Step       string    `json:"step"`
	StepType   string    `json:"stepType"`
	Outcome    string    `json:"outcome"`
	Detail     string    `json:"detail"`
	WorkflowID string    `json:"workflowId"`
	CreatedAt  time.Time `json:"createdAt"`
	// Input and Evaluation are what the step saw and how it decided (null when not recorded).
	Input      json.RawMessage `json:"input"`
	Evaluation json.RawMessage `json:"evaluation"`
}

// Service exports users.
type Service struct {
	db    *db.DB
	audit *audit.Log
	now   func() time.Time
}

// NewService returns a Service; each export is recorded in the audit log when log is set.
func NewService(d *db.DB, log *audit.Log) *Service { return &Service{db: d, audit: log, now: time.Now} }

// Reader is who asked for an export, for the audit entry.
type Reader struct {
	ConsoleUserID, ViaTokenID, ClientID int64
}

// Export returns everything about the app's user named by identifier; an unknown user is
// not found.
func (s *Service) Export(ctx context.Context, appID int64, identifier string, by Reader) (*Export, error) {
	u, err := s.db.GetUserByIdentifier(ctx, dbsqlc.GetUserByIdentifierParams{AppID: appID, Identifier: identifier})
	if err != nil {
		if err = db.MapError(err); herald.ErrorCode(err) == herald.ENOTFOUND {
			return nil, herald.NotFound("user")
		}
		return nil, err
	}
	out := &Export{
		ExportedAt: s.now().UTC(), AppID: appID,
		User:      User{Identifier: u.Identifier, Profile: u.Profile, CreatedAt: u.CreatedAt, UpdatedAt: u.UpdatedAt},
		Truncated: []string{},
		Notes: map[string]string{
			"devices":              "push tokens are shortened to their last 8 characters",
			"webPushSubscriptions": "the browser's encryption keys are left out",
			"requests":             "send requests that named the user among others are not included: their content belongs to the sender; the user's own entries appear as notifications and message logs",
		},
	}
	q := s.db.Queries
	cut := func(kind string, n int) {
		if n >= MaxRows {
			out.Truncated = append(out.Truncated, kind)
		}
	}
	if err := s.preferences(ctx, q, appID, u.ID, out); err != nil {
		return nil, err
	}
	devs, err := q.ExportUserDevices(ctx, dbsqlc.ExportUserDevicesParams{AppID: appID, UserID: u.ID})
	if err != nil {
		return nil, db.MapError(err)
	}
	out.Devices = make([]Device, len(devs))
	for i, d := range devs {
		out.Devices[i] = Device{DeviceID: d.DeviceID, DeviceType: d.DeviceType, PushToken: shorten(d.PushToken), CreatedAt: d.CreatedAt, LastSeenAt: d.LastSeenAt}
	}
	subs, err := q.ExportUserWebPushSubscriptions(ctx, dbsqlc.ExportUserWebPushSubscriptionsParams{AppID: appID, UserID: u.ID})
	if err != nil {
		return nil, db.MapError(err)
	}
	out.WebPush = make([]WebPush, len(subs))
	for i, w := range subs {
		out.WebPush[i] = WebPush{DeviceID: w.DeviceID, Endpoint: w.Endpoint, ExpirationTime: w.ExpirationTime, CreatedAt: w.CreatedAt, UpdatedAt: w.UpdatedAt}
	}
	topics, err := q.ExportUserTopicSubscriptions(ctx, dbsqlc.ExportUserTopicSubscriptionsParams{AppID: appID, UserID: u.ID})
	if err != nil {
		return nil, db.MapError(err)
	}
	out.Topics = make([]Topic, len(topics))
	for i, t := range topics {
		out.Topics[i] = Topic{Topic: t.Topic, Channels: t.Channels, CreatedAt: t.CreatedAt, UpdatedAt: t.UpdatedAt}
	}
	items, err := q.ExportUserNotifications(ctx, dbsqlc.ExportUserNotificationsParams{AppID: appID, UserID: u.ID, MaxRows: MaxRows})
	if err != nil {
		return nil, db.MapError(err)
	}
	cut("notifications", len(items))
	out.Inbox = make([]Notification, len(items))
	for i, n := range items {
		out.Inbox[i] = Notification{ID: n.ID, RequestID: n.RequestID, Title: n.Title, Message: n.Message, Icon: n.Icon, URL: n.Url,
			Data: n.Data, Blocks: n.Blocks, Category: n.Category, State: n.State, SeenAt: n.SeenAt, ReadAt: n.ReadAt,
			ClickedAt: n.ClickedAt, DeletedAt: n.DeletedAt, CreatedAt: n.CreatedAt}
	}
	logs, err := q.ExportUserMessageLogs(ctx, dbsqlc.ExportUserMessageLogsParams{AppID: appID, UserID: u.ID, MaxRows: MaxRows})
	if err != nil {
		return nil, db.MapError(err)
	}
	cut("messageLogs", len(logs))
	out.Messages = make([]Message, len(logs))
	for i, m := range logs {
		out.Messages[i] = Message{ID: m.ID, RequestID: m.RequestID, Channel: m.Channel, Step: m.StepKey, Status: m.Status,
			Reason: m.Reason, Error: m.Error, Template: m.TemplateIdentifier, Provider: m.Provider, ProviderMessageID: m.ProviderMessageID,
			Attempts: m.Attempts, CreatedAt: m.CreatedAt, UpdatedAt: m.UpdatedAt, SentAt: m.SentAt, DeliveredAt: m.DeliveredAt,
			FailedAt: m.FailedAt, BouncedAt: m.BouncedAt, OpenedAt: m.OpenedAt, ClickedAt: m.ClickedAt, Content: nilIfEmpty(m.Content)}
	}
	runs, err := q.ExportUserFlowRuns(ctx, dbsqlc.ExportUserFlowRunsParams{AppID: appID, Identifier: identifier, MaxRows: MaxRows})
	if err != nil {
		return nil, db.MapError(err)
	}
	cut("workflowRuns", len(runs))
	out.Runs = make([]FlowRun, len(runs))
	for i, r := range runs {
		out.Runs[i] = FlowRun{RequestID: r.RequestID, Workflow: r.FlowIdentifier, CancellationKey: r.CancellationKey,
			WorkflowID: r.WorkflowID, Status: r.Status, CreatedAt: r.CreatedAt, FinishedAt: r.FinishedAt}
	}
	steps, err := q.ExportUserFlowLogs(ctx, dbsqlc.ExportUserFlowLogsParams{AppID: appID, Identifier: identifier, MaxRows: MaxRows})
	if err != nil {
		return nil, db.MapError(err)
	}
	cut("workflowLogs", len(steps))
	out.RunLogs = make([]FlowLog, len(steps))
	for i, l := range steps {
		out.RunLogs[i] = FlowLog{RequestID: l.RequestID, Workflow: l.FlowIdentifier, Version: l.FlowVersion, Step: l.StepID,
			StepType: l.StepType, Outcome: l.Outcome, Detail: l.Detail, WorkflowID: l.WorkflowID, CreatedAt: l.CreatedAt,
			Input: nilIfEmpty(l.Input), Evaluation: nilIfEmpty(l.Evaluation)}
	}
	if s.audit != nil && by.ClientID != 0 {
		err := s.audit.Client(ctx, nil, by.ClientID, audit.Event{
			Action: audit.AppUserExported, ActorID: by.ConsoleUserID, ViaTokenID: by.ViaTokenID,
			TargetType: audit.TargetAppUser, TargetID: erasure.UserDigest(appID, identifier), Details: map[string]any{"appId": appID},
		})
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}

func (s *Service) preferences(ctx context.Context, q *dbsqlc.Queries, appID, userID int64, out *Export) error {
	cats, err := q.ExportUserCategoryPreferences(ctx, dbsqlc.ExportUserCategoryPreferencesParams{AppID: appID, UserID: userID})
	if err != nil {
		return db.MapError(err)
	}
	out.Preferences.Categories = make([]CategoryPreference, len(cats))
	for i, p := range cats {
		out.Preferences.Categories[i] = CategoryPreference{Category: p.Category, Channel: p.Channel, Enabled: p.Enabled, UpdatedAt: p.UpdatedAt}
	}
	chans, err := q.ExportUserChannelPreferences(ctx, dbsqlc.ExportUserChannelPreferencesParams{AppID: appID, UserID: userID})
	if err != nil {
		return db.MapError(err)
	}
	out.Preferences.Channels = make([]ChannelPreference, len(chans))
	for i, p := range chans {
		out.Preferences.Channels[i] = ChannelPreference{Channel: p.Channel, Enabled: p.Enabled, UpdatedAt: p.UpdatedAt}
	}
	flows, err := q.ExportUserFlowPreferences(ctx, dbsqlc.ExportUserFlowPreferencesParams{AppID: appID, UserID: userID})
	if err != nil {
		return db.MapError(err)
	}
	out.Preferences.Workflows = make([]FlowPreference, len(flows))
	for i, p := range flows {
		out.Preferences.Workflows[i] = FlowPreference{Workflow: p.Workflow, Channel: p.Channel, Enabled: p.Enabled, UpdatedAt: p.UpdatedAt}
	}
	return nil
}

// shorten keeps the last 8 characters of a push token.
func shorten(token *string) *string {
	if token == nil {
		return nil
	}
	t := *token
	if len(t) > 8 {
		t = "…" + t[len(t)-8:]
	}
	return &t
}

// nilIfEmpty is a nullable JSON column as exported: null when empty.
func nilIfEmpty(raw json.RawMessage) json.RawMessage {
	if len(raw) == 0 {
		return nil
	}
	return raw
}

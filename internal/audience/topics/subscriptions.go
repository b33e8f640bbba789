package topics

import (
	"context"
	"encoding/json"
	"slices"
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5"

	herald "github.com/heraldhq/herald"
	"github.com/heraldhq/herald/db"
	"github.com/heraldhq/herald/db/dbsqlc"
	"github.com/heraldhq/herald/internal/audience/users"
	js "github.com/heraldhq/herald/internal/platform/jsonshape"
	"github.com/heraldhq/herald/internal/platform/jsontime"
)

// MaxUsersPerCall caps the users of one attach or detach.
const MaxUsersPerCall = 1000

// Subscription is a user's subscription to a topic; empty channels means every channel.
type Subscription struct {
	Topic     Topic         `json:"topic"`
	User      string        `json:"user"`
	Channels  []string      `json:"channels"`
	CreatedAt jsontime.Time `json:"createdAt"`
	UpdatedAt jsontime.Time `json:"updatedAt"`
}

// Count is the answer of attach and detach: how many subscriptions were written or removed.
type Count struct {
	Count int64 `json:"count"`
}

// Subscribe subscribes users to a topic from the body {users: [{identifier, channels}]},
// creating users that do not exist yet. Subscribing a subscribed user again sets its
// channels.
func (s *Service) Subscribe(ctx context.Context, appID, topicID int64, body []byte) (Count, error) {
	var p herald.Problems
	items := usersField(body, &p)
	identifiers := make([]string, 0, len(items))
	channels := make([]json.RawMessage, 0, len(items))
	for i, raw := range items {
		field := "users[" + strconv.Itoa(i) + "]"
		f := js.Fields(raw)
		if f == nil {
			p.Addf("%s must be an object", field)
			continue
		}
		identifier, ok := js.String(f["identifier"])
		if !ok {
			p.Addf("%s.identifier must be a string", field)
		} else {
			users.CheckIdentifier(field+".identifier", identifier, &p)
		}
		chans := parseChannels(field+".channels", f["channels"], false, &p)
		enc, _ := json.Marshal(chans)
		identifiers = append(identifiers, identifier)
		channels = append(channels, enc)
	}
	if err := p.Err(); err != nil {
		return Count{}, err
	}
	var n int64
	err := s.db.InTx(ctx, func(q *dbsqlc.Queries, _ pgx.Tx) error {
		if _, err := q.GetAppTopic(ctx, dbsqlc.GetAppTopicParams{AppID: appID, ID: topicID}); err != nil {
			return topicNotFound(err)
		}
		ids, err := users.Ensure(ctx, q, appID, identifiers)
		if err != nil {
			return err
		}
		ids, channels = lastPerUser(ids, channels)
		n, err = q.SubscribeTopicUsers(ctx, dbsqlc.SubscribeTopicUsersParams{AppID: appID, TopicID: topicID, UserIds: ids, Channels: channels})
		return db.MapError(err)
	})
	return Count{Count: n}, err
}

// Unsubscribe removes users' subscriptions to a topic from the body {users: [identifier]};
// users who are not subscribed are skipped.
func (s *Service) Unsubscribe(ctx context.Context, appID, topicID int64, body []byte) (Count, error) {
	var p herald.Problems
	items := usersField(body, &p)
	identifiers := make([]string, 0, len(items))
	for i, raw := range items {
		identifier, ok := js.String(raw)
		if !ok {
			p.Addf("users[%d] must be a string", i)
			continue
		}
		identifiers = append(identifiers, identifier)
	}
	if err := p.Err(); err != nil {
		return Count{}, err
	}
	if _, err := s.db.GetAppTopic(ctx, dbsqlc.GetAppTopicParams{AppID: appID, ID: topicID}); err != nil {
		return Count{}, topicNotFound(err)
	}
	n, err := s.db.UnsubscribeTopicUsers(ctx, dbsqlc.UnsubscribeTopicUsersParams{AppID: appID, TopicID: topicID, Identifiers: identifiers})
	return Count{Count: n}, db.MapError(err)
}

// UpdateSubscription sets the channels of a user's subscription from the body {channels}.
func (s *Service) UpdateSubscription(ctx context.Context, appID, topicID int64, identifier string, body []byte) (Subscription, error) {
	f := js.Fields(body)
	if f == nil {
		return Subscription{}, herald.Invalid("body must be a JSON object")
	}
	var p herald.Problems
	chans := parseChannels("channels", f["channels"], true, &p)
	if err := p.Err(); err != nil {
		return Subscription{}, err
	}
	topic, err := s.db.GetAppTopic(ctx, dbsqlc.GetAppTopicParams{AppID: appID, ID: topicID})
	if err != nil {
		return Subscription{}, topicNotFound(err)
	}
	row, err := s.db.UpdateTopicSubscription(ctx, dbsqlc.UpdateTopicSubscriptionParams{AppID: appID, TopicID: topicID, Identifier: identifier, Channels: chans})
	if err != nil {
		if err = db.MapError(err); herald.ErrorCode(err) == herald.ENOTFOUND {
			return Subscription{}, herald.Errorf(herald.ENOTFOUND, "user %q is not subscribed to topic %d", identifier, topicID)
		}
		return Subscription{}, err
	}
	return Subscription{Topic: fromRow(topic), User: identifier, Channels: row.Channels,
		CreatedAt: jsontime.Time(row.CreatedAt), UpdatedAt: jsontime.Time(row.UpdatedAt)}, nil
}

// Subscriptions lists a user's subscriptions; an unknown user is not found.
func (s *Service) Subscriptions(ctx context.Context, appID int64, identifier string) ([]Subscription, error) {
	uid, err := users.ID(ctx, s.db.Queries, appID, identifier)
	if err != nil {
		return nil, err
	}
	rows, err := s.db.ListUserTopicSubscriptions(ctx, dbsqlc.ListUserTopicSubscriptionsParams{AppID: appID, UserID: uid})
	if err != nil {
		return nil, db.MapError(err)
	}
	out := make([]Subscription, len(rows))
	for i, r := range rows {
		out[i] = Subscription{Topic: fromRow(r.Topic), User: identifier, Channels: r.Channels,
			CreatedAt: jsontime.Time(r.SubscribedAt), UpdatedAt: jsontime.Time(r.SubscriptionUpdatedAt)}
	}
	return out, nil
}

// usersField reads the users array of an attach or detach body.
func usersField(body []byte, p *herald.Problems) []json.RawMessage {
	f := js.Fields(body)
	if f == nil {
		p.Addf("body must be a JSON object")
		return nil
	}
	items, ok := js.Elements(f["users"])
	switch {
	case !ok:
		p.Addf("users must be an array")
	case len(items) == 0:
		p.Addf("users should not be empty")
	case len(items) > MaxUsersPerCall:
		p.Addf("users must contain no more than %d elements", MaxUsersPerCall)
	default:
		return items
	}
	return nil
}

// parseChannels reads a list of channel identifiers, without duplicates; absent (when not
// required) or empty means every channel.
func parseChannels(field string, raw json.RawMessage, required bool, p *herald.Problems) []string {
	if !js.Present(raw) && !required {
		return []string{}
	}
	chans, ok := js.Strings(raw)
	if !ok {
		p.Addf("%s must be an array of strings", field)
		return nil
	}
	out := []string{}
	for _, ch := range chans {
		if !herald.IsChannel(ch) {
			p.Addf("each value in %s must be one of the following values: %s", field, strings.Join(herald.Channels, ", "))
			return nil
		}
		if !slices.Contains(out, ch) {
			out = append(out, ch)
		}
	}
	return out
}

// lastPerUser keeps one entry per user id, the last given, so one statement never writes
// a subscription twice.
func lastPerUser(ids []int64, channels []json.RawMessage) ([]int64, []json.RawMessage) {
	last := make(map[int64]int, len(ids))
	for i, id := range ids {
		last[id] = i
	}
	outIDs, outCh := ids[:0:0], channels[:0:0]
	for i, id := range ids {
		if last[id] == i {
			outIDs, outCh = append(outIDs, id), append(outCh, channels[i])
		}
	}
	return outIDs, outCh
}

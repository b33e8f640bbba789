package topics

import (
	"context"

	herald "github.com/heraldhq/herald"
	"github.com/heraldhq/herald/db"
	"github.com/heraldhq/herald/db/dbsqlc"
	"github.com/heraldhq/herald/internal/platform/jsontime"
)

// Owner returns the app and client owning a topic, for the management API's role check; a
// topic of an app without a client is not found there.
func (s *Service) Owner(ctx context.Context, id int64) (appID, clientID int64, err error) {
	r, err := s.db.GetTopicClient(ctx, id)
	if err != nil || r.ClientID == nil {
		return 0, 0, herald.NotFound("topic")
	}
	return r.AppID, *r.ClientID, nil
}

// Subscriber is one subscription of a topic as the management API lists it.
type Subscriber struct {
	// ID is the subscription's id (DELETE /v1/topics/{id}/subscriptions/{subscriptionId}).
	ID int64 `json:"id"`
	// UserID is the user's id (DELETE /v1/topics/{id}/users/{userId}).
	UserID     int64         `json:"userId"`
	Identifier string        `json:"identifier"`
	Channels   []string      `json:"channels"`
	CreatedAt  jsontime.Time `json:"createdAt"`
	UpdatedAt  jsontime.Time `json:"updatedAt"`
}

// SubscriberPage is a page of a topic's subscribers.
type SubscriberPage struct {
	Pagination Pagination   `json:"pagination"`
	Data       []Subscriber `json:"data"`
}

// Pagination describes a page.
type Pagination struct {
	TotalCount int64 `json:"totalCount"`
	PageNo     int   `json:"pageNo"`
	Limit      int   `json:"limit"`
}

// Subscribers returns a page of a topic's subscriptions in subscription order.
func (s *Service) Subscribers(ctx context.Context, appID, topicID int64, pageNo, limit int) (SubscriberPage, error) {
	if _, err := s.db.GetAppTopic(ctx, dbsqlc.GetAppTopicParams{AppID: appID, ID: topicID}); err != nil {
		return SubscriberPage{}, topicNotFound(err)
	}
	rows, err := s.db.ListTopicSubscribers(ctx, dbsqlc.ListTopicSubscribersParams{
		AppID: appID, TopicID: topicID, MaxRows: int32(limit), SkipRows: int32((pageNo - 1) * limit),
	})
	if err != nil {
		return SubscriberPage{}, db.MapError(err)
	}
	total, err := s.db.CountTopicSubscribers(ctx, dbsqlc.CountTopicSubscribersParams{AppID: appID, TopicID: topicID})
	if err != nil {
		return SubscriberPage{}, db.MapError(err)
	}
	out := SubscriberPage{Pagination: Pagination{TotalCount: total, PageNo: pageNo, Limit: limit}, Data: make([]Subscriber, len(rows))}
	for i, r := range rows {
		out.Data[i] = Subscriber{ID: r.ID, UserID: r.UserID, Identifier: r.Identifier, Channels: r.Channels,
			CreatedAt: jsontime.Time(r.CreatedAt), UpdatedAt: jsontime.Time(r.UpdatedAt)}
	}
	return out, nil
}

// DetachUser removes a user (by id) from a topic.
func (s *Service) DetachUser(ctx context.Context, appID, topicID, userID int64) error {
	n, err := s.db.DeleteTopicSubscriptionByUser(ctx, dbsqlc.DeleteTopicSubscriptionByUserParams{AppID: appID, TopicID: topicID, UserID: userID})
	if err != nil {
		return db.MapError(err)
	}
	if n == 0 {
		return herald.Errorf(herald.ENOTFOUND, "user %d is not subscribed to topic %d", userID, topicID)
	}
	return nil
}

// DeleteSubscription removes a subscription of a topic by its id.
func (s *Service) DeleteSubscription(ctx context.Context, appID, topicID, id int64) error {
	n, err := s.db.DeleteTopicSubscriptionByID(ctx, dbsqlc.DeleteTopicSubscriptionByIDParams{AppID: appID, TopicID: topicID, ID: id})
	if err != nil {
		return db.MapError(err)
	}
	if n == 0 {
		return herald.NotFound("subscription")
	}
	return nil
}

package herald

import (
	"context"
	"net/http"
	"strconv"
)

func topicPath(id int64) string { return "/topics/" + strconv.FormatInt(id, 10) }

// CreateTopic creates a topic (POST /v3/topics).
func (c *Client) CreateTopic(ctx context.Context, t TopicCreate) (*Topic, error) {
	var out Topic
	if err := c.do(ctx, request{method: http.MethodPost, path: "/topics", body: t, header: c.appHeaders()}, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// ListTopics lists the app's topics (GET /v3/topics).
func (c *Client) ListTopics(ctx context.Context) ([]Topic, error) {
	var out []Topic
	if err := c.do(ctx, request{method: http.MethodGet, path: "/topics", header: c.appHeaders()}, &out); err != nil {
		return nil, err
	}
	return out, nil
}

// RenameTopic renames a topic (PATCH /v3/topics/{id}).
func (c *Client) RenameTopic(ctx context.Context, id int64, name string) (*Topic, error) {
	var out Topic
	if err := c.do(ctx, request{method: http.MethodPatch, path: topicPath(id), body: TopicRename{Name: name}, header: c.appHeaders(), idempotent: true}, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// DeleteTopic deletes a topic (DELETE /v3/topics/{id}).
func (c *Client) DeleteTopic(ctx context.Context, id int64) error {
	return c.do(ctx, request{method: http.MethodDelete, path: topicPath(id), header: c.appHeaders()}, nil)
}

// SubscribeUsers subscribes users to a topic (POST /v3/topics/{id}/users) and returns the
// API's count.
func (c *Client) SubscribeUsers(ctx context.Context, id int64, users ...TopicAttachUsersItem) (int, error) {
	var out Count
	err := c.do(ctx, request{method: http.MethodPost, path: topicPath(id) + "/users", body: TopicAttach{Users: users}, header: c.appHeaders(), idempotent: true}, &out)
	return out.Count, err
}

// UnsubscribeUsers removes users from a topic (POST /v3/topics/{id}/detachUsers) and
// returns the API's count.
func (c *Client) UnsubscribeUsers(ctx context.Context, id int64, identifiers ...string) (int, error) {
	var out Count
	err := c.do(ctx, request{method: http.MethodPost, path: topicPath(id) + "/detachUsers", body: TopicDetach{Users: identifiers}, header: c.appHeaders(), idempotent: true}, &out)
	return out.Count, err
}

// UpdateSubscription sets the channels of a user's subscription to a topic
// (PUT /v3/topics/{id}/users/{identifier}); no channels means every channel.
func (c *Client) UpdateSubscription(ctx context.Context, id int64, identifier string, channels ...Channel) (*Subscription, error) {
	if channels == nil {
		channels = []Channel{}
	}
	var out Subscription
	err := c.do(ctx, request{method: http.MethodPut, path: topicPath(id) + "/users/" + pathEscape(identifier), body: SubscriptionUpdate{Channels: channels}, header: c.appHeaders()}, &out)
	if err != nil {
		return nil, err
	}
	return &out, nil
}

// ListSubscriptions lists a user's topic subscriptions (GET /v3/topics/subscriptions/{identifier}).
func (c *Client) ListSubscriptions(ctx context.Context, identifier string) ([]Subscription, error) {
	var out []Subscription
	if err := c.do(ctx, request{method: http.MethodGet, path: "/topics/subscriptions/" + pathEscape(identifier), header: c.appHeaders()}, &out); err != nil {
		return nil, err
	}
	return out, nil
}

package herald

import (
	"context"
	"encoding/json"
	"net/http"
	"strconv"
)

func marshalMap(m map[string]any) ([]byte, error) { return json.Marshal(m) }

// CreateUser creates a user (POST /v3/users).
func (c *Client) CreateUser(ctx context.Context, u UserCreate) (*User, error) {
	var out User
	if err := c.do(ctx, request{method: http.MethodPost, path: "/users", body: u, header: c.appHeaders()}, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// PutUser creates the user or updates its profile with these fields (PUT /v3/users/{identifier}).
func (c *Client) PutUser(ctx context.Context, identifier string, profile Profile) (*User, error) {
	if profile == nil {
		profile = Profile{}
	}
	var out User
	if err := c.do(ctx, request{method: http.MethodPut, path: "/users/" + pathEscape(identifier), body: profile, header: c.appHeaders()}, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// DeleteUser erases a user and everything Herald holds about it (DELETE
// /v3/users/{identifier}); EraseUser also returns what was erased.
func (c *Client) DeleteUser(ctx context.Context, identifier string) error {
	return c.do(ctx, request{method: http.MethodDelete, path: "/users/" + pathEscape(identifier), header: c.appHeaders()}, nil)
}

// EraseUser erases a user and everything Herald holds about it (DELETE
// /v3/users/{identifier}) and returns the counts of what was erased per kind. A 503 means
// nothing was deleted yet: the call is safe to repeat.
func (c *Client) EraseUser(ctx context.Context, identifier string) (*ErasureReport, error) {
	var out UserErased
	if err := c.do(ctx, request{method: http.MethodDelete, path: "/users/" + pathEscape(identifier), header: c.appHeaders()}, &out); err != nil {
		return nil, err
	}
	return &out.Erased, nil
}

// CreateCategory creates a category (POST /v3/categories); the secret travels in the
// …SECRET-KEY header, as the API asks.
func (c *Client) CreateCategory(ctx context.Context, cat CategoryCreate) (*Category, error) {
	h := c.appHeaders()
	h.Set(c.prefix+"SECRET-KEY", c.apiSecret)
	var out Category
	if err := c.do(ctx, request{method: http.MethodPost, path: "/categories", body: cat, header: h}, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// DeleteCategory deletes a category (DELETE /v3/categories/{id}).
func (c *Client) DeleteCategory(ctx context.Context, id int64) error {
	h := c.appHeaders()
	h.Set(c.prefix+"SECRET-KEY", c.apiSecret)
	return c.do(ctx, request{method: http.MethodDelete, path: "/categories/" + strconv.FormatInt(id, 10), header: h}, nil)
}

// Package api is the command-line client of Herald's management API (/v1): it sends a
// CLI token ("hcli_…") as a bearer token and turns error answers into errors that say
// what the server refused and why.
package api

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// Client calls one Herald server with one token.
type Client struct {
	// BaseURL is the server's address, such as https://herald.example.com (no /v1).
	BaseURL string
	Token   string
	HTTP    *http.Client
}

// New returns a client with a default HTTP client.
func New(baseURL, token string) *Client {
	return &Client{BaseURL: strings.TrimRight(baseURL, "/"), Token: token, HTTP: &http.Client{Timeout: 60 * time.Second}}
}

// Error is an error answer of the API.
type Error struct {
	Method, Path string
	Status       int
	// Messages are the problems the server listed (one for most errors, every violated
	// rule for a 400).
	Messages []string
}

// Error says what the server refused and, for 401 and 403, what to do about it.
func (e *Error) Error() string {
	msg := strings.Join(e.Messages, "; ")
	if msg == "" {
		msg = http.StatusText(e.Status)
	}
	hint := ""
	switch e.Status {
	case http.StatusUnauthorized:
		hint = " (the token is invalid or revoked: run herald login with a new CLI token)"
	case http.StatusForbidden:
		hint = " (ask an admin of the client for a higher role, or use another profile)"
	}
	return fmt.Sprintf("%s %s: %d %s%s", e.Method, e.Path, e.Status, msg, hint)
}

// StatusOf returns the HTTP status of an API error, 0 for other errors.
func StatusOf(err error) int {
	if e, ok := err.(*Error); ok {
		return e.Status
	}
	return 0
}

// Do sends a request with a JSON body (nil for none) and decodes a JSON answer into out
// (nil to ignore it).
func (c *Client) Do(ctx context.Context, method, path string, body, out any) error {
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return err
		}
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, c.BaseURL+path, rd)
	if err != nil {
		return err
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	req.Header.Set("Accept", "application/json")
	req.Header.Set("User-Agent", "herald-cli")
	if c.Token != "" {
		req.Header.Set("Authorization", "Bearer "+c.Token)
	}
	res, err := c.HTTP.Do(req)
	if err != nil {
		return fmt.Errorf("%s %s: %w (is the server URL right? see herald login --url)", method, path, err)
	}
	defer res.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(res.Body, 64<<20))
	if err != nil {
		return err
	}
	if res.StatusCode >= 300 {
		return apiError(method, path, res.StatusCode, raw)
	}
	if out == nil || len(raw) == 0 {
		return nil
	}
	if err := json.Unmarshal(raw, out); err != nil {
		return fmt.Errorf("%s %s: unexpected answer: %w", method, path, err)
	}
	return nil
}

func apiError(method, path string, status int, raw []byte) error {
	e := &Error{Method: method, Path: path, Status: status}
	var body struct {
		Message json.RawMessage `json:"message"`
	}
	if json.Unmarshal(raw, &body) == nil && len(body.Message) > 0 {
		var list []string
		var one string
		if json.Unmarshal(body.Message, &list) == nil {
			e.Messages = list
		} else if json.Unmarshal(body.Message, &one) == nil {
			e.Messages = []string{one}
		}
	}
	if len(e.Messages) == 0 && len(raw) > 0 && len(raw) < 500 {
		e.Messages = []string{strings.TrimSpace(string(raw))}
	}
	return e
}

// Me is the console user a token acts for.
type Me struct {
	ID    int64  `json:"id"`
	Email string `json:"email"`
	Name  string `json:"name"`
}

// ClientInfo is a client (tenant) the token sees, with the role it acts with.
type ClientInfo struct {
	ID   int64  `json:"id"`
	Name string `json:"name"`
	Role string `json:"role"`
}

// App is an app (environment) of a client.
type App struct {
	ID       int64  `json:"id"`
	Name     string `json:"name"`
	ClientID int64  `json:"clientId"`
}

// Me returns the user behind the token.
func (c *Client) Me(ctx context.Context) (Me, error) {
	var m Me
	return m, c.Do(ctx, "GET", "/v1/auth/me", nil, &m)
}

// Clients lists the clients the token sees (one for a CLI token).
func (c *Client) Clients(ctx context.Context) ([]ClientInfo, error) {
	var out []ClientInfo
	return out, c.Do(ctx, "GET", "/v1/clients", nil, &out)
}

// Apps lists a client's apps.
func (c *Client) Apps(ctx context.Context, clientID int64) ([]App, error) {
	var out []App
	return out, c.Do(ctx, "GET", fmt.Sprintf("/v1/clients/%d/apps", clientID), nil, &out)
}

// App returns an app.
func (c *Client) App(ctx context.Context, appID int64) (App, error) {
	var a App
	return a, c.Do(ctx, "GET", fmt.Sprintf("/v1/apps/%d", appID), nil, &a)
}

// Template is a template as the API shows it.
type Template struct {
	ID            int64          `json:"id"`
	Identifier    string         `json:"identifier"`
	Name          string         `json:"name"`
	Description   string         `json:"description"`
	Contents      []Content      `json:"contents"`
	ContentStates []ContentState `json:"contentStates"`
}

// Content is a template's content on one channel.
type Content struct {
	Channel          string            `json:"channel"`
	Fields           map[string]string `json:"content"`
	Batching         map[string]string `json:"batchingContent"`
	LayoutIdentifier string            `json:"layoutIdentifier,omitempty"`
}

// ContentState is a state a template's in-app notifications can be set to.
type ContentState struct {
	State string `json:"state"`
	Label string `json:"label"`
}

// Layout is an email layout.
type Layout struct {
	ID         int64  `json:"id"`
	Identifier string `json:"identifier"`
	Name       string `json:"name"`
	HTML       string `json:"html"`
	Text       string `json:"text"`
	Default    bool   `json:"default"`
}

// Translation is a locale's strings.
type Translation struct {
	Locale  string            `json:"locale"`
	Default bool              `json:"default"`
	Entries map[string]string `json:"entries"`
}

// Category is a notification category.
type Category struct {
	ID              int64           `json:"id"`
	Identifier      string          `json:"identifier"`
	Name            string          `json:"name"`
	Critical        bool            `json:"critical"`
	ChannelDefaults map[string]bool `json:"channelDefaults"`
}

// Workflow is a user-defined workflow: Definition is its draft.
type Workflow struct {
	Identifier       string          `json:"identifier"`
	Name             string          `json:"name"`
	Definition       json.RawMessage `json:"definition"`
	PublishedVersion *int32          `json:"publishedVersion"`
	Critical         bool            `json:"critical"`
	// PayloadSchema is the draft's payload schema (null: none).
	PayloadSchema json.RawMessage `json:"payloadSchema"`
}

func appPath(appID int64, rest string) string { return fmt.Sprintf("/v1/apps/%d%s", appID, rest) }

// Templates lists an app's templates with their contents (one request per template).
func (c *Client) Templates(ctx context.Context, appID int64) ([]Template, error) {
	var list []Template
	if err := c.Do(ctx, "GET", appPath(appID, "/templates"), nil, &list); err != nil {
		return nil, err
	}
	for i := range list {
		if err := c.Do(ctx, "GET", fmt.Sprintf("/v1/templates/%d", list[i].ID), nil, &list[i]); err != nil {
			return nil, err
		}
	}
	return list, nil
}

// Layouts lists an app's layouts.
func (c *Client) Layouts(ctx context.Context, appID int64) ([]Layout, error) {
	var out []Layout
	return out, c.Do(ctx, "GET", appPath(appID, "/layouts"), nil, &out)
}

// Translations lists all of an app's translations.
func (c *Client) Translations(ctx context.Context, appID int64) ([]Translation, error) {
	var out []Translation
	for page := 1; ; page++ {
		var p struct {
			Pagination struct {
				TotalCount int `json:"totalCount"`
			} `json:"pagination"`
			Data []Translation `json:"data"`
		}
		if err := c.Do(ctx, "GET", appPath(appID, fmt.Sprintf("/translations?page=%d&limit=100", page)), nil, &p); err != nil {
			return nil, err
		}
		out = append(out, p.Data...)
		if len(p.Data) == 0 || len(out) >= p.Pagination.TotalCount {
			return out, nil
		}
	}
}

// Categories lists an app's categories.
func (c *Client) Categories(ctx context.Context, appID int64) ([]Category, error) {
	var out []Category
	return out, c.Do(ctx, "GET", appPath(appID, "/categories"), nil, &out)
}

// Workflows lists an app's workflows with their drafts, archived ones included (a folder
// does not say whether a workflow is archived; pushing one updates it where it is).
func (c *Client) Workflows(ctx context.Context, appID int64) ([]Workflow, error) {
	var out []Workflow
	return out, c.Do(ctx, "GET", appPath(appID, "/workflows?archived=true"), nil, &out)
}

// DeleteWorkflow removes a workflow and its versions (the server refuses while a flow
// schedule sends it).
func (c *Client) DeleteWorkflow(ctx context.Context, appID int64, identifier string) error {
	return c.Do(ctx, "DELETE", appPath(appID, "/workflows/"+url.PathEscape(identifier)), nil, nil)
}

// CreateTemplate adds a template and returns its id.
func (c *Client) CreateTemplate(ctx context.Context, appID int64, identifier, name, description string) (int64, error) {
	var t Template
	err := c.Do(ctx, "POST", appPath(appID, "/templates"), map[string]any{"identifier": identifier, "name": name, "description": description}, &t)
	return t.ID, err
}

// UpdateTemplate changes a template's name and description.
func (c *Client) UpdateTemplate(ctx context.Context, id int64, name, description string) error {
	return c.Do(ctx, "PUT", fmt.Sprintf("/v1/templates/%d", id), map[string]any{"name": name, "description": description}, nil)
}

// DeleteTemplate removes a template.
func (c *Client) DeleteTemplate(ctx context.Context, id int64) error {
	return c.Do(ctx, "DELETE", fmt.Sprintf("/v1/templates/%d", id), nil, nil)
}

// SetContent sets a template's content on a channel.
func (c *Client) SetContent(ctx context.Context, id int64, channel string, fields map[string]string, layout string) error {
	body := map[string]any{"content": fields}
	if layout != "" {
		body["layoutIdentifier"] = layout
	}
	return c.Do(ctx, "PUT", fmt.Sprintf("/v1/templates/%d/contents/%s", id, url.PathEscape(channel)), body, nil)
}

// SetBatching sets (nil: removes) a template's batching content on a channel.
func (c *Client) SetBatching(ctx context.Context, id int64, channel string, fields map[string]string) error {
	var v any
	if fields != nil {
		v = fields
	}
	return c.Do(ctx, "PUT", fmt.Sprintf("/v1/templates/%d/contents/%s/batchingContent", id, url.PathEscape(channel)), map[string]any{"content": v}, nil)
}

// DeleteContent removes a template's content on a channel.
func (c *Client) DeleteContent(ctx context.Context, id int64, channel string) error {
	return c.Do(ctx, "DELETE", fmt.Sprintf("/v1/templates/%d/contents/%s", id, url.PathEscape(channel)), nil, nil)
}

// SetState declares (or relabels) a content state of a template.
func (c *Client) SetState(ctx context.Context, id int64, state, label string) error {
	return c.Do(ctx, "POST", fmt.Sprintf("/v1/templates/%d/notification-content-state", id), map[string]any{"state": state, "label": label}, nil)
}

// CreateLayout adds a layout.
func (c *Client) CreateLayout(ctx context.Context, appID int64, l Layout) error {
	return c.Do(ctx, "POST", appPath(appID, "/layouts"), layoutBody(l), nil)
}

// UpdateLayout changes a layout.
func (c *Client) UpdateLayout(ctx context.Context, appID, id int64, l Layout) error {
	return c.Do(ctx, "PUT", appPath(appID, fmt.Sprintf("/layouts/%d", id)), layoutBody(l), nil)
}

// DeleteLayout removes a layout.
func (c *Client) DeleteLayout(ctx context.Context, appID, id int64) error {
	return c.Do(ctx, "DELETE", appPath(appID, fmt.Sprintf("/layouts/%d", id)), nil, nil)
}

func layoutBody(l Layout) map[string]any {
	return map[string]any{"identifier": l.Identifier, "name": l.Name, "html": l.HTML, "text": l.Text, "default": l.Default}
}

// PutTranslation creates or replaces a locale's strings.
func (c *Client) PutTranslation(ctx context.Context, appID int64, t Translation) error {
	return c.Do(ctx, "POST", appPath(appID, "/translations"), map[string]any{"locale": t.Locale, "entries": t.Entries, "default": t.Default}, nil)
}

// CreateCategory adds a category.
func (c *Client) CreateCategory(ctx context.Context, appID int64, cat Category) error {
	return c.Do(ctx, "POST", appPath(appID, "/categories"), map[string]any{"identifier": cat.Identifier, "name": cat.Name,
		"critical": cat.Critical, "channelDefaults": defaultsBody(cat.ChannelDefaults)}, nil)
}

// UpdateCategory sets a category's name, critical mark and channel defaults (replaced as a
// whole).
func (c *Client) UpdateCategory(ctx context.Context, id int64, cat Category) error {
	return c.Do(ctx, "PUT", fmt.Sprintf("/v1/categories/%d", id), map[string]any{"name": cat.Name,
		"critical": cat.Critical, "channelDefaults": defaultsBody(cat.ChannelDefaults)}, nil)
}

// defaultsBody sends an empty object rather than null, so clearing the defaults clears them.
func defaultsBody(m map[string]bool) map[string]bool {
	if m == nil {
		return map[string]bool{}
	}
	return m
}

// DeleteCategory removes a category.
func (c *Client) DeleteCategory(ctx context.Context, id int64) error {
	return c.Do(ctx, "DELETE", fmt.Sprintf("/v1/categories/%d", id), nil, nil)
}

// CreateWorkflow saves a new workflow's draft (schema nil: no payload schema).
func (c *Client) CreateWorkflow(ctx context.Context, appID int64, identifier, name string, critical bool, def, schema json.RawMessage) error {
	return c.Do(ctx, "POST", appPath(appID, "/workflows"), map[string]any{"identifier": identifier, "name": name, "critical": critical, "definition": def, "payloadSchema": orNull(schema)}, nil)
}

// UpdateWorkflow replaces a workflow's draft, name, critical mark and payload schema (nil
// removes it: the folder is what the app gets).
func (c *Client) UpdateWorkflow(ctx context.Context, appID int64, identifier, name string, critical bool, def, schema json.RawMessage) error {
	return c.Do(ctx, "PUT", appPath(appID, "/workflows/"+url.PathEscape(identifier)), map[string]any{"name": name, "critical": critical, "definition": def, "payloadSchema": orNull(schema)}, nil)
}

// orNull is raw, or JSON null when it is empty.
func orNull(raw json.RawMessage) json.RawMessage {
	if len(raw) == 0 {
		return json.RawMessage("null")
	}
	return raw
}

// PublishWorkflow makes a workflow's draft the version sends run.
func (c *Client) PublishWorkflow(ctx context.Context, appID int64, identifier string) error {
	return c.Do(ctx, "POST", appPath(appID, "/workflows/"+url.PathEscape(identifier)+"/publish"), nil, nil)
}

// Change is one uncommitted change of an app.
type Change struct {
	Type   string `json:"type"`
	Key    string `json:"key"`
	Action string `json:"action"`
}

// Commit is a recorded snapshot of an app.
type Commit struct {
	ID           int64     `json:"id"`
	Message      string    `json:"message"`
	CreatedAt    time.Time `json:"createdAt"`
	Changes      []Change  `json:"changes"`
	Publications []struct {
		AppID   int64  `json:"appId"`
		AppName string `json:"appName"`
	} `json:"publications"`
}

// Uncommitted lists an app's changes since its last commit.
func (c *Client) Uncommitted(ctx context.Context, appID int64) ([]Change, error) {
	var out []Change
	for page := 1; ; page++ {
		var p struct {
			Pagination struct {
				TotalCount int `json:"totalCount"`
			} `json:"pagination"`
			Data []Change `json:"data"`
		}
		if err := c.Do(ctx, "GET", appPath(appID, fmt.Sprintf("/uncommited-changes?page=%d&limit=100", page)), nil, &p); err != nil {
			return nil, err
		}
		out = append(out, p.Data...)
		if len(p.Data) == 0 || len(out) >= p.Pagination.TotalCount {
			return out, nil
		}
	}
}

// Commit records the app's uncommitted changes.
func (c *Client) Commit(ctx context.Context, appID int64, message string) (Commit, error) {
	var out Commit
	return out, c.Do(ctx, "POST", appPath(appID, "/commits"), map[string]any{"message": message}, &out)
}

// Commits lists an app's latest commits, newest first.
func (c *Client) Commits(ctx context.Context, appID int64, limit int) ([]Commit, error) {
	var p struct {
		Data []Commit `json:"data"`
	}
	return p.Data, c.Do(ctx, "GET", appPath(appID, fmt.Sprintf("/commits?page=1&limit=%d", limit)), nil, &p)
}

// Publish applies a commit of appID to the app target.
func (c *Client) Publish(ctx context.Context, appID, commitID, target int64) (json.RawMessage, error) {
	var out json.RawMessage
	return out, c.Do(ctx, "POST", appPath(appID, "/publish"), map[string]any{"commitId": commitID, "publishTo": target}, &out)
}

// Send accepts a notification in an app, as POST /v3/notifications would.
func (c *Client) Send(ctx context.Context, appID int64, body any) (string, error) {
	var out struct {
		RequestID string `json:"requestId"`
	}
	return out.RequestID, c.Do(ctx, "POST", appPath(appID, "/notifications"), body, &out)
}

// LogEntry is one message log row.
type LogEntry struct {
	ID                 int64     `json:"id"`
	RequestID          string    `json:"requestId"`
	UserIdentifier     string    `json:"userIdentifier"`
	Channel            string    `json:"channel"`
	Status             string    `json:"status"`
	Reason             *string   `json:"reason"`
	Error              *string   `json:"error"`
	TemplateIdentifier *string   `json:"templateIdentifier"`
	CreatedAt          time.Time `json:"createdAt"`
}

// WebhookDelivery is one row of an app's event webhook delivery log.
type WebhookDelivery struct {
	ID            int64      `json:"id"`
	EndpointID    int64      `json:"endpointId"`
	MessageID     string     `json:"messageId"`
	EventType     string     `json:"eventType"`
	Status        string     `json:"status"`
	Attempts      int        `json:"attempts"`
	LastStatus    *int       `json:"lastStatus"`
	LastLatencyMs *int       `json:"lastLatencyMs"`
	LastError     string     `json:"lastError"`
	NextAttemptAt *time.Time `json:"nextAttemptAt"`
	CreatedAt     time.Time  `json:"createdAt"`
}

// WebhookDeliveries returns the newest page of an app's event webhook deliveries (every
// endpoint), optionally of one status.
func (c *Client) WebhookDeliveries(ctx context.Context, appID int64, status string, limit int) ([]WebhookDelivery, error) {
	var p struct {
		Data []WebhookDelivery `json:"data"`
	}
	q := url.Values{"limit": {strconv.Itoa(limit)}}
	if status != "" {
		q.Set("status", status)
	}
	return p.Data, c.Do(ctx, "GET", appPath(appID, "/webhook-deliveries?"+q.Encode()), nil, &p)
}

// Logs returns the newest page of an app's message log.
func (c *Client) Logs(ctx context.Context, appID int64, limit int) ([]LogEntry, error) {
	var p struct {
		Data []LogEntry `json:"data"`
	}
	return p.Data, c.Do(ctx, "GET", appPath(appID, fmt.Sprintf("/logs?page=1&limit=%d", limit)), nil, &p)
}

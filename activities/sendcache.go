package activities

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"sync"

	"github.com/google/uuid"

	herald "github.com/heraldhq/herald"
	"github.com/heraldhq/herald/db"
	"github.com/heraldhq/herald/db/dbsqlc"
	"github.com/heraldhq/herald/internal/delivery/templates"
	js "github.com/heraldhq/herald/internal/platform/jsonshape"
	"github.com/heraldhq/herald/internal/providers"
	"github.com/heraldhq/herald/internal/send/notify"
)

// sendCacheSize bounds the sends whose content a worker keeps loaded.
const sendCacheSize = 256

// sendEntry is what every delivery of one send shares: the request without its recipients,
// its template bundle and data, and its parsed overrides and attachments. It is loaded once
// per worker and send, not once per message.
type sendEntry struct {
	appID int64
	req   notify.SendRequest
	// bundle renders the send's content; nil when templateErr says why not.
	bundle      *templates.Bundle
	templateErr string
	sendData    map[string]any
	// override holds override's members: channel, <providerIdentifier>, ….
	override    map[string]json.RawMessage
	attachments []providers.Attachment
	attachErr   string
}

// sendCache keeps the most recent entries, dropping the oldest first.
type sendCache struct {
	mu      sync.Mutex
	entries map[uuid.UUID]*sendEntry
	order   []uuid.UUID
}

func (c *sendCache) get(id uuid.UUID) *sendEntry {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.entries[id]
}

func (c *sendCache) put(id uuid.UUID, e *sendEntry) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.entries[id]; ok {
		return
	}
	if len(c.order) >= sendCacheSize {
		delete(c.entries, c.order[0])
		c.order = c.order[1:]
	}
	c.entries[id] = e
	c.order = append(c.order, id)
}

// sendEntry returns the shared content of a send, loading it on first use.
func (a *Delivery) sendEntry(ctx context.Context, requestID uuid.UUID) (*sendEntry, error) {
	a.cacheOnce.Do(func() { a.cache = &sendCache{entries: map[uuid.UUID]*sendEntry{}} })
	if e := a.cache.get(requestID); e != nil {
		return e, nil
	}
	row, err := a.DB.DeliveryRequestContent(ctx, requestID)
	if err != nil {
		return nil, db.MapError(err)
	}
	e := &sendEntry{appID: row.AppID}
	if err := json.Unmarshal(row.Payload, &e.req); err != nil {
		return nil, fmt.Errorf("stored request %s is unreadable: %w", requestID, err)
	}
	app, err := a.DB.GetAppByID(ctx, row.AppID)
	if err != nil {
		return nil, db.MapError(err)
	}
	var cat *templates.Category
	if ident := e.req.Notification.Category; ident != "" {
		c, err := a.DB.DeliveryCategory(ctx, dbsqlc.DeliveryCategoryParams{AppID: row.AppID, Identifier: ident})
		switch {
		case err == nil:
			cat = &templates.Category{Identifier: c.Identifier, Name: c.Name}
		case herald.ErrorCode(db.MapError(err)) != herald.ENOTFOUND:
			return nil, db.MapError(err)
		}
	}
	e.bundle, err = a.Templates.Bundle(ctx, row.AppID, e.req.Notification.TemplateIdentifier, e.req.Notification)
	switch {
	case herald.ErrorCode(err) == herald.ENOTFOUND:
		e.templateErr = err.Error()
	case err != nil:
		return nil, err
	}
	if e.sendData, err = templates.SendData(e.req.Data, row.AppID, app.Name, cat, e.req.Notification); err != nil {
		e.templateErr = "data cannot be read: " + err.Error()
	}
	if e.req.Override != nil {
		e.override = js.Fields(e.req.Override.Raw)
	}
	e.attachments, e.attachErr = attachments(e.req.Data)
	a.cache.put(requestID, e)
	return e, nil
}

// providerOverride is what a provider receives as Message.Override: the send's
// override.channel.<channel> object merged with override.<providerIdentifier> (without its
// _config, which overlays the instance configuration instead).
func (e *sendEntry) providerOverride(channel, provider string) json.RawMessage {
	merged := map[string]json.RawMessage{}
	for k, v := range js.Fields(js.Fields(e.override["channel"])[channel]) {
		merged[k] = v
	}
	for k, v := range js.Fields(e.override[provider]) {
		if k != "_config" {
			merged[k] = v
		}
	}
	if len(merged) == 0 {
		return nil
	}
	out, _ := json.Marshal(merged)
	return out
}

// configOverlay is override.<providerIdentifier>._config, if any.
func (e *sendEntry) configOverlay(provider string) json.RawMessage {
	raw := js.Fields(e.override[provider])["_config"]
	if !js.Present(raw) {
		return nil
	}
	return raw
}

// maxAttachmentBytes bounds the decoded attachments of one send.
const maxAttachmentBytes = 10 << 20

// attachments reads data.attachments: [{filename, contentType, content (base64)}].
func attachments(data json.RawMessage) ([]providers.Attachment, string) {
	raw := js.Fields(data)["attachments"]
	if !js.Present(raw) {
		return nil, ""
	}
	items, ok := js.Elements(raw)
	if !ok {
		return nil, "data.attachments must be an array"
	}
	var out []providers.Attachment
	total := 0
	for i, it := range items {
		f := js.Fields(it)
		name, _ := js.String(f["filename"])
		ct, _ := js.String(f["contentType"])
		b64, ok := js.String(f["content"])
		if f == nil || name == "" || !ok {
			return nil, fmt.Sprintf("data.attachments[%d] needs a filename and a base64 content", i)
		}
		content, err := base64.StdEncoding.DecodeString(b64)
		if err != nil {
			return nil, fmt.Sprintf("data.attachments[%d].content must be base64", i)
		}
		if total += len(content); total > maxAttachmentBytes {
			return nil, fmt.Sprintf("data.attachments are larger than %d bytes", maxAttachmentBytes)
		}
		out = append(out, providers.Attachment{Filename: name, ContentType: ct, Content: content})
	}
	return out, ""
}

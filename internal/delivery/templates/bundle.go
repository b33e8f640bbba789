package templates

import (
	"context"
	"encoding/json"
	"fmt"
	"html"
	"maps"
	"slices"
	"strings"
	"sync"

	herald "github.com/heraldhq/herald"
	"github.com/heraldhq/herald/db"
	"github.com/heraldhq/herald/db/dbsqlc"
	"github.com/heraldhq/herald/internal/delivery/render"
	"github.com/heraldhq/herald/internal/platform/safeurl"
)

// Rendered is one recipient's content on one channel.
type Rendered struct {
	Subject, HTML, Text string
	Title, Body         string
	Icon, URL           string
	// Blocks are an inApp content's rendered blocks (nil when its content has none: the
	// send's own blocks are used).
	Blocks json.RawMessage
}

// Bundle is what rendering one send needs, loaded once per slice or delivery: the
// template's compiled contents (none when the send names no template), the layouts, and
// the translations, loaded per locale as recipients need them.
type Bundle struct {
	// Identifier is the template's identifier; empty when the send has none and the
	// notification's own title and message fill every channel.
	Identifier   string
	notification herald.Content
	contents     map[string]*compiled
	defaultLay   *compiledLayout
	// mu guards locales: deliveries of one send share the bundle.
	mu          sync.Mutex
	locales     map[string]map[string]string
	loadLocales func(ctx context.Context, locales []string) ([]dbsqlc.Translation, error)
}

type compiled struct {
	fields map[string]*render.Template
	// blocks are the inApp content's blocks; nil without.
	blocks *compiledBlocks
	// batching replaces fields for messages that carry a digest's batch; nil without.
	batching map[string]*render.Template
	layout   *compiledLayout
	// broken is a stored field that no longer parses.
	broken error
}

// compileFields parses stored content fields ({"title": "...", ...}); the error names the
// channel and field of the first that does not parse.
func compileFields(channel string, raw json.RawMessage) (map[string]*render.Template, error) {
	var fields map[string]string
	_ = json.Unmarshal(raw, &fields)
	out := make(map[string]*render.Template, len(fields))
	for name, src := range fields {
		if name == BlocksField {
			continue // compiled by compileBlocks
		}
		t, err := render.Parse(src)
		if err != nil {
			return nil, fmt.Errorf("%s.%s: %w", channel, name, err)
		}
		out[name] = t
	}
	return out, nil
}

type compiledLayout struct {
	html, text *render.Template
}

// For returns a bundle of the same template and layouts for another send's notification
// object: the sends of one batch share what was loaded, each with its own translations
// cache.
func (b *Bundle) For(n herald.Content) *Bundle {
	return &Bundle{
		Identifier: b.Identifier, notification: n, contents: b.contents, defaultLay: b.defaultLay,
		locales: map[string]map[string]string{}, loadLocales: b.loadLocales,
	}
}

// Bundle loads the template named identifier (or none when empty) for rendering a send
// whose notification object is n. A missing template is ENOTFOUND.
func (s *Service) Bundle(ctx context.Context, appID int64, identifier string, n herald.Content) (*Bundle, error) {
	b := &Bundle{
		Identifier: identifier, notification: n, locales: map[string]map[string]string{},
		loadLocales: func(ctx context.Context, locales []string) ([]dbsqlc.Translation, error) {
			return s.db.TranslationsForLocales(ctx, dbsqlc.TranslationsForLocalesParams{AppID: appID, Locales: locales})
		},
	}
	if def, err := s.db.GetDefaultLayout(ctx, appID); err == nil {
		b.defaultLay = compileLayout(def)
	} else if herald.ErrorCode(db.MapError(err)) != herald.ENOTFOUND {
		return nil, db.MapError(err)
	}
	if identifier == "" {
		return b, nil
	}
	tpl, err := s.db.GetTemplateByIdentifier(ctx, dbsqlc.GetTemplateByIdentifierParams{AppID: appID, Identifier: identifier})
	if err != nil {
		if herald.ErrorCode(db.MapError(err)) == herald.ENOTFOUND {
			return nil, herald.Errorf(herald.ENOTFOUND, "template %q not found", identifier)
		}
		return nil, db.MapError(err)
	}
	rows, err := s.db.ListTemplateContents(ctx, dbsqlc.ListTemplateContentsParams{AppID: appID, TemplateID: tpl.ID})
	if err != nil {
		return nil, db.MapError(err)
	}
	b.contents = make(map[string]*compiled, len(rows))
	for _, r := range rows {
		c := &compiled{layout: b.defaultLay}
		c.fields, c.broken = compileFields(r.Channel, r.Content)
		if src := blocksSource(r.Content); src != "" && c.broken == nil {
			c.blocks, c.broken = compileBlocks(r.Channel, src)
		}
		if len(r.BatchingContent) > 0 && string(r.BatchingContent) != "null" && c.broken == nil {
			c.batching, c.broken = compileFields(r.Channel+" batching", r.BatchingContent)
		}
		if r.LayoutID != nil {
			l, err := s.db.GetLayout(ctx, dbsqlc.GetLayoutParams{AppID: appID, ID: *r.LayoutID})
			if err != nil {
				return nil, db.MapError(err)
			}
			c.layout = compileLayout(l)
		}
		b.contents[r.Channel] = c
	}
	return b, nil
}

// blocksSource is the blocks field of stored content fields; "" without.
func blocksSource(raw json.RawMessage) string {
	var f struct {
		Blocks string `json:"blocks"`
	}
	_ = json.Unmarshal(raw, &f)
	return f.Blocks
}

func compileLayout(l dbsqlc.Layout) *compiledLayout {
	// Layouts were validated on save; one that no longer parses is ignored, not fatal.
	out := &compiledLayout{}
	out.html, _ = render.Parse(l.Html)
	out.text, _ = render.Parse(l.Text)
	return out
}

// Channels returns the channels the template has content for; nil without a template.
func (b *Bundle) Channels() []string {
	if b.Identifier == "" {
		return nil
	}
	var out []string
	for _, c := range herald.Channels {
		if _, ok := b.contents[c]; ok {
			out = append(out, c)
		}
	}
	return out
}

// Has reports whether the send has content for a channel: always without a template.
func (b *Bundle) Has(channel string) bool {
	if b.Identifier == "" {
		return true
	}
	_, ok := b.contents[channel]
	return ok
}

// Render renders a channel's content for one recipient. data is the recipient's template
// data (see Data); when it holds a digest's batch (the top-level key "batch") and the
// channel has batching content, that content is rendered instead. Errors name the channel,
// field and line.
func (b *Bundle) Render(ctx context.Context, channel string, data map[string]any) (Rendered, error) {
	return b.render(ctx, channel, data, false, nil)
}

// RenderBatch renders a channel's content after a digest step: the content's batching form
// when it has one, else its regular form. data carries batch {count, items}.
func (b *Bundle) RenderBatch(ctx context.Context, channel string, data map[string]any) (Rendered, error) {
	return b.render(ctx, channel, data, true, nil)
}

// missingFunc is told, for a preview, of each reference a field (or the layout: field
// layout.html or layout.text) makes to data the template data does not hold.
type missingFunc func(field string, m render.Missing)

// hook is the render option of one field: nil without a missingFunc.
func (w missingFunc) hook(field string) func(render.Missing) {
	if w == nil {
		return nil
	}
	return func(m render.Missing) { w(field, m) }
}

func (b *Bundle) render(ctx context.Context, channel string, data map[string]any, batch bool, warn missingFunc) (Rendered, error) {
	if b.Identifier == "" {
		return b.fromNotification(channel, data)
	}
	c, ok := b.contents[channel]
	if !ok {
		return Rendered{}, fmt.Errorf("template %q has no %s content", b.Identifier, channel)
	}
	if c.broken != nil {
		return Rendered{}, c.broken
	}
	fields := c.fields
	if c.batching != nil && (batch || data["batch"] != nil) {
		fields = c.batching
	}
	tr, err := b.translator(ctx, data)
	if err != nil {
		return Rendered{}, err
	}
	field := func(name string, asHTML bool) (string, error) {
		t, ok := fields[name]
		if !ok {
			return "", nil
		}
		out, err := t.Execute(data, render.Options{HTML: asHTML, Translate: tr, Missing: warn.hook(name)})
		if err != nil {
			return "", fmt.Errorf("%s.%s: %w", channel, name, err)
		}
		return out, nil
	}
	var r Rendered
	var errs []error
	set := func(dst *string, name string, asHTML bool) {
		v, err := field(name, asHTML)
		if err != nil {
			errs = append(errs, err)
		}
		*dst = v
	}
	switch channel {
	case herald.ChannelEmail:
		set(&r.Subject, "subject", false)
		set(&r.HTML, "html", true)
		set(&r.Text, "text", false)
		if len(errs) == 0 && c.layout != nil {
			r.HTML, r.Text, err = wrap(c.layout, data, r.HTML, r.Text, tr, warn)
			if err != nil {
				errs = append(errs, err)
			}
		}
	case herald.ChannelInApp:
		set(&r.Title, "title", false)
		set(&r.Body, "message", false)
		set(&r.Icon, "icon", false)
		set(&r.URL, "url", false)
		if c.blocks != nil {
			if r.Blocks, err = c.blocks.render(channel, data, render.Options{Translate: tr, Missing: warn.hook(BlocksField)}); err != nil {
				errs = append(errs, err)
			}
		}
	default:
		set(&r.Title, "title", false)
		set(&r.Body, "body", false)
		set(&r.Icon, "icon", false)
		set(&r.URL, "url", false)
	}
	if len(errs) > 0 {
		return Rendered{}, errs[0]
	}
	if err := checkURL(channel, r.URL); err != nil {
		return Rendered{}, err
	}
	return r, nil
}

// checkURL refuses a rendered url that safeurl refuses (a template writing
// {{data.link}} where data.link is "javascript:…"): the message is not delivered with it.
// The error names the scheme, never the URL.
func checkURL(channel, url string) error {
	if err := safeurl.Check(url); err != nil {
		return fmt.Errorf("%s.url: the rendered url %v", channel, err)
	}
	return nil
}

// wrap puts rendered email bodies into a layout.
func wrap(l *compiledLayout, data map[string]any, body, text string, tr func(string) (string, bool), warn missingFunc) (string, string, error) {
	var err error
	if body != "" && l.html != nil {
		d := maps.Clone(data)
		d["content"] = body
		if body, err = l.html.Execute(d, render.Options{HTML: true, Translate: tr, Missing: warn.hook("layout.html")}); err != nil {
			return "", "", fmt.Errorf("layout html: %w", err)
		}
	}
	if text != "" && l.text != nil {
		d := maps.Clone(data)
		d["content"] = text
		if text, err = l.text.Execute(d, render.Options{Translate: tr, Missing: warn.hook("layout.text")}); err != nil {
			return "", "", fmt.Errorf("layout text: %w", err)
		}
	}
	return body, text, nil
}

// fromNotification fills a channel from the notification's own fields, verbatim; an
// email gets the default layout around its escaped message.
func (b *Bundle) fromNotification(channel string, data map[string]any) (Rendered, error) {
	n := b.notification
	r := Rendered{Title: n.Title, Body: n.Message, Icon: n.Icon, URL: n.URL}
	if err := checkURL(channel, r.URL); err != nil && channel != herald.ChannelEmail {
		return Rendered{}, err
	}
	if channel == herald.ChannelEmail {
		r = Rendered{Subject: n.Title, Text: n.Message}
		if b.defaultLay != nil {
			body := "<p>" + strings.ReplaceAll(html.EscapeString(n.Message), "\n", "<br>") + "</p>"
			var err error
			if r.HTML, r.Text, err = wrap(b.defaultLay, data, body, n.Message, nil, nil); err != nil {
				return Rendered{}, err
			}
		}
	}
	return r, nil
}

// translator returns the lookup of {{t}} for the recipient's locale: the exact locale,
// then its language, then the app's default translation.
func (b *Bundle) translator(ctx context.Context, data map[string]any) (func(string) (string, bool), error) {
	locale := ""
	if u, ok := data["user"].(map[string]any); ok {
		if p, ok := u["profile"].(map[string]any); ok {
			locale, _ = p["locale"].(string)
		}
	}
	b.mu.Lock()
	chain, err := b.chain(ctx, locale)
	b.mu.Unlock()
	if err != nil {
		return nil, err
	}
	return func(key string) (string, bool) {
		for _, m := range chain {
			if v, ok := m[key]; ok {
				return v, true
			}
		}
		return "", false
	}, nil
}

const defaultLocaleKey = "\x00default"

// chain loads (once per bundle) the translations a locale falls back through.
func (b *Bundle) chain(ctx context.Context, locale string) ([]map[string]string, error) {
	wanted := []string{}
	if locale != "" {
		wanted = append(wanted, locale)
		if lang, _, ok := strings.Cut(locale, "-"); ok {
			wanted = append(wanted, lang)
		}
	}
	var missing []string
	for _, l := range wanted {
		if _, ok := b.locales[l]; !ok {
			missing = append(missing, l)
		}
	}
	if _, ok := b.locales[defaultLocaleKey]; len(missing) > 0 || !ok {
		rows, err := b.loadLocales(ctx, missing)
		if err != nil {
			return nil, db.MapError(err)
		}
		for _, l := range missing {
			b.locales[l] = nil
		}
		b.locales[defaultLocaleKey] = nil
		for _, r := range rows {
			m := map[string]string{}
			_ = json.Unmarshal(r.Entries, &m)
			if slices.Contains(missing, r.Locale) {
				b.locales[r.Locale] = m
			}
			if r.IsDefault {
				b.locales[defaultLocaleKey] = m
			}
		}
	}
	var out []map[string]string
	for _, l := range append(wanted, defaultLocaleKey) {
		if m := b.locales[l]; m != nil {
			out = append(out, m)
		}
	}
	return out, nil
}

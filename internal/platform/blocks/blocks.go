// Package blocks checks the content blocks of an in-app notification (its `blocks` array):
// the block types the inbox widget and the React package render (text, image, avatar,
// buttons) and their rules — https images with alt text, links under the URL rules of
// safeurl, buttons with a label and either a url or a state. The same rules apply at send
// (notification.blocks), at template save (the inApp content's blocks, whose strings are
// templates) and after a template renders them for a recipient. Blocks of other types
// (Slack Block Kit, custom blocks for webhooks), and entries that are not objects with a
// string type, are kept as sent and not checked here: the widget ignores them.
package blocks

import (
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/heraldhq/herald/internal/platform/safeurl"
)

// Limits of the rendered block types (docs/inbox-widget.md#blocks).
const (
	MaxBlocks     = 20
	MaxButtons    = 3
	MaxText       = 2000
	MaxLabel      = 60
	MaxName       = 200
	MaxAlt        = 300
	MaxStates     = 10
	MaxStateRunes = 64 // inbox.MaxStateLength
	MaxURL        = 2048
)

// Types are the block types the inbox renders.
var Types = []string{"text", "image", "avatar", "buttons"}

// Styles are a button's styles.
var Styles = []string{"primary", "secondary"}

// Options tell Check how to read the strings of the blocks.
type Options struct {
	// Template, when set, reads each string as a template (a template's saved content):
	// it returns the text the template writes before its first tag (which decides a
	// URL's scheme), or the template's syntax error. The rest is checked once rendered.
	Template func(s string) (prefix string, err error)
}

// fields are the fields each rendered type may have, beyond type, states and exceptStates.
var fields = map[string][]string{
	"text":    {"text"},
	"image":   {"url", "alt", "image_url", "alt_text"},
	"avatar":  {"name", "imageUrl", "text"},
	"buttons": {"buttons"},
}

// mdLink finds the links of the markdown subset: [label](url).
var mdLink = regexp.MustCompile(`\[[^\]\n]*\]\(([^)\s]*)\)`)

// Check returns every problem of raw (a JSON array of blocks), each naming its path under
// path ("notification.blocks[1].buttons[0].url must …"). Blocks whose type is not one of
// Types are not checked (but their count is).
func Check(raw json.RawMessage, path string, o Options) []string {
	var list []json.RawMessage
	if err := json.Unmarshal(raw, &list); err != nil {
		return []string{path + " must be an array"}
	}
	c := checker{o: o}
	if len(list) > MaxBlocks {
		c.addf("%s must have at most %d blocks", path, MaxBlocks)
	}
	for i, b := range list {
		c.block(fmt.Sprintf("%s[%d]", path, i), b)
	}
	return c.problems
}

type checker struct {
	o        Options
	problems []string
}

func (c *checker) addf(format string, args ...any) {
	c.problems = append(c.problems, fmt.Sprintf(format, args...))
}

func (c *checker) block(path string, raw json.RawMessage) {
	var obj map[string]json.RawMessage
	var typ string
	if json.Unmarshal(raw, &obj) != nil || obj == nil || json.Unmarshal(obj["type"], &typ) != nil {
		return // not a block the inbox renders (free-form data for a webhook): kept as sent
	}
	allowed, ok := fields[typ]
	if !ok {
		return // a block for another renderer (Slack, a webhook): kept as sent
	}
	keys := make([]string, 0, len(obj))
	for k := range obj {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if k != "type" && k != "states" && k != "exceptStates" && !slices.Contains(allowed, k) {
			c.addf("%s.%s is not a field of a %s block (fields: %s, states, exceptStates)", path, k, typ, strings.Join(allowed, ", "))
		}
	}
	c.states(path+".states", obj["states"])
	c.states(path+".exceptStates", obj["exceptStates"])
	switch typ {
	case "text":
		if t, ok := c.str(path+".text", obj["text"], MaxText, true); ok {
			c.markdownLinks(path+".text", t)
		}
	case "image":
		url, alt := "url", "alt"
		if obj["url"] == nil && obj["image_url"] != nil {
			url = "image_url" // Slack's names, for blocks sent to Slack and the inbox alike
		}
		if obj["alt"] == nil && obj["alt_text"] != nil {
			alt = "alt_text"
		}
		if u, ok := c.str(path+"."+url, obj[url], MaxURL, true); ok {
			c.https(path+"."+url, u)
		}
		if a, ok := c.str(path+"."+alt, obj[alt], MaxAlt, true); ok && strings.TrimSpace(a) == "" {
			c.addf("%s.%s should not be empty (describe the image)", path, alt)
		}
	case "avatar":
		c.str(path+".name", obj["name"], MaxName, true)
		c.str(path+".text", obj["text"], MaxText, false)
		if u, ok := c.str(path+".imageUrl", obj["imageUrl"], MaxURL, false); ok && u != "" {
			c.https(path+".imageUrl", u)
		}
	case "buttons":
		var buttons []json.RawMessage
		if json.Unmarshal(obj["buttons"], &buttons) != nil || buttons == nil {
			c.addf("%s.buttons must be an array of buttons", path)
			return
		}
		if len(buttons) == 0 || len(buttons) > MaxButtons {
			c.addf("%s.buttons must have 1 to %d buttons", path, MaxButtons)
		}
		for i, b := range buttons {
			c.button(fmt.Sprintf("%s.buttons[%d]", path, i), b)
		}
	}
}

func (c *checker) button(path string, raw json.RawMessage) {
	var obj map[string]json.RawMessage
	if json.Unmarshal(raw, &obj) != nil || obj == nil {
		c.addf("%s must be an object", path)
		return
	}
	keys := make([]string, 0, len(obj))
	for k := range obj {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if !slices.Contains([]string{"label", "style", "url", "state"}, k) {
			c.addf("%s.%s is not a field of a button (fields: label, style, url, state)", path, k)
		}
	}
	if l, ok := c.str(path+".label", obj["label"], MaxLabel, true); ok && strings.TrimSpace(l) == "" {
		c.addf("%s.label should not be empty", path)
	}
	if s, ok := c.str(path+".style", obj["style"], 20, false); ok && s != "" && !slices.Contains(Styles, s) {
		c.addf("%s.style must be one of %s", path, strings.Join(Styles, ", "))
	}
	hasURL, hasState := obj["url"] != nil, obj["state"] != nil
	switch {
	case hasURL && hasState:
		c.addf("%s must have either url or state, not both", path)
	case !hasURL && !hasState:
		c.addf("%s needs url or state", path)
	case hasURL:
		if u, ok := c.str(path+".url", obj["url"], MaxURL, true); ok {
			c.link(path+".url", u)
		}
	default:
		if s, ok := c.str(path+".state", obj["state"], MaxStateRunes*4, true); ok {
			c.state(path+".state", s)
		}
	}
}

// str reads a string field (required: present and non-empty); ok is false after a problem.
func (c *checker) str(path string, raw json.RawMessage, max int, required bool) (string, bool) {
	if raw == nil || string(raw) == "null" {
		if required {
			c.addf("%s is required", path)
			return "", false
		}
		return "", true
	}
	var s string
	if json.Unmarshal(raw, &s) != nil {
		c.addf("%s must be a string", path)
		return "", false
	}
	if required && s == "" {
		c.addf("%s should not be empty", path)
		return "", false
	}
	if utf8.RuneCountInString(s) > max {
		c.addf("%s must be at most %d characters", path, max)
		return "", false
	}
	if c.o.Template != nil {
		if _, err := c.o.Template(s); err != nil {
			c.addf("%s: %v", path, err)
			return "", false
		}
	}
	return s, true
}

func (c *checker) states(path string, raw json.RawMessage) {
	if raw == nil {
		return
	}
	var list []string
	if json.Unmarshal(raw, &list) != nil {
		c.addf("%s must be an array of states", path)
		return
	}
	if len(list) == 0 || len(list) > MaxStates {
		c.addf("%s must have 1 to %d states", path, MaxStates)
	}
	for i, s := range list {
		c.state(fmt.Sprintf("%s[%d]", path, i), s)
	}
}

func (c *checker) state(path, s string) {
	switch {
	case strings.TrimSpace(s) == "":
		c.addf("%s should not be empty", path)
	case utf8.RuneCountInString(s) > MaxStateRunes:
		c.addf("%s must be at most %d characters", path, MaxStateRunes)
	}
}

// prefix is what decides a URL's scheme: the whole string, or a template's text before its
// first tag.
func (c *checker) prefix(s string) string {
	if c.o.Template == nil {
		return s
	}
	p, _ := c.o.Template(s)
	return p
}

// link checks a URL followed on click: safeurl's rules.
func (c *checker) link(path, u string) {
	if err := safeurl.Check(c.prefix(u)); err != nil {
		c.addf("%s %v", path, err)
	}
}

// https checks an image's URL: loaded by every browser showing the inbox, so https only
// (a template may leave the whole URL to its data: checked once rendered).
func (c *checker) https(path, u string) {
	p := c.prefix(u)
	if c.o.Template != nil && len(p) < len("https://") && strings.HasPrefix("https://", strings.ToLower(p)) {
		return
	}
	if safeurl.Scheme(p) != "https" || !strings.HasPrefix(strings.ToLower(strings.TrimSpace(p)), "https://") {
		c.addf("%s must be an https URL", path)
	}
}

func (c *checker) markdownLinks(path, text string) {
	for _, m := range mdLink.FindAllStringSubmatch(text, MaxBlocks) {
		if err := safeurl.Check(c.prefix(m[1])); err != nil {
			c.addf("%s: the link %v", path, err)
		}
	}
}

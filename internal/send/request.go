package send

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	herald "github.com/heraldhq/herald"
	"github.com/heraldhq/herald/internal/platform/blocks"
	js "github.com/heraldhq/herald/internal/platform/jsonshape"
	"github.com/heraldhq/herald/internal/platform/safeurl"
)

// Parse validates a send request body and returns its normalised form. Every violated
// rule is reported, in the order of the fields.
func Parse(body []byte) (*herald.SendRequest, error) {
	var p herald.Problems
	top := js.Fields(body)
	if top == nil {
		return nil, herald.Invalid("body must be a JSON object")
	}
	req := &herald.SendRequest{}

	parseContent(top["notification"], req, &p)

	sendTo := top["sendTo"]
	switch {
	case js.Present(sendTo):
		st := js.Fields(sendTo)
		if st == nil {
			p.Addf("sendTo must be an object")
			break
		}
		req.Recipients = parseRecipients(st["recipients"], "sendTo.recipients", true, &p)
		if raw := st["topics"]; js.Present(raw) {
			topics, ok := js.Strings(raw)
			switch {
			case !ok:
				p.Addf("sendTo.topics must be an array of strings")
			case len(topics) > herald.MaxTopics:
				p.Addf("sendTo.topics must contain no more than %d elements", herald.MaxTopics)
			default:
				for _, t := range topics {
					if strings.TrimSpace(t) == "" {
						p.Addf("each value in sendTo.topics must be a non-empty string")
						break
					}
				}
				req.Topics = topics
			}
		}
	case !js.Present(top["recipients"]):
		p.Addf("sendTo must be an object")
	}
	if raw := top["recipients"]; js.Present(raw) {
		if _, ok := js.Strings(raw); !ok {
			p.Addf("recipients must be an array of strings")
		} else {
			req.Recipients = append(req.Recipients, parseRecipients(raw, "recipients", false, &p)...)
		}
	}
	req.Recipients = dedupe(req.Recipients)
	total := len(req.Recipients)
	if total > herald.MaxInlineRecipients {
		p.Addf("a send may name at most %d recipients inline (got %d); use sendTo.topics for larger audiences", herald.MaxInlineRecipients, total)
	}
	if len(p) == 0 && total == 0 && len(req.Topics) == 0 {
		p.Addf("sendTo must name at least one recipient or topic")
	}

	if raw := top["category"]; js.Present(raw) {
		c, ok := js.String(raw)
		switch {
		case !ok:
			p.Addf("category must be a string")
		case strings.TrimSpace(c) == "":
			p.Addf("category should not be empty")
		case req.Notification.Category == "" || req.Notification.Category == c:
			req.Notification.Category = c
			req.CreateCategory = true
		}
	}
	if raw := top["data"]; js.Present(raw) {
		if js.Kind(raw) != "object" {
			p.Addf("data must be an object")
		} else {
			req.Data = raw
		}
	}
	if raw := top["override"]; js.Present(raw) {
		req.Override = parseOverride(raw, &p)
	}
	if raw := top["sendAt"]; js.Present(raw) {
		req.SendAt = parseSendAt(raw, &p)
	}
	if err := p.Err(); err != nil {
		return nil, err
	}
	return req, nil
}

// parseSendAt reads an ISO 8601 date-time. The caller decides what a past time means (send
// now); a time beyond herald.MaxSchedule is refused.
func parseSendAt(raw json.RawMessage, p *herald.Problems) *time.Time {
	v, ok := js.String(raw)
	if !ok {
		p.Addf("sendAt must be an ISO 8601 date-time string")
		return nil
	}
	var at time.Time
	var err error
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04Z07:00"} {
		if at, err = time.Parse(layout, v); err == nil {
			break
		}
	}
	if err != nil {
		p.Addf("sendAt must be an ISO 8601 date-time with a time zone, e.g. 2026-12-24T18:00:00Z (got %q)", v)
		return nil
	}
	if time.Until(at) > herald.MaxSchedule {
		p.Addf("sendAt must be within 366 days")
		return nil
	}
	return &at
}

func parseContent(raw json.RawMessage, req *herald.SendRequest, p *herald.Problems) {
	n := js.Fields(raw)
	if n == nil {
		p.Addf("notification must be an object")
		return
	}
	c := &req.Notification
	text := func(name string, dst *string) {
		if v := n[name]; js.Present(v) {
			s, ok := js.String(v)
			if !ok {
				p.Addf("notification.%s must be a string", name)
				return
			}
			*dst = s
		}
	}
	text("title", &c.Title)
	text("message", &c.Message)
	text("icon", &c.Icon)
	text("url", &c.URL)
	text("category", &c.Category)
	text("templateIdentifier", &c.TemplateIdentifier)
	if c.URL != "" {
		if err := safeurl.Check(c.URL); err != nil {
			p.Addf("notification.url %v", err)
		}
	}
	if v := n["blocks"]; js.Present(v) {
		if js.Kind(v) != "array" {
			p.Addf("notification.blocks must be an array")
		} else {
			c.Blocks = v
			checkBlockLinks(v, p)
			// The block types the inbox renders (text, image, avatar, buttons) follow their
			// schema; a refused link both checks find is listed once.
			for _, problem := range blocks.Check(v, "notification.blocks", blocks.Options{}) {
				if !slices.Contains(*p, problem) {
					p.Addf("%s", problem)
				}
			}
		}
	}
	if v := n["workflow"]; js.Present(v) {
		w := js.Fields(v)
		if w == nil {
			p.Addf("notification.workflow must be an object")
		} else {
			ref := &herald.FlowRef{}
			id, ok := js.String(w["identifier"])
			if !ok || strings.TrimSpace(id) == "" {
				p.Addf("notification.workflow.identifier must be a non-empty string")
			}
			ref.Identifier = id
			if ck := w["cancellationKey"]; js.Present(ck) {
				s, ok := js.String(ck)
				if !ok {
					p.Addf("notification.workflow.cancellationKey must be a string")
				}
				ref.CancellationKey = s
			}
			c.Flow = ref
		}
	}
	if strings.TrimSpace(c.Title) == "" && c.TemplateIdentifier == "" && c.Flow == nil {
		if _, isStr := js.String(n["title"]); isStr || !js.Present(n["title"]) {
			p.Addf("notification.title should not be empty (or name a templateIdentifier or workflow)")
		}
	}
}

// parseRecipients reads an array of identifiers, or of user objects when objects is true.
func parseRecipients(raw json.RawMessage, field string, objects bool, p *herald.Problems) []herald.Recipient {
	if !js.Present(raw) {
		return nil
	}
	items, ok := js.Elements(raw)
	if !ok {
		if objects {
			p.Addf("%s must be an array", field)
		} else {
			p.Addf("%s must be an array of strings", field)
		}
		return nil
	}
	out := make([]herald.Recipient, 0, len(items))
	var badType, empty, tooLong bool
	for _, it := range items {
		switch js.Kind(it) {
		case "string":
			id, _ := js.String(it)
			out = append(out, herald.Recipient{Identifier: id})
		case "object":
			if !objects {
				badType = true
				continue
			}
			fs := js.Fields(it)
			id, ok := js.String(fs["identifier"])
			if !ok {
				badType = true
				continue
			}
			delete(fs, "identifier")
			var profile json.RawMessage
			if len(fs) > 0 {
				profile, _ = json.Marshal(fs)
			}
			out = append(out, herald.Recipient{Identifier: id, Profile: profile})
		default:
			badType = true
			continue
		}
		last := out[len(out)-1].Identifier
		if strings.TrimSpace(last) == "" {
			empty = true
		} else if len(last) > herald.MaxIdentifierLength {
			tooLong = true
		}
	}
	if badType {
		if objects {
			p.Addf("each value in %s must be a string or an object with a string identifier", field)
		} else {
			p.Addf("each value in %s must be a string", field)
		}
	}
	if empty {
		p.Addf("each identifier in %s must be a non-empty string", field)
	}
	if tooLong {
		p.Addf("each identifier in %s must be at most %d characters", field, herald.MaxIdentifierLength)
	}
	return out
}

func parseOverride(raw json.RawMessage, p *herald.Problems) *herald.Override {
	o := js.Fields(raw)
	if o == nil {
		p.Addf("override must be an object")
		return nil
	}
	out := &herald.Override{Raw: raw}
	if v := o["channels"]; js.Present(v) {
		chans, ok := js.Strings(v)
		if !ok {
			p.Addf("override.channels must be an array of strings")
			return out
		}
		for _, ch := range chans {
			if !herald.IsChannel(ch) {
				p.Addf("override.channels: unknown channel %q (known: %s)", ch, strings.Join(herald.Channels, ", "))
			}
		}
		out.Channels = chans
	}
	if v := o["channel"]; js.Present(v) && js.Kind(v) != "object" {
		p.Addf("override.channel must be an object")
	}
	return out
}

// dedupe keeps the first occurrence of each identifier, merging later profiles into it.
func dedupe(in []herald.Recipient) []herald.Recipient {
	if len(in) < 2 {
		return in
	}
	seen := make(map[string]int, len(in))
	out := in[:0]
	for _, r := range in {
		if i, ok := seen[r.Identifier]; ok {
			if len(r.Profile) > 0 {
				out[i].Profile = mergeObjects(out[i].Profile, r.Profile)
			}
			continue
		}
		seen[r.Identifier] = len(out)
		out = append(out, r)
	}
	return out
}

func mergeObjects(a, b json.RawMessage) json.RawMessage {
	if len(a) == 0 {
		return b
	}
	m := js.Fields(a)
	for k, v := range js.Fields(b) {
		m[k] = v
	}
	out, err := json.Marshal(m)
	if err != nil {
		panic(fmt.Sprintf("notify: re-marshal profile: %v", err))
	}
	return out
}

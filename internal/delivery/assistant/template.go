package assistant

import (
	"fmt"
	"strings"
)

// field is one content field of a channel's template.
type field struct {
	name     string
	required bool
	max      int
	hint     string
}

// channelFields are the template fields of each channel, in the order the model is asked
// for them.
var channelFields = map[string][]field{
	"inApp": {{"title", true, 200, "short headline"}, {"message", true, 2000, "body text, plain or light markdown"},
		{"url", false, 2000, "link opened on click, may be empty"}},
	"email": {{"subject", true, 200, "subject line"}, {"html", true, 100_000, "HTML body (inline styles, no <html> wrapper needed)"},
		{"text", false, 20_000, "plain text alternative"}},
	"sms":        {{"text", true, 1600, "message text, ideally under 160 characters"}},
	"whatsapp":   {{"text", true, 4096, "message text"}},
	"webPush":    {{"title", true, 100, "notification title"}, {"body", true, 300, "notification body"}, {"url", false, 2000, "link opened on click, may be empty"}},
	"mobilePush": {{"title", true, 100, "notification title"}, {"body", true, 300, "notification body"}},
	"slack":      {{"text", true, 4000, "message in Slack mrkdwn"}},
	"discord":    {{"text", true, 2000, "message in Discord markdown"}},
	"msTeams":    {{"text", true, 4000, "message text (markdown)"}},
	"webhook":    {{"body", true, 20_000, "JSON payload as a string"}},
}

// checkDraft validates the model's JSON object as a template of the channel: every
// required field a non-empty string within its length, and {{…}} placeholders balanced.
// It returns the fields kept (unknown ones are dropped) and the problems found.
func checkDraft(channel string, obj map[string]any) (map[string]string, []string) {
	out := map[string]string{}
	var problems []string
	for _, f := range channelFields[channel] {
		raw, ok := obj[f.name]
		if !ok || raw == nil {
			if f.required {
				problems = append(problems, f.name+" is missing")
			}
			continue
		}
		s, ok := raw.(string)
		if !ok {
			problems = append(problems, f.name+" must be a string")
			continue
		}
		switch {
		case f.required && strings.TrimSpace(s) == "":
			problems = append(problems, f.name+" is empty")
		case len([]rune(s)) > f.max:
			problems = append(problems, fmt.Sprintf("%s is longer than %d characters", f.name, f.max))
		}
		// A JSON payload ends objects with }}, which is plain text to handlebars.
		if err := checkPlaceholders(s, channel != "webhook"); err != "" {
			problems = append(problems, f.name+": "+err)
		}
		out[f.name] = s
	}
	return out, problems
}

// checkPlaceholders checks handlebars-style placeholders: every {{ (or {{{) is closed by
// }} (or }}}) before another opens, with strict no }} stands alone, and block helpers
// ({{#each}} … {{/each}}) are closed in order. It returns "" when the text is sound.
func checkPlaceholders(s string, strict bool) string {
	var blocks []string
	for i := 0; i < len(s); {
		open := strings.Index(s[i:], "{{")
		closeAt := strings.Index(s[i:], "}}")
		if strict && closeAt >= 0 && (open < 0 || closeAt < open) {
			return fmt.Sprintf("}} at offset %d closes nothing", i+closeAt)
		}
		if open < 0 {
			break
		}
		start := i + open
		triple := strings.HasPrefix(s[start:], "{{{")
		inner, closer := start+2, "}}"
		if triple {
			inner, closer = start+3, "}}}"
		}
		end := strings.Index(s[inner:], closer)
		if end < 0 {
			return fmt.Sprintf("{{ at offset %d is never closed", start)
		}
		body := s[inner : inner+end]
		if strings.Contains(body, "{{") {
			return fmt.Sprintf("{{ at offset %d opens inside another placeholder", inner+strings.Index(body, "{{"))
		}
		body = strings.TrimSpace(strings.Trim(strings.TrimSpace(body), "~"))
		switch {
		case body == "":
			return fmt.Sprintf("empty placeholder at offset %d", start)
		case strings.HasPrefix(body, "#"):
			name, _, _ := strings.Cut(strings.TrimSpace(body[1:]), " ")
			blocks = append(blocks, name)
		case strings.HasPrefix(body, "/"):
			name := strings.TrimSpace(body[1:])
			if len(blocks) == 0 {
				return fmt.Sprintf("{{/%s}} at offset %d closes no block", name, start)
			}
			if top := blocks[len(blocks)-1]; top != name {
				return fmt.Sprintf("{{/%s}} at offset %d closes {{#%s}}", name, start, top)
			}
			blocks = blocks[:len(blocks)-1]
		}
		i = inner + end + len(closer)
	}
	if len(blocks) > 0 {
		return fmt.Sprintf("{{#%s}} is never closed", blocks[len(blocks)-1])
	}
	return ""
}

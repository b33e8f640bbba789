// Package assistant drafts template content from a prompt through an OpenAI-compatible
// chat completions endpoint, and validates the draft as a template of the target channel
// before anyone sees it.
package assistant

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"sort"
	"strings"
	"time"

	herald "github.com/heraldhq/herald"
)

// MaxPromptLength caps a prompt, in characters.
const MaxPromptLength = 4000

// Config points at the endpoint; it is off while BaseURL is empty.
type Config struct {
	// BaseURL is the API root, e.g. https://api.openai.com/v1; /chat/completions is added.
	BaseURL, APIKey, Model string
	Timeout                time.Duration
	// HTTPClient makes the calls; nil means one with Timeout.
	HTTPClient *http.Client
}

// Service drafts templates.
type Service struct {
	cfg Config
	hc  *http.Client
}

// New returns the assistant.
func New(cfg Config) *Service {
	hc := cfg.HTTPClient
	if hc == nil {
		hc = &http.Client{Timeout: cfg.Timeout}
	}
	return &Service{cfg: cfg, hc: hc}
}

// Configured reports whether an endpoint is set.
func (s *Service) Configured() bool { return s.cfg.BaseURL != "" }

// Draft is a validated template draft.
type Draft struct {
	Channel string            `json:"channel"`
	Content map[string]string `json:"content"`
	Model   string            `json:"model"`
}

// Channels lists the channels the assistant can draft for.
func Channels() []string {
	out := make([]string, 0, len(channelFields))
	for c := range channelFields {
		out = append(out, c)
	}
	sort.Strings(out)
	return out
}

// Check records the problems of a request (GeneratePromptDTO {prompt, channel}) beyond
// presence and type: the prompt's length and the channel.
func Check(prompt, channel string, p *herald.Problems) {
	if len([]rune(prompt)) > MaxPromptLength {
		p.Addf("prompt must be at most %d characters", MaxPromptLength)
	}
	if channel != "" {
		if _, ok := channelFields[channel]; !ok {
			p.Addf("channel must be one of %s", strings.Join(Channels(), ", "))
		}
	}
}

// Draft asks the model for the channel's template fields. A draft that is not a sound
// template is sent back once with the problems; if the second one fails too, the call
// fails.
func (s *Service) Draft(ctx context.Context, prompt, channel string) (Draft, error) {
	if !s.Configured() {
		return Draft{}, herald.Errorf(herald.EUNAVAILABLE, "the assistant is not configured on this installation: set HERALD_AI_BASE_URL and HERALD_AI_MODEL (and HERALD_AI_API_KEY) to an OpenAI-compatible chat completions endpoint")
	}
	msgs := []message{{Role: "system", Content: instructions(channel)}, {Role: "user", Content: prompt}}
	var problems []string
	for attempt := 0; attempt < 2; attempt++ {
		answer, err := s.complete(ctx, msgs)
		if err != nil {
			return Draft{}, err
		}
		var obj map[string]any
		if err := json.Unmarshal([]byte(stripFences(answer)), &obj); err != nil {
			problems = []string{"the answer was not a JSON object"}
		} else {
			content, ps := checkDraft(channel, obj)
			if len(ps) == 0 {
				return Draft{Channel: channel, Content: content, Model: s.cfg.Model}, nil
			}
			problems = ps
		}
		msgs = append(msgs, message{Role: "assistant", Content: answer},
			message{Role: "user", Content: "That draft is not a valid template: " + strings.Join(problems, "; ") + ". Answer again with the corrected JSON object only."})
	}
	return Draft{}, herald.Errorf(herald.EUNAVAILABLE, "the assistant did not produce a valid %s template (%s); try again or rephrase the prompt", channel, strings.Join(problems, "; "))
}

func instructions(channel string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "You write notification templates for the %s channel. Answer with one JSON object and nothing else, with these string fields:\n", channel)
	for _, f := range channelFields[channel] {
		req := "optional"
		if f.required {
			req = "required"
		}
		fmt.Fprintf(&b, "- %q (%s, at most %d characters): %s\n", f.name, req, f.max, f.hint)
	}
	b.WriteString("Use handlebars placeholders such as {{firstName}} for values that differ per recipient, and close every {{#if}} or {{#each}} block. Do not invent links.")
	return b.String()
}

// stripFences removes a ```json … ``` fence some models wrap JSON in.
func stripFences(s string) string {
	s = strings.TrimSpace(s)
	if strings.HasPrefix(s, "```") {
		s = strings.TrimPrefix(s, "```")
		s = strings.TrimPrefix(s, "json")
		s = strings.TrimSuffix(strings.TrimSpace(s), "```")
	}
	return strings.TrimSpace(s)
}

type message struct {
	Role    string `json:"role"`
	Content string `json:"content"`
}

// complete calls POST {base}/chat/completions and returns the first choice's text.
func (s *Service) complete(ctx context.Context, msgs []message) (string, error) {
	body, _ := json.Marshal(map[string]any{
		"model": s.cfg.Model, "messages": msgs, "temperature": 0.7,
		"response_format": map[string]string{"type": "json_object"},
	})
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, strings.TrimRight(s.cfg.BaseURL, "/")+"/chat/completions", bytes.NewReader(body))
	if err != nil {
		return "", err
	}
	req.Header.Set("Content-Type", "application/json")
	if s.cfg.APIKey != "" {
		req.Header.Set("Authorization", "Bearer "+s.cfg.APIKey)
	}
	res, err := s.hc.Do(req)
	if err != nil {
		return "", &herald.Error{Code: herald.EUNAVAILABLE, Message: "the assistant's endpoint cannot be reached; retry later", Err: err}
	}
	defer res.Body.Close()
	raw, _ := io.ReadAll(io.LimitReader(res.Body, 4<<20))
	if res.StatusCode/100 != 2 {
		return "", &herald.Error{Code: herald.EUNAVAILABLE, Message: fmt.Sprintf("the assistant's endpoint answered %d; retry later", res.StatusCode),
			Err: fmt.Errorf("chat completions %d: %.300s", res.StatusCode, raw)}
	}
	var out struct {
		Choices []struct {
			Message message `json:"message"`
		} `json:"choices"`
	}
	if err := json.Unmarshal(raw, &out); err != nil || len(out.Choices) == 0 {
		return "", &herald.Error{Code: herald.EUNAVAILABLE, Message: "the assistant's endpoint gave no answer; retry later",
			Err: fmt.Errorf("chat completions answer: %.300s", raw)}
	}
	return out.Choices[0].Message.Content, nil
}

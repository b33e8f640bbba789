// Package rundetail is what the run timeline (GET /v1/apps/{appId}/workflows/{identifier}/runs/{requestId})
// and the request detail (GET /v1/apps/{appId}/requests/{requestId}) show of one step of a
// workflow run besides its outcome: the input it saw, how a branch or a waitForRead decided,
// and the message a channel step rendered with the provider's answer. The interpreter's
// activities write them through the same types, capped here.
package rundetail

import (
	"bytes"
	"encoding/json"
	"time"
	"unicode/utf8"
)

// MaxContentBytes caps the rendered content stored for one step (message_logs.content).
const MaxContentBytes = 256 << 10

// MaxInputBytes caps the input (and, separately, the evaluation) stored for one step.
const MaxInputBytes = 64 << 10

// Content is what a channel step rendered and handed to its channel: the address, an
// email's subject, HTML and text, an in-app card (title, body, icon, url), an SMS or push
// text (body). Truncated says that fields were cut to fit MaxContentBytes.
type Content struct {
	To        string `json:"to,omitempty"`
	Subject   string `json:"subject,omitempty"`
	HTML      string `json:"html,omitempty"`
	Text      string `json:"text,omitempty"`
	Title     string `json:"title,omitempty"`
	Body      string `json:"body,omitempty"`
	Icon      string `json:"icon,omitempty"`
	URL       string `json:"url,omitempty"`
	Truncated bool   `json:"truncated"`
}

// Encode returns c as stored, within MaxContentBytes: fields are cut (at a UTF-8
// boundary, the HTML first, then the text, the body, …) until it fits, and a cut sets
// Truncated.
func (c Content) Encode() json.RawMessage {
	fields := []*string{&c.HTML, &c.Text, &c.Body, &c.Subject, &c.Title, &c.URL, &c.Icon, &c.To}
	for range 16 {
		b, err := marshal(c)
		if err != nil {
			break
		}
		if len(b) <= MaxContentBytes {
			return b
		}
		c.Truncated = true
		// Escaping may make the encoding longer than the text: cut what is over, plus a
		// margin, and measure again.
		over := len(b) - MaxContentBytes + 1024
		for _, f := range fields {
			if over <= 0 {
				break
			}
			cut := min(over, len(*f))
			*f = cutUTF8(*f, len(*f)-cut)
			over -= cut
		}
	}
	b, _ := json.Marshal(Content{Truncated: true})
	return b
}

// marshal encodes without escaping <, > and & (HTML stays its size; jsonb keeps it as is).
func marshal(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

func cutUTF8(s string, n int) string {
	if n >= len(s) {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// Input is what a step saw: the run's data (a fetch may have added to it), the digest's
// batch, and the recipient's identifier. Larger than MaxInputBytes, the data and batch are
// left out and Truncated says so.
type Input struct {
	Data      map[string]any `json:"data"`
	Batch     any            `json:"batch,omitempty"`
	Recipient Recipient      `json:"recipient"`
	Truncated bool           `json:"truncated"`
}

// Recipient names the user a run is for.
type Recipient struct {
	Identifier string `json:"identifier"`
}

// Encode returns in as stored, capped at MaxInputBytes.
func (in Input) Encode() json.RawMessage {
	if in.Data == nil {
		in.Data = map[string]any{}
	}
	b, err := json.Marshal(in)
	if err == nil && len(b) <= MaxInputBytes {
		return b
	}
	b, _ = json.Marshal(Input{Data: map[string]any{}, Recipient: in.Recipient, Truncated: true})
	return b
}

// EncodeEvaluation returns a branch's or a wait's evaluation as stored (nil for none);
// larger than MaxInputBytes, it is replaced by {"truncated": true}.
func EncodeEvaluation(v any) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil || string(b) == "null" {
		return nil
	}
	if len(b) > MaxInputBytes {
		return json.RawMessage(`{"truncated":true}`)
	}
	return b
}

// Message is the message a channel step produced: its message log row's status, the
// provider's answer, and the content it rendered (null when none was recorded: a skipped
// step, or a row from before contents were recorded).
type Message struct {
	ID                 int64           `json:"id"`
	Channel            string          `json:"channel"`
	Status             string          `json:"status"`
	Reason             *string         `json:"reason"`
	Error              *string         `json:"error"`
	ProviderIdentifier *string         `json:"providerIdentifier"`
	ProviderMessageID  *string         `json:"providerMessageId"`
	ProviderResponse   *string         `json:"providerResponse"`
	Attempts           int32           `json:"attempts"`
	SentAt             *time.Time      `json:"sentAt"`
	DeliveredAt        *time.Time      `json:"deliveredAt"`
	FailedAt           *time.Time      `json:"failedAt"`
	Content            json.RawMessage `json:"content"`
}

// Logged is one message log row of a send request as Index reads it: the recipient and the
// step that wrote it, and its message (Content is filled from the contents, not from here).
// Each reader maps its message_logs rows to it at its store.
type Logged struct {
	UserIdentifier string
	// StepKey is the step's id; a row that no flow step wrote has none.
	StepKey string
	Message
}

// Messages finds the message log row of a run's channel step and its content.
type Messages struct {
	rows     map[key]Message
	contents map[int64]json.RawMessage
}

type key struct{ user, channel, step string }

// MaxContents bounds the contents one request's answer reads (message_contents).
const MaxContents = 1000

// Index indexes the message log rows of one send request by recipient, channel and step,
// with the contents its steps rendered by message log id (MessageContentsOfRequest).
func Index(logs []Logged, contents map[int64]json.RawMessage) Messages {
	m := Messages{rows: make(map[key]Message, len(logs)), contents: contents}
	for _, l := range logs {
		if l.StepKey != "" {
			m.rows[key{l.UserIdentifier, l.Channel, l.StepKey}] = l.Message
		}
	}
	return m
}

// For returns the message of a recipient's step (nil when the step wrote none), its times
// in UTC.
func (m Messages) For(user, stepType, stepID string) *Message {
	l, ok := m.rows[key{user, stepType, stepID}]
	if !ok {
		return nil
	}
	out := &l
	out.SentAt, out.DeliveredAt, out.FailedAt = utc(l.SentAt), utc(l.DeliveredAt), utc(l.FailedAt)
	out.Content = m.contents[l.ID]
	if len(out.Content) == 0 {
		out.Content = nil
	}
	return out
}

// Raw returns a stored JSON column for an answer: nil (null) when empty.
func Raw(b json.RawMessage) json.RawMessage {
	if len(b) == 0 {
		return nil
	}
	return b
}

func utc(t *time.Time) *time.Time {
	if t == nil {
		return nil
	}
	v := t.UTC()
	return &v
}

package inbox

import (
	"encoding/json"
	"strconv"
	"time"
	"unicode/utf8"

	"github.com/heraldhq/herald/internal/platform/jsontime"
)

// AppendJSON appends the page as encoding/json would write it, without reflection: the inbox
// list is the busiest read, and reflection with a Marshaler per timestamp was a fifth of its
// CPU. TestPageJSONMatchesEncodingJSON keeps the two byte-identical.
func (p *Page) AppendJSON(b []byte) []byte {
	b = append(b, `{"unreadCount":`...)
	b = strconv.AppendInt(b, p.UnreadCount, 10)
	b = append(b, `,"pagination":{"totalCount":`...)
	b = strconv.AppendInt(b, p.Pagination.TotalCount, 10)
	b = append(b, `,"pageNo":`...)
	b = strconv.AppendInt(b, int64(p.Pagination.PageNo), 10)
	b = append(b, `,"limit":`...)
	b = strconv.AppendInt(b, int64(p.Pagination.Limit), 10)
	b = append(b, `},"data":`...)
	if p.Data == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, '[')
		for i := range p.Data {
			if i > 0 {
				b = append(b, ',')
			}
			b = p.Data[i].appendJSON(b)
		}
		b = append(b, ']')
	}
	return append(b, '}')
}

func (n *Notification) appendJSON(b []byte) []byte {
	b = append(b, `{"id":`...)
	b = strconv.AppendInt(b, n.ID, 10)
	b = append(b, `,"title":`...)
	b = appendString(b, n.Title)
	b = append(b, `,"message":`...)
	b = appendString(b, n.Message)
	b = append(b, `,"icon":`...)
	b = appendString(b, n.Icon)
	b = append(b, `,"url":`...)
	b = appendString(b, n.URL)
	b = append(b, `,"blocks":`...)
	b = appendRaw(b, n.Blocks)
	b = append(b, `,"data":`...)
	b = appendRaw(b, n.Data)
	b = append(b, `,"state":`...)
	if n.State == nil {
		b = append(b, "null"...)
	} else {
		b = appendString(b, *n.State)
	}
	b = append(b, `,"category":`...)
	if c := n.Category; c == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, `{"id":`...)
		b = strconv.AppendInt(b, c.ID, 10)
		b = append(b, `,"identifier":`...)
		b = appendString(b, c.Identifier)
		b = append(b, `,"name":`...)
		b = appendString(b, c.Name)
		b = append(b, '}')
	}
	b = append(b, `,"createdAt":`...)
	b = appendTime(b, &n.CreatedAt)
	b = append(b, `,"seenAt":`...)
	b = appendTime(b, n.SeenAt)
	b = append(b, `,"readAt":`...)
	b = appendTime(b, n.ReadAt)
	b = append(b, `,"clickedAt":`...)
	b = appendTime(b, n.ClickedAt)
	return append(b, '}')
}

func appendTime(b []byte, t *Time) []byte {
	if t == nil {
		return append(b, "null"...)
	}
	return jsontime.AppendQuoted(b, time.Time(*t))
}

// appendRaw appends stored JSON as encoding/json writes a json.RawMessage: compacted, with
// HTML-significant characters and U+2028/U+2029 escaped inside strings; empty is null, and
// so is anything that is not valid JSON (the columns are jsonb, so that does not happen).
func appendRaw(b []byte, raw json.RawMessage) []byte {
	if len(raw) == 0 || !json.Valid(raw) {
		return append(b, "null"...)
	}
	inString, escaped := false, false
	for i := 0; i < len(raw); i++ {
		c := raw[i]
		if !inString {
			switch c {
			case ' ', '\t', '\n', '\r':
			case '"':
				inString = true
				b = append(b, c)
			default:
				b = append(b, c)
			}
			continue
		}
		switch {
		case escaped:
			escaped = false
			b = append(b, c)
		case c == '\\':
			escaped = true
			b = append(b, c)
		case c == '"':
			inString = false
			b = append(b, c)
		case c == '<' || c == '>' || c == '&':
			b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
		case c == 0xe2 && i+2 < len(raw) && raw[i+1] == 0x80 && raw[i+2]&^1 == 0xa8:
			b = append(b, '\\', 'u', '2', '0', '2', hexDigits[raw[i+2]&0xf])
			i += 2
		default:
			b = append(b, c)
		}
	}
	return b
}

const hexDigits = "0123456789abcdef"

// appendString appends s as a JSON string with encoding/json's escaping: HTML-significant
// characters, U+2028 and U+2029 escaped, invalid UTF-8 replaced by U+FFFD.
func appendString(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' && c != '<' && c != '>' && c != '&' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hexDigits[r&0xf])
			i += size
			start = i
			continue
		}
		i += size
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

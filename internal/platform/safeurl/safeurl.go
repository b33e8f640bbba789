// Package safeurl decides whether a link Herald hands to a browser or an app (a
// notification's url, a template's rendered url) may be followed: the inbox widget calls
// window.location.assign(url) on a click, so a javascript: URL would run script in the
// customer's page.
//
// The scheme is read the way browsers read it (the WHATWG URL Standard's basic URL
// parser): leading and trailing C0 controls and spaces are stripped, ASCII tab, LF and CR
// are removed anywhere, and the scheme is the ASCII letters, digits, '+', '-' and '.' before
// the first ':', starting with a letter, in any case. So " jaVa\tscript:", "java\nscript:",
// "\x01javascript:" and "JAVASCRIPT:" are all the javascript scheme.
//
// Allowed: http and https; references without a scheme ("/a", "a/b", "?x", "#y", and
// protocol-relative "//host/…", which a browser resolves against the page's own http(s)
// scheme); and app schemes for mobile deep links ("myapp://…"). Refused: the schemes that
// run script or read local or in-memory content (javascript, vbscript, data, file, blob,
// filesystem and their relatives), the browsers' internal schemes (about, view-source,
// chrome, …), any scheme containing "script", and control characters other than tab, LF
// and CR anywhere. The same
// rules are implemented for the widget in web/inbox/src/safeurl.ts.
//
// HTML character references and percent-escapes are not decoded by URL parsers, so
// "&#x6A;avascript:alert(1)" is a harmless relative path to a browser that navigates to it;
// but a page that writes the URL into HTML would decode the reference. Check therefore also
// judges the URL with character references and percent-escapes decoded (repeatedly, up to
// four rounds), and refuses it when such a form has a refused scheme.
package safeurl

import (
	"errors"
	"fmt"
	"html"
	"net/url"
	"strings"
)

// refused are the schemes no link may use: script, local or in-memory content, browser
// internals, and the special schemes that are not pages (ws, wss, ftp).
var refused = map[string]bool{
	"javascript": true, "vbscript": true, "livescript": true, "mocha": true, "ecmascript": true, "jscript": true,
	"data": true, "file": true, "blob": true, "filesystem": true, "mhtml": true, "jar": true, "res": true,
	"about": true, "view-source": true, "chrome": true, "chrome-extension": true, "chrome-untrusted": true,
	"devtools": true, "edge": true, "opera": true, "brave": true, "vivaldi": true, "resource": true,
	"moz-extension": true, "ms-browser-extension": true, "safari-extension": true, "webkit-extension": true,
	"intent": true, "ws": true, "wss": true, "ftp": true,
}

// ErrControl is the refusal of a URL holding control characters.
var ErrControl = errors.New("must not contain control characters")

// Check returns nil when raw may be followed as a link (an empty raw is no link, and
// allowed), else an error worded to follow a field name, as in
// "notification.url must be an http or https URL, …".
func Check(raw string) error {
	for i := 0; i < len(raw); i++ {
		if c := raw[i]; (c < 0x20 && c != '\t' && c != '\n' && c != '\r') || c == 0x7f {
			return ErrControl
		}
	}
	if err := checkScheme(Scheme(raw)); err != nil {
		return err
	}
	// The same URL as a page that decodes HTML or percent-escapes before use would see it,
	// decoded until it no longer changes (a few rounds: "&amp;#x6A;" takes two).
	decoded := raw
	for range 4 {
		next := html.UnescapeString(decoded)
		if u, err := url.PathUnescape(next); err == nil {
			next = u
		}
		if next == decoded {
			break
		}
		decoded = next
		if err := checkScheme(Scheme(decoded)); err != nil {
			return err
		}
	}
	return nil
}

func checkScheme(s string) error {
	switch {
	case s == "" || s == "http" || s == "https":
		return nil
	case refused[s] || strings.Contains(s, "script"):
		return fmt.Errorf("must be an http or https URL, a relative reference or an app link (%s: is not allowed)", s)
	}
	return nil
}

// Allowed reports whether raw may be followed as a link (Check returns nil).
func Allowed(raw string) bool { return Check(raw) == nil }

// Scheme returns the scheme a browser reads in raw, in lower case; "" for a reference
// without one (relative or protocol-relative).
func Scheme(raw string) string {
	s := normalize(raw)
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == ':':
			if i == 0 {
				return ""
			}
			return strings.ToLower(s[:i])
		case isAlpha(c):
		case i > 0 && (isDigit(c) || c == '+' || c == '-' || c == '.'):
		default:
			return ""
		}
	}
	return ""
}

// normalize strips leading and trailing C0 controls and spaces and removes ASCII tab and
// newlines, as the URL parser does before reading the scheme.
func normalize(raw string) string {
	s := strings.TrimFunc(raw, func(r rune) bool { return r <= 0x20 })
	if strings.ContainsAny(s, "\t\n\r") {
		s = strings.NewReplacer("\t", "", "\n", "", "\r", "").Replace(s)
	}
	return s
}

func isAlpha(c byte) bool { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') }
func isDigit(c byte) bool { return c >= '0' && c <= '9' }

package templates

import (
	"encoding/json"
	"strings"
	"unicode/utf8"

	herald "github.com/heraldhq/herald"
	"github.com/heraldhq/herald/internal/inbox"
)

// The checks below are the rules the service applies on save, without a database, for
// tools that validate resources before sending them (the herald CLI's validate and push).
// Each returns every problem, worded as the API's 400 answer words it.

// CheckTemplate checks a template's identifier, name and description as Create does.
func CheckTemplate(identifier, name, description string) []string {
	var p herald.Problems
	checkIdentifier("identifier", identifier, &p)
	name = strings.TrimSpace(name)
	if name == "" {
		name = identifier
	}
	if name != "" {
		checkText("name", name, MaxNameLength, &p)
	}
	checkText("description", description, MaxDescription, &p)
	return p
}

// CheckLayout checks a layout as CreateLayout does (an empty text is {{{content}}}).
func CheckLayout(identifier, name, html, text string) []string {
	var p herald.Problems
	checkIdentifier("identifier", identifier, &p)
	name = strings.TrimSpace(name)
	if name == "" {
		name = identifier
	}
	if name != "" {
		checkText("name", name, MaxNameLength, &p)
	}
	if text == "" {
		text = "{{{content}}}"
	}
	checkLayout(html, text, &p)
	return p
}

// CheckTranslation checks a locale and its entries (a JSON object of strings) as
// PutTranslation does.
func CheckTranslation(locale string, entries json.RawMessage) []string {
	var p herald.Problems
	checkTranslation(locale, entries, &p)
	return p
}

// CheckState checks a content state and its label as CreateContentState does.
func CheckState(state, label string) []string {
	var p herald.Problems
	checkState(strings.TrimSpace(state), strings.TrimSpace(label), &p)
	return p
}

func checkState(state, label string, p *herald.Problems) {
	switch {
	case state == "":
		p.Addf("state should not be empty")
	case utf8.RuneCountInString(state) > inbox.MaxStateLength:
		p.Addf("state must be at most %d characters", inbox.MaxStateLength)
	}
	if label == "" {
		label = state
	}
	if utf8.RuneCountInString(label) > MaxStateLabel {
		p.Addf("label must be at most %d characters", MaxStateLabel)
	}
}

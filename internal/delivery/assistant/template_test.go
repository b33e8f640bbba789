package assistant

import "testing"

func TestCheckPlaceholders(t *testing.T) {
	for _, c := range []struct {
		in, want string
		strict   bool
	}{
		{"Hello {{name}}", "", true},
		{"{{{html}}} and {{ name }} {{~trim~}}", "", true},
		{"{{#if a}}{{#each b}}{{this}}{{/each}}{{else}}none{{/if}}", "", true},
		{"Hello {{name", "{{ at offset 6 is never closed", true},
		{"{{{raw}}", "{{ at offset 0 is never closed", true},
		{"a }} b", "}} at offset 2 closes nothing", true},
		{`{"a":{"b":1}}`, "", false},
		{"{{}}", "empty placeholder at offset 0", true},
		{"{{a {{b}}", "{{ at offset 4 opens inside another placeholder", true},
		{"{{#if a}}x", "{{#if}} is never closed", true},
		{"{{#if a}}{{/each}}", "{{/each}} at offset 9 closes {{#if}}", true},
		{"{{/if}}", "{{/if}} at offset 0 closes no block", true},
	} {
		if got := checkPlaceholders(c.in, c.strict); got != c.want {
			t.Errorf("%q: %q, want %q", c.in, got, c.want)
		}
	}
}

func TestCheckDraft(t *testing.T) {
	got, problems := checkDraft("webPush", map[string]any{"title": "Hi", "body": 5, "extra": "dropped"})
	if len(problems) != 1 || problems[0] != "body must be a string" || got["title"] != "Hi" || got["extra"] != "" {
		t.Errorf("%v %v", got, problems)
	}
	_, problems = checkDraft("inApp", map[string]any{"title": " ", "message": string(make([]byte, 2001))})
	if len(problems) != 2 || problems[0] != "title is empty" || problems[1] != "message is longer than 2000 characters" {
		t.Errorf("%v", problems)
	}
	if _, problems = checkDraft("sms", map[string]any{}); len(problems) != 1 || problems[0] != "text is missing" {
		t.Errorf("%v", problems)
	}
}

package render

import (
	"strings"
	"testing"
)

func data(t *testing.T, raw string) any {
	t.Helper()
	v, err := DecodeJSON([]byte(raw))
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func TestRender(t *testing.T) {
	d := data(t, `{
		"data": {"name": "Ann & <Bob>", "count": 42, "price": 1.50, "items": [{"sku": "a"}, {"sku": "b"}, {"sku": "c"}],
		         "empty": [], "zero": 0, "flag": true, "tags": {"x": 1, "y": 2}},
		"user": {"identifier": "u1", "profile": {"name": "Zoë", "locale": "fr"}}
	}`)
	cases := []struct {
		name, src string
		html      bool
		want      string
	}{
		{"text path", "Hi {{user.profile.name}}", false, "Hi Zoë"},
		{"text is not escaped", "{{data.name}}", false, "Ann & <Bob>"},
		{"html escapes", "<b>{{data.name}}</b>", true, "<b>Ann &amp; &lt;Bob&gt;</b>"},
		{"triple is raw", "{{{data.name}}}", true, "Ann & <Bob>"},
		{"ampersand is raw", "{{& data.name}}", true, "Ann & <Bob>"},
		{"numbers as written", "{{data.count}}/{{data.price}}", false, "42/1.50"},
		{"missing is empty", "[{{data.nope.deeper}}]", false, "[]"},
		{"if/else", "{{#if data.flag}}yes{{else}}no{{/if}}{{#if data.zero}}yes{{else}}no{{/if}}", false, "yesno"},
		{"unless", "{{#unless data.empty}}none{{/unless}}", false, "none"},
		{"each with vars", "{{#each data.items}}{{@index}}:{{sku}}{{#if @last}}.{{else}},{{/if}}{{/each}}", false, "0:a,1:b,2:c."},
		{"each else", "{{#each data.empty}}x{{else}}nothing{{/each}}", false, "nothing"},
		{"each over object", "{{#each data.tags}}{{@key}}={{this}} {{/each}}", false, "x=1 y=2 "},
		{"parent and root", "{{#each data.items}}{{../user.identifier}}{{@root.data.count}} {{/each}}", false, "u142 u142 u142 "},
		{"with", "{{#with user.profile}}{{name}}/{{locale}}{{/with}}", false, "Zoë/fr"},
		{"comments", "a{{! hidden }}b{{!-- also {{hidden}} --}}c", false, "abc"},
		{"whitespace control", "a  {{~data.count~}}  b", false, "a42b"},
		{"escaped braces", `\{{data.count}}`, false, "{{data.count}}"},
		{"array index", "{{data.items.1.sku}}", false, "b"},
		{"object prints json", "{{data.tags}}", false, `{"x":1,"y":2}`},
	}
	for _, tc := range cases {
		got, err := Render(tc.src, d, Options{HTML: tc.html})
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		if got != tc.want {
			t.Errorf("%s: got %q, want %q", tc.name, got, tc.want)
		}
	}
}

func TestTranslate(t *testing.T) {
	d := data(t, `{"user": {"profile": {"name": "Zoë"}}, "data": {"key": "bye"}}`)
	tr := map[string]string{"hello": "Bonjour {{user.profile.name}}", "bye": "Au revoir", "loop": "{{t \"hello\"}}"}
	opts := Options{HTML: true, Translate: func(k string) (string, bool) { v, ok := tr[k]; return v, ok }}
	got, err := Render(`{{t "hello"}} / {{t data.key}} / {{t "<missing>"}} / {{t "loop"}}`, d, opts)
	if err != nil {
		t.Fatal(err)
	}
	want := "Bonjour Zoë / Au revoir / &lt;missing&gt; / hello"
	if got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

func TestParseErrors(t *testing.T) {
	cases := map[string]string{
		"{{#if a}}x":                       "line 1: {{#if}} is not closed (missing {{/if}})",
		"{{#if a}}x{{/each}}":              "line 1: {{/each}} does not close {{#if}} opened on line 1",
		"x\n{{/if}}":                       "line 2: {{/if}} has no matching block to close",
		"{{#loop a}}{{/loop}}":             "line 1: unknown block helper {{#loop}} (known: if, unless, each, with)",
		"{{upper name}}":                   `line 1: unknown helper "upper" (the only helper is t)`,
		"a\n\n{{name":                      "line 3: a tag opened here is not closed with }}",
		"{{{raw}}":                         "line 1: a tag opened here is not closed with }}}",
		"{{> partial}}":                    "line 1: partials ({{> partial}}) are not supported",
		"{{#if}}{{/if}}":                   "line 1: {{#if}} needs an argument",
		"{{@foo}}":                         "line 1: unknown variable @foo",
		"{{#if a}}{{else}}{{else}}{{/if}}": "line 1: {{#if}} has two {{else}}",
	}
	for src, want := range cases {
		_, err := Parse(src)
		if err == nil || err.Error() != want {
			t.Errorf("%q: got %v, want %q", src, err, want)
		}
	}
}

func TestLimits(t *testing.T) {
	big := make([]any, 2000)
	for i := range big {
		big[i] = i
	}
	d := map[string]any{"a": big}
	_, err := Render("{{#each a}}{{#each ../a}}{{/each}}{{/each}}", d, Options{})
	if err == nil || !strings.Contains(err.Error(), "too much work") {
		t.Errorf("nested loops: %v", err)
	}
	_, err = Render("{{#each a}}xxxxxxxxxx{{/each}}", d, Options{MaxOutput: 1000})
	if err == nil || !strings.Contains(err.Error(), "larger than 1000 bytes") {
		t.Errorf("output limit: %v", err)
	}
	deep := strings.Repeat("{{#if a}}", 40) + strings.Repeat("{{/if}}", 40)
	if _, err := Parse(deep); err == nil || !strings.Contains(err.Error(), "nested more than") {
		t.Errorf("depth limit: %v", err)
	}
}

func TestPrefix(t *testing.T) {
	for src, want := range map[string]string{
		"https://x/{{data.id}}": "https://x/", "javascript:alert(1)": "javascript:alert(1)",
		"{{data.link}}": "", "java{{! note }}script:{{x}}": "javascript:", `\{{x}}y`: "{{x}}y", "": "",
		"a{{#if x}}b{{/if}}": "a",
	} {
		if got := MustParse(src).Prefix(); got != want {
			t.Errorf("Prefix(%q) = %q, want %q", src, got, want)
		}
	}
}

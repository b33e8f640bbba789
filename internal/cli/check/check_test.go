package check_test

import (
	"maps"
	"strings"
	"testing"

	"github.com/heraldhq/herald/internal/cli/check"
	"github.com/heraldhq/herald/internal/cli/files"
)

// valid is a folder that passes every check.
var valid = map[string]string{
	"categories.json":                           "{\n  \"billing\": {\n    \"name\": \"Billing\"\n  }\n}\n",
	"layouts/main.json":                         "{\n  \"default\": true,\n  \"name\": \"Main\"\n}\n",
	"layouts/main.html.hbs":                     "<html>\n<body>{{{content}}}</body>\n</html>\n",
	"translations/en.json":                      "{\n  \"default\": true,\n  \"entries\": {\n    \"hi\": \"Hello {{name}}\"\n  }\n}\n",
	"templates/welcome/template.json":           "{\n  \"description\": \"\",\n  \"name\": \"Welcome\",\n  \"states\": {\n    \"done\": \"Done\"\n  }\n}\n",
	"templates/welcome/inApp.json":              "{\n  \"title\": \"Hi {{data.name}}\"\n}\n",
	"templates/welcome/email.json":              "{\n  \"layout\": \"main\",\n  \"subject\": \"Welcome\"\n}\n",
	"templates/welcome/email.html.hbs":          "<p>\nHello {{data.name}}\n</p>\n",
	"workflows/onboarding.workflow.json":        "{\n  \"$schema\": \"./workflow.schema.json\",\n  \"definition\": {\n    \"steps\": [\n      {\n        \"id\": \"hello\",\n        \"template\": \"welcome\",\n        \"type\": \"inApp\"\n      }\n    ]\n  },\n  \"name\": \"Onboarding\"\n}\n",
	"workflows/workflow.schema.json":            "{}\n",
	"templates/welcome/email.batching.json":     "{\n  \"subject\": \"{{batch.count}} updates\"\n}\n",
	"templates/welcome/email.batching.text.hbs": "You have {{batch.count}} updates\n",
}

func problems(t *testing.T, fs map[string]string) []string {
	t.Helper()
	f := &files.Folder{Files: map[string][]byte{}}
	for k, v := range fs {
		f.Files[k] = []byte(v)
	}
	set, probs := files.Parse(f)
	probs = append(probs, check.Set(set, f)...)
	out := make([]string, len(probs))
	for i, p := range probs {
		out[i] = p.String()
	}
	return out
}

func TestValidFolder(t *testing.T) {
	if p := problems(t, valid); len(p) != 0 {
		t.Fatalf("problems in a valid folder: %q", p)
	}
}

// TestEachKindOfProblem breaks the valid folder one way at a time and expects the
// problem at its file and line.
func TestEachKindOfProblem(t *testing.T) {
	cases := []struct {
		name, file, content string
		want                string
	}{
		{"JSON syntax", "templates/welcome/inApp.json", "{\n  \"title\": \"x\",\n}\n", "templates/welcome/inApp.json:3: not valid JSON"},
		{"unknown field", "templates/welcome/template.json", "{\n  \"name\": \"W\",\n  \"nmae\": \"x\"\n}\n", `templates/welcome/template.json:3: unknown field "nmae"`},
		{"wrong type", "layouts/main.json", "{\n  \"name\": 3\n}\n", "layouts/main.json:2: name must be a string"},
		{"template syntax in a body", "templates/welcome/email.html.hbs", "<p>\n{{#if data.x}}\nyes\n</p>\n", "templates/welcome/email.html.hbs:2: "},
		{"template syntax in a short field", "templates/welcome/inApp.json", "{\n  \"icon\": \"x\",\n  \"title\": \"{{#each}}\"\n}\n", "templates/welcome/inApp.json:3: content.title"},
		{"missing required field", "templates/welcome/email.json", "{\n  \"layout\": \"main\"\n}\n", "templates/welcome/email.json:1: content.subject should not be empty"},
		{"field of another channel", "templates/welcome/inApp.json", "{\n  \"title\": \"x\",\n  \"subject\": \"y\"\n}\n", "templates/welcome/inApp.json:3: content.subject is not a field of inApp content"},
		{"unknown layout", "templates/welcome/email.json", "{\n  \"subject\": \"s\",\n  \"layout\": \"nope\"\n}\n", `templates/welcome/email.json:3: layout "nope" is not in layouts/`},
		{"layout without slot", "layouts/main.html.hbs", "<html></html>", "layouts/main.html.hbs: html must contain {{{content}}}"},
		{"translation entry type", "translations/en.json", "{\n  \"default\": true,\n  \"entries\": {\n    \"hi\": 3\n  }\n}\n", "translations/en.json:4: entries.hi must be a string"},
		{"bad locale", "translations/english_US.json", "{\n  \"entries\": {}\n}\n", "translations/english_US.json: the file name is the locale"},
		{"bad category", "categories.json", "{\n  \"bad id\": {\n    \"name\": \"x\"\n  }\n}\n", `categories.json:2: category "bad id": identifier must be`},
		{"workflow template missing", "workflows/onboarding.workflow.json", "{\n  \"definition\": {\n    \"steps\": [\n      {\"id\": \"a\", \"type\": \"inApp\", \"template\": \"gone\"}\n    ]\n  },\n  \"name\": \"O\"\n}\n", `workflows/onboarding.workflow.json:4: steps[0].template: no template "gone"`},
		{"workflow step type", "workflows/onboarding.workflow.json", "{\n  \"name\": \"O\",\n  \"definition\": {\n    \"steps\": [\n      {\"id\": \"a\", \"type\": \"inApp\", \"template\": \"welcome\", \"next\": \"b\"},\n      {\"id\": \"b\", \"type\": \"delay\"}\n    ]\n  }\n}\n", "workflows/onboarding.workflow.json:6: steps[1]"},
		{"workflow name", "workflows/onboarding.workflow.json", "{\n  \"definition\": {\"steps\": [{\"id\": \"a\", \"type\": \"inApp\", \"template\": \"welcome\"}]},\n  \"name\": \"\"\n}\n", "workflows/onboarding.workflow.json:3: name must be 1-200 characters"},
		{"body field in JSON", "templates/welcome/inApp.json", "{\n  \"title\": \"t\",\n  \"message\": \"m\"\n}\n", "templates/welcome/inApp.json:3: message belongs in its own file templates/welcome/inApp.message.hbs"},
		{"orphan body", "templates/welcome/sms.body.hbs", "hi", "templates/welcome/sms.json: missing"},
		{"two default layouts", "layouts/other.json", "{\n  \"default\": true,\n  \"name\": \"O\"\n}\n", "layouts/main.json:2: only one layout can be the default"},
		{"state label", "templates/welcome/template.json", "{\n  \"name\": \"W\",\n  \"states\": {\n    \"done\": \"" + strings.Repeat("x", 101) + "\"\n  }\n}\n", "templates/welcome/template.json:4: states.done: label must be at most 100 characters"},
		{"script url", "templates/welcome/inApp.json", "{\n  \"title\": \"t\",\n  \"url\": \"JavaScript:alert(1)\"\n}\n", "templates/welcome/inApp.json:3: content.url must be an http or https URL, a relative reference or an app link (javascript: is not allowed)"},
		{"script url in a workflow", "workflows/onboarding.workflow.json", "{\n  \"name\": \"O\",\n  \"definition\": {\n    \"steps\": [\n      {\"id\": \"a\", \"type\": \"inApp\", \"content\": {\"title\": \"t\", \"url\": \"data:text/html,x\"}}\n    ]\n  }\n}\n", "workflows/onboarding.workflow.json:5: steps[0].content.url must be an http or https URL, a relative reference or an app link (data: is not allowed)"},
		{"unknown channel", "templates/welcome/pigeon.json", "{\n  \"body\": \"x\"\n}\n", "templates/welcome/pigeon.json: channel must be one of"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			fs := maps.Clone(valid)
			fs[c.file] = c.content
			if c.name == "two default layouts" {
				fs["layouts/other.html.hbs"] = "{{{content}}}"
			}
			got := problems(t, fs)
			for _, p := range got {
				if strings.HasPrefix(p, c.want) {
					return
				}
			}
			t.Errorf("want a problem starting %q; got %q", c.want, got)
		})
	}
}

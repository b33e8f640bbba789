package blocks

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"
)

func TestCheckAcceptsTheRenderedTypes(t *testing.T) {
	ok := `[
		{"type":"avatar","name":"Ann","imageUrl":"https://cdn.example/ann.png","text":"asks for approval"},
		{"type":"text","text":"**Invoice** _42_ for ` + "`ACME`" + `: [open](https://app.example/i/42)"},
		{"type":"image","url":"https://cdn.example/chart.png","alt":"Spending chart"},
		{"type":"image","image_url":"https://cdn.example/x.png","alt_text":"Slack's names"},
		{"type":"buttons","exceptStates":["approved","rejected"],"buttons":[
			{"label":"Approve","style":"primary","state":"approved"},
			{"label":"Reject","style":"secondary","state":"rejected"},
			{"label":"Open","url":"/invoices/42"}]},
		{"type":"text","states":["approved"],"text":"Approved by you"},
		{"type":"section","text":{"type":"mrkdwn","text":"a Slack block, kept"}}
	]`
	if got := Check(json.RawMessage(ok), "notification.blocks", Options{}); len(got) != 0 {
		t.Fatalf("valid blocks refused: %q", got)
	}
}

func TestCheckListsEveryProblem(t *testing.T) {
	bad := `[
		{"type":"text"},
		{"type":"image","url":"http://cdn.example/x.png"},
		{"type":"image","url":"javascript:alert(1)","alt":" "},
		{"type":"avatar","imageUrl":"data:image/png;base64,AAAA"},
		{"type":"buttons","buttons":[
			{"label":"Go","url":"javascript:alert(1)"},
			{"label":"","state":"x"},
			{"label":"Both","url":"/a","state":"b"},
			{"label":"None","style":"big"},
			{"label":"Extra","state":"y","onclick":"x"}]},
		{"type":"text","text":"[click](javascript:alert(1))","states":[]},
		"nope",
		{"text":"no type"}
	]`
	got := Check(json.RawMessage(bad), "notification.blocks", Options{})
	want := []string{
		"notification.blocks[0].text is required",
		"notification.blocks[1].url must be an https URL",
		"notification.blocks[1].alt is required",
		"notification.blocks[2].url must be an https URL",
		"notification.blocks[2].alt should not be empty (describe the image)",
		"notification.blocks[3].name is required",
		"notification.blocks[3].imageUrl must be an https URL",
		"notification.blocks[4].buttons must have 1 to 3 buttons",
		"notification.blocks[4].buttons[0].url must be an http or https URL, a relative reference or an app link (javascript: is not allowed)",
		"notification.blocks[4].buttons[1].label should not be empty",
		"notification.blocks[4].buttons[2] must have either url or state, not both",
		"notification.blocks[4].buttons[3].style must be one of primary, secondary",
		"notification.blocks[4].buttons[3] needs url or state",
		"notification.blocks[4].buttons[4].onclick is not a field of a button (fields: label, style, url, state)",
		"notification.blocks[5].states must have 1 to 10 states",
		"notification.blocks[5].text: the link must be an http or https URL, a relative reference or an app link (javascript: is not allowed)",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("problems:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if got := Check(json.RawMessage(`{}`), "x", Options{}); !reflect.DeepEqual(got, []string{"x must be an array"}) {
		t.Errorf("not an array: %q", got)
	}
	many := "[" + strings.Repeat(`{"type":"text","text":"a"},`, MaxBlocks) + `{"type":"text","text":"a"}]`
	if got := Check(json.RawMessage(many), "x", Options{}); len(got) != 1 {
		t.Errorf("too many blocks: %q", got)
	}
}

// A template's blocks: strings are templates; a URL's scheme is decided by the text before
// its first tag, the rest is checked once rendered.
func TestCheckTemplates(t *testing.T) {
	tpl := func(s string) (string, error) {
		if strings.Contains(s, "{{#") {
			return "", errors.New("line 1: {{#if}} is never closed")
		}
		if i := strings.Index(s, "{{"); i >= 0 {
			return s[:i], nil
		}
		return s, nil
	}
	raw := `[
		{"type":"image","url":"{{data.image}}","alt":"{{data.alt}}"},
		{"type":"image","url":"http://x/{{data.image}}","alt":"a"},
		{"type":"buttons","buttons":[{"label":"{{#if x}}","url":"javascript:{{data.x}}"},{"label":"Open","url":"{{data.link}}"}]}
	]`
	got := Check(json.RawMessage(raw), "content.blocks", Options{Template: tpl})
	want := []string{
		"content.blocks[1].url must be an https URL",
		"content.blocks[2].buttons[0].label: line 1: {{#if}} is never closed",
		"content.blocks[2].buttons[0].url must be an http or https URL, a relative reference or an app link (javascript: is not allowed)",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("problems:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

package v1_test

import (
	"fmt"
	"slices"
	"testing"
)

// warning is one entry of a preview's warnings.
type warning struct {
	Channel, Field, Variable, Translation, Message string
	Line                                           int
}

// TestTemplatePreviewWarnsOfMissingVariables: a preview lists each variable the contents,
// the layout and the translations use that the sample data does not hold, scoped through
// {{#each}} and {{#with}}; complete data gives none.
func TestTemplatePreviewWarnsOfMissingVariables(t *testing.T) {
	f := newFixture(t)
	app := f.appPath
	f.do(t, f.dev, "POST", app+"/layouts", map[string]any{"identifier": "brand",
		"html": "<main>{{{content}}}\n<footer>{{user.profile.company}}</footer></main>", "text": "{{{content}}}"}, 201)
	f.do(t, f.dev, "POST", app+"/translations", map[string]any{"locale": "en", "default": true, "entries": map[string]string{"hello": "Hello {{user.profile.firstName}}"}}, 201)
	tpl := int64(must(t, f.Do("POST", app+"/templates", map[string]any{"identifier": "order", "name": "Order"}, bearer(f.dev)), 201, "template").Map(t)["id"].(float64))
	tp := fmt.Sprintf("/v1/templates/%d", tpl)
	f.do(t, f.dev, "PUT", tp+"/contents/email", map[string]any{"layoutIdentifier": "brand", "content": map[string]string{
		"subject": "{{t \"hello\"}}: order {{data.orderId}}",
		"html":    "<ul>{{#each data.items}}<li>{{name}} {{price}}</li>{{/each}}</ul>\n{{#with data.shipping}}{{carrier}} {{eta}}{{/with}}{{#if data.coupon}}{{data.coupon}}{{/if}}",
		"text":    "{{#each data.items}}{{name}}{{else}}no items{{/each}}",
	}}, 200)
	f.do(t, f.dev, "PUT", tp+"/contents/inApp", map[string]any{"content": map[string]string{"title": "Order {{data.orderId}}", "url": "/orders/{{data.orderId}}"}}, 200)

	preview := func(body map[string]any) (int, []warning, map[string]map[string]string) {
		res := f.Do("POST", tp+"/preview", body, bearer(f.viewer))
		var p struct {
			Channels map[string]map[string]string
			Warnings []warning
		}
		if res.Status == 200 {
			res.JSON(t, &p)
		}
		return res.Status, p.Warnings, p.Channels
	}
	partial := map[string]any{"data": map[string]any{"items": []any{map[string]any{"name": "Pen", "price": 2}, map[string]any{"name": "Ink"}},
		"shipping": map[string]any{"carrier": "Posten"}}}
	status, got, channels := preview(partial)
	if status != 200 {
		t.Fatalf("preview: %d", status)
	}
	w := func(ch, field, variable string, line int, tr string) warning {
		return warning{Channel: ch, Field: field, Variable: variable, Line: line, Translation: tr, Message: "variable " + variable + " is not in the data"}
	}
	want := []warning{
		w("inApp", "title", "data.orderId", 1, ""),
		w("inApp", "url", "data.orderId", 1, ""),
		w("email", "subject", "user.profile.firstName", 1, "hello"),
		w("email", "subject", "data.orderId", 1, ""),
		w("email", "html", "data.items[*].price", 1, ""),
		w("email", "html", "data.shipping.eta", 2, ""),
		w("email", "layout.html", "user.profile.company", 2, ""),
	}
	if !slices.Equal(got, want) {
		t.Errorf("warnings\n got %+v\nwant %+v", got, want)
	}
	if channels["email"]["subject"] != "Hello : order " || channels["inApp"]["title"] != "Order " {
		t.Errorf("the preview still renders the blanks: %v", channels)
	}

	// Complete data: no warnings (null counts as given; {{#if}} tests need no value).
	complete := map[string]any{"data": map[string]any{"orderId": 7, "items": []any{map[string]any{"name": "Pen", "price": 2}},
		"shipping": map[string]any{"carrier": "Posten", "eta": nil}},
		"user": map[string]any{"identifier": "zoe", "profile": map[string]any{"firstName": "Zoë", "company": "Acme"}}}
	if status, got, _ := preview(complete); status != 200 || got == nil || len(got) != 0 {
		t.Errorf("complete data: %d %+v", status, got)
	}
	// Only the channels asked for are checked.
	if _, got, _ := preview(map[string]any{"channels": []string{"inApp"}, "data": map[string]any{}}); len(got) != 2 || got[0].Channel != "inApp" || got[1].Channel != "inApp" {
		t.Errorf("inApp only: %+v", got)
	}

	// Errors, auth and tenancy are those of the preview route.
	if res := f.Do("POST", tp+"/preview", map[string]any{"data": "x"}, bearer(f.viewer)); res.Status != 400 {
		t.Errorf("bad data: %d %s", res.Status, res.Body)
	}
	if res := f.Do("POST", tp+"/preview", partial, nil); res.Status != 401 {
		t.Errorf("no token: %d", res.Status)
	}
	if res := f.Do("POST", tp+"/preview", partial, bearer(f.stranger)); res.Status != 404 {
		t.Errorf("another client's member: %d %s", res.Status, res.Body)
	}
	if res := f.Do("POST", "/v1/templates/999999/preview", partial, bearer(f.viewer)); res.Status != 404 {
		t.Errorf("unknown template: %d", res.Status)
	}
}

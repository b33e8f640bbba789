package render

import (
	"slices"
	"testing"
)

func TestMissingReportsWhatTheDataDoesNotHold(t *testing.T) {
	d := data(t, `{"data": {"name": "Ann", "nothing": null, "items": [{"sku": "a"}, {"sku": "b", "price": 2}], "tags": {"x": {"n": 1}}, "empty": []},
		"user": {"identifier": "u1", "profile": {"locale": "fr"}}, "category": null}`)
	cases := []struct {
		name, src string
		want      []Missing
	}{
		{"present, null and @vars are not missing", "{{data.name}}{{data.nothing}}{{user.profile.locale}}{{#each data.items}}{{@index}}{{this.sku}}{{/each}}{{@index}}", nil},
		{"absent keys", "Hi {{user.profile.firstName}}\n{{data.name.first}} {{category.name}} {{nope}}", []Missing{
			{Path: "user.profile.firstName", Line: 1}, {Path: "data.name.first", Line: 2}, {Path: "category.name", Line: 2}, {Path: "nope", Line: 2}}},
		{"each scopes its elements", "{{#each data.items}}{{sku}}{{price}}{{../user.nickname}}{{@root.data.name}}{{/each}}", []Missing{
			{Path: "data.items[*].price", Line: 1}, {Path: "user.nickname", Line: 1}}},
		{"each over an object", "{{#each data.tags}}{{n}}{{m}}{{/each}}", []Missing{{Path: "data.tags[*].m", Line: 1}}},
		{"with scopes", "{{#with user.profile}}\n{{locale}} {{firstName}}{{/with}}", []Missing{{Path: "user.profile.firstName", Line: 2}}},
		{"nested with and each", "{{#with data}}{{#each items}}{{#with this}}{{colour}}{{/with}}{{/each}}{{/with}}", []Missing{
			{Path: "data.items[*].colour", Line: 1}}},
		{"array index", "{{data.items.1.sku}}{{data.items.5.sku}}", []Missing{{Path: "data.items.5.sku", Line: 1}}},
		{"each/with over an absent path without else", "{{#each data.rows}}x{{/each}}{{#with data.address}}{{city}}{{/with}}", []Missing{
			{Path: "data.rows", Line: 1}, {Path: "data.address", Line: 1}}},
		{"else handles absence; if never reports", "{{#each data.rows}}x{{else}}none{{/each}}{{#if data.vip}}{{data.vip}}{{/if}}{{#unless data.vip}}-{{/unless}}", nil},
		{"empty each body does not run", "{{#each data.empty}}{{missing}}{{/each}}", nil},
		{"t with a path", `{{t data.key}}{{t "literal"}}`, []Missing{{Path: "data.key", Line: 1}}},
		{"inside a translation", "\n{{t \"hello\"}}", []Missing{{Path: "user.profile.name", Line: 2, Translation: "hello"}}},
	}
	for _, tc := range cases {
		var got []Missing
		_, err := Render(tc.src, d, Options{Missing: func(m Missing) { got = append(got, m) },
			Translate: func(key string) (string, bool) { return "Bonjour {{user.profile.name}}", key == "hello" }})
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("%s:\n got %+v\nwant %+v", tc.name, got, tc.want)
		}
	}
}

// TestMissingDoesNotChangeTheOutput: rendering with a Missing hook prints exactly what it
// prints without one.
func TestMissingDoesNotChangeTheOutput(t *testing.T) {
	d := data(t, `{"data": {"items": [{"sku": "a"}, {"sku": "b"}]}, "user": {"profile": {}}}`)
	src := "{{#each data.items}}{{sku}}{{price}},{{/each}}{{#with user.profile}}{{name}}{{/with}}[{{nope.x}}]"
	plain, err := Render(src, d, Options{HTML: true})
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	hooked, err := Render(src, d, Options{HTML: true, Missing: func(Missing) { n++ }})
	if err != nil || hooked != plain || n != 3 {
		t.Errorf("with the hook %q (%d reports, want 3: one per reference), without %q, err %v", hooked, n, plain, err)
	}
}

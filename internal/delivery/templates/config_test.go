package templates

import (
	"context"
	"encoding/json"
	"testing"

	herald "github.com/heraldhq/herald"
)

func TestBatchingContentRendersForDigests(t *testing.T) {
	s, app, other := setup(t)
	ctx := context.Background()
	tpl, _ := s.Create(ctx, app, TemplateInput{Identifier: "comment"})
	if _, err := s.SetBatchingContent(ctx, app, tpl.ID, "inApp", json.RawMessage(`{"title":"x"}`)); herald.ErrorCode(err) != herald.ECONFLICT {
		t.Errorf("batching content before content: %v", err)
	}
	if _, err := s.SetContent(ctx, app, tpl.ID, "inApp", ContentInput{Fields: json.RawMessage(`{"title":"{{data.author}} commented"}`)}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.SetBatchingContent(ctx, other, tpl.ID, "inApp", json.RawMessage(`{"title":"x"}`)); herald.ErrorCode(err) != herald.ENOTFOUND {
		t.Errorf("another app's template: %v", err)
	}
	c, err := s.SetBatchingContent(ctx, app, tpl.ID, "inApp", json.RawMessage(`{"title":"{{batch.count}} new comments{{#each batch.items}} {{author}}{{/each}}"}`))
	if err != nil || c.Batching["title"] == "" {
		t.Fatalf("%+v %v", c, err)
	}
	b, err := s.Bundle(ctx, app, "comment", herald.Content{TemplateIdentifier: "comment"})
	if err != nil {
		t.Fatal(err)
	}
	send, _ := SendData(json.RawMessage(`{"author":"Ann"}`), app, "App", nil, herald.Content{})
	one := Recipient(send, "u", nil)
	if r, _ := b.Render(ctx, "inApp", one); r.Title != "Ann commented" {
		t.Errorf("single: %q", r.Title)
	}
	digest := Recipient(send, "u", nil)
	digest["batch"] = map[string]any{"count": 2.0, "items": []any{map[string]any{"author": "Ann"}, map[string]any{"author": "Bo"}}}
	if r, _ := b.Render(ctx, "inApp", digest); r.Title != "2 new comments Ann Bo" {
		t.Errorf("digest: %q", r.Title)
	}
	// Removing it falls back to the main content for digests too.
	if _, err := s.SetBatchingContent(ctx, app, tpl.ID, "inApp", nil); err != nil {
		t.Fatal(err)
	}
	b, _ = s.Bundle(ctx, app, "comment", herald.Content{TemplateIdentifier: "comment"})
	if r, _ := b.Render(ctx, "inApp", digest); r.Title != "Ann commented" {
		t.Errorf("after removal: %q", r.Title)
	}
}

func TestInAppStringsFallBack(t *testing.T) {
	s, app, _ := setup(t)
	ctx := context.Background()
	got, err := s.InApp(ctx, app, "de")
	if err != nil || got.Locale != "" || got.Translations["title"] != "Notifications" {
		t.Fatalf("built-in only: %+v %v", got, err)
	}
	for locale, entries := range map[string]string{
		"en":    `{"inapp.title":"Inbox","inapp.custom":"Custom","other":"not UI"}`,
		"pt":    `{"inapp.title":"Caixa","inapp.empty":"Nada"}`,
		"pt-BR": `{"inapp.title":"Caixa de entrada"}`,
	} {
		if _, err := s.PutTranslation(ctx, app, locale, TranslationInput{Entries: json.RawMessage(entries), Default: locale == "en"}); err != nil {
			t.Fatal(err)
		}
	}
	got, _ = s.InApp(ctx, app, "pt-BR")
	tr := got.Translations
	if got.Locale != "pt-BR" || tr["title"] != "Caixa de entrada" || tr["empty"] != "Nada" || tr["custom"] != "Custom" || tr["other"] != "" || tr["loadMore"] != "Load more" {
		t.Errorf("pt-BR: %+v", got)
	}
}

package v1_test

import (
	"fmt"
	"slices"
	"testing"
)

// Publishing a commit keeps the target's sealed secrets, so it keeps the destinations they
// were entered for: a development app whose SendGrid instance points elsewhere cannot move
// production's stored API key there by publishing; the publish says so.
func TestPublishingKeepsTheTargetsDestinations(t *testing.T) {
	f := newFixture(t)
	dev := f.appPath
	prodID := int64(f.app2(t, "Production")["id"].(float64))
	prod := fmt.Sprintf("/v1/apps/%d", prodID)
	devInst := id(t, f.do(t, f.dev, "POST", dev+"/channels/email/providerInstances", map[string]any{"providerIdentifier": "sendgrid", "name": "sg",
		"config": map[string]any{"apiKey": "dev-key-1", "from": "a@acme.test"}}, 201))
	type published struct{ Warnings []string }
	publish := func() published {
		c := id(t, f.do(t, f.dev, "POST", dev+"/commits", map[string]any{"message": "m"}, 201))
		var pub published
		f.do(t, f.admin, "POST", dev+"/publish", map[string]any{"commitId": c, "publishTo": prodID}, 200).JSON(t, &pub)
		return pub
	}
	publish()
	var list []map[string]any
	f.do(t, f.viewer, "GET", prod+"/channels/email/providerInstances", nil, 200).JSON(t, &list)
	if len(list) != 1 {
		t.Fatalf("production instances %v", list)
	}
	prodInst := fmt.Sprintf("%s/channels/email/providerInstances/%v", prod, list[0]["id"])
	f.do(t, f.dev, "PATCH", prodInst, map[string]any{"config": map[string]any{"apiKey": "prod-key-1"}, "enabled": true}, 200)

	// Development is re-pointed (by an admin, with its key entered again) and published.
	f.do(t, f.admin, "PATCH", fmt.Sprintf("%s/channels/email/providerInstances/%d", dev, devInst),
		map[string]any{"config": map[string]any{"baseUrl": "https://1.2.3.4", "apiKey": "dev-key-2", "fromName": "Acme"}}, 200)
	pub := publish()
	want := "provider instance email/sg keeps its own baseUrl: its stored secrets are not sent to another destination (change it in this app, entering them again)"
	if !slices.Contains(pub.Warnings, want) {
		t.Errorf("warnings %q, want %q", pub.Warnings, want)
	}
	got := f.do(t, f.viewer, "GET", prodInst, nil, 200).Map(t)
	cfg := got["config"].(map[string]any)
	if _, moved := cfg["baseUrl"]; moved || cfg["apiKey"] != "********" || cfg["fromName"] != "Acme" || got["enabled"] != true {
		t.Errorf("production after publishing: %v", got)
	}
}

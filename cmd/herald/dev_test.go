package main

import (
	"fmt"
	"testing"

	"github.com/heraldhq/herald/internal/testkit/stacktest"
)

func TestMain(m *testing.M) { stacktest.Main(m) }

// TestDevConsoleAccountOwnsTheDemoApp: after `herald dev`'s set-up the printed account
// signs in and sees the demo app in its team; running it again changes nothing.
func TestDevConsoleAccountOwnsTheDemoApp(t *testing.T) {
	e := stacktest.New(t, stacktest.Options{})
	ctx := t.Context()
	creds, err := demoApp(ctx, e.Stack)
	if err != nil {
		t.Fatal(err)
	}
	for range 2 {
		if err := devConsoleAccount(ctx, e.Stack, creds.AppID); err != nil {
			t.Fatal(err)
		}
	}
	res := e.Do("POST", "/v1/auth?redirect=/", map[string]string{"email": devConsoleEmail, "password": devConsolePassword}, nil)
	if res.Status != 200 {
		t.Fatalf("sign in: %d %s", res.Status, res.Body)
	}
	tok := stacktest.Bearer(res.Map(t)["accessToken"].(string))
	var clients []struct {
		ID   int64
		Name string
		Role string
	}
	e.Do("GET", "/v1/clients", nil, tok).JSON(t, &clients)
	if len(clients) != 1 || clients[0].Name != devTeamName || clients[0].Role != "owner" {
		t.Fatalf("clients: %+v", clients)
	}
	var apps []struct {
		ID     int64
		APIKey string `json:"apiKey"`
	}
	e.Do("GET", fmt.Sprintf("/v1/clients/%d/apps", clients[0].ID), nil, tok).JSON(t, &apps)
	if len(apps) != 1 || apps[0].ID != creds.AppID || apps[0].APIKey != creds.APIKey {
		t.Errorf("apps of the demo team: %+v (demo app %d)", apps, creds.AppID)
	}
}

package main

import (
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"
	"testing"
	"time"

	"github.com/heraldhq/herald/internal/platform/config"
	"github.com/heraldhq/herald/internal/platform/devenv"
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

func TestDevCodecEndpointAndUIOrigins(t *testing.T) {
	cfg := config.Defaults()
	for addr, want := range map[string]string{"127.0.0.1:8080": "http://127.0.0.1:8080/codec", "0.0.0.0:9000": "http://localhost:9000/codec", ":7000": "http://localhost:7000/codec"} {
		cfg.HTTPAddr = addr
		if got := devCodecEndpoint(cfg); got != want {
			t.Errorf("%s: %s, want %s", addr, got, want)
		}
	}
	cfg.PublicURL = "https://herald.example.com/"
	if got := devCodecEndpoint(cfg); got != "https://herald.example.com/codec" {
		t.Errorf("with a public URL: %s", got)
	}
	if got := fmt.Sprint(devUIOrigins("http://127.0.0.1:8233")); got != "[http://127.0.0.1:8233 http://localhost:8233]" {
		t.Errorf("origins %s", got)
	}
}

// herald dev starts the Temporal dev server with its Web UI pointed at the API's codec
// server: the UI's settings (what its pages read) name the endpoint.
func TestDevTemporalUIUsesTheCodecServer(t *testing.T) {
	cli, err := stacktest.TemporalCLI()
	if err != nil {
		if os.Getenv("HERALD_REQUIRE_INTEGRATION") != "" {
			t.Fatal(err)
		}
		t.Skip(err)
	}
	port, err := devenv.FreePort()
	if err != nil {
		t.Fatal(err)
	}
	cfg := config.Defaults()
	cfg.TemporalCLI, cfg.DataDir = cli, t.TempDir()
	cfg.TemporalAddress = fmt.Sprintf("127.0.0.1:%d", port)
	cfg.HTTPAddr = "0.0.0.0:18080"
	endpoint := devCodecEndpoint(cfg)
	srv, err := devTemporal(t.Context(), cfg, endpoint, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Stop)
	var settings struct {
		Codec struct{ Endpoint string }
	}
	var body []byte
	for range 100 { // the UI server may answer a moment after the frontend
		res, err := http.Get(srv.UIURL + "/api/v1/settings")
		if err == nil {
			body, _ = io.ReadAll(res.Body)
			res.Body.Close()
			if res.StatusCode == 200 && json.Unmarshal(body, &settings) == nil {
				break
			}
		}
		time.Sleep(100 * time.Millisecond)
	}
	if settings.Codec.Endpoint != "http://localhost:18080/codec" {
		t.Errorf("the dev server's UI decodes through %q, want the API's /codec (settings %.300s)", settings.Codec.Endpoint, body)
	}
}

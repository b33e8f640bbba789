package config

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// A Herald process refuses a HERALD_SECRET_KEY that is short, published or a placeholder,
// naming the variable, and accepts a random one of 32 characters or more.
func TestSecretKeyMustBeLongAndUnpublished(t *testing.T) {
	for key, want := range map[string]string{
		"0123456789abcdef0123":                       "published example",
		"change-me-to-a-long-random-string":          "published example",
		"CHANGE-ME":                                  "published example",
		"$(openssl rand -base64 32)":                 "published example",
		"please-change-me-before-production-use":     "placeholder",
		"replace-me-with-a-random-value-of-32-chars": "placeholder",
		"s3cret-key-0123456789":                      "at least 32 characters, got 21",
		"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa":       "repeats one character",
	} {
		_, err := Load(env(map[string]string{"HERALD_SECRET_KEY": key}))
		if err == nil || !strings.Contains(err.Error(), "HERALD_SECRET_KEY") || !strings.Contains(err.Error(), want) {
			t.Errorf("HERALD_SECRET_KEY=%q: %v, want an error saying %q", key, err, want)
		}
	}
	for _, key := range []string{"tX9vQ2mL7wR4kP8zN1cB6yH3jF5dS0aG", "kXr1b9yZ0m0vWQ0pZ3y0w8n0Kx1cYb2dQm3h6fJ5sT4="} {
		if c, err := Load(env(map[string]string{"HERALD_SECRET_KEY": key})); err != nil || c.SecretKey != key {
			t.Errorf("HERALD_SECRET_KEY=%q: %v", key, err)
		}
	}
	// Unset stays allowed: herald dev generates .data/secret.key (43 random characters),
	// and api/worker refuse to open without a key (stack.SecretKey).
	if _, err := Load(env(nil)); err != nil {
		t.Errorf("no key: %v", err)
	}
}

// Every value the repository shows for HERALD_SECRET_KEY — in the README, the docs, the
// compose file and the config example — is refused, so copying one is caught at start.
func TestPublishedSecretKeysAreRefused(t *testing.T) {
	root := filepath.Join("..", "..", "..")
	files, _ := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	files = append(files, filepath.Join(root, "README.md"), filepath.Join(root, "docker-compose.yml"))
	value := regexp.MustCompile("HERALD_SECRET_KEY(?:[=:]\\s*|:-|`\\s*\\|[^|]*\\|[^|]*\\|\\s*`)([^\\s`}|\"']+)")
	found := map[string]bool{}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range value.FindAllStringSubmatch(string(b), -1) {
			if v := m[1]; !strings.HasPrefix(v, "${") && !strings.HasPrefix(v, "$(") && !strings.HasPrefix(v, "<") {
				found[v] = true
			}
		}
	}
	found[byField["SecretKey"].Example] = true
	for v := range found {
		if err := CheckSecretKey(v); err == nil {
			t.Errorf("HERALD_SECRET_KEY=%q appears in the repository and is accepted", v)
		}
	}
	t.Logf("%d published values, all refused", len(found))
}

// /metrics stays off the public API by default: its own listener on loopback, and on the
// API only with a token of at least 32 characters.
func TestMetricsDefaultToLoopback(t *testing.T) {
	def := Defaults()
	if !def.Ops.Metrics || def.Ops.MetricsAddr != "127.0.0.1:9464" || def.Ops.MetricsToken != "" {
		t.Errorf("defaults: metrics %v at %q token %q", def.Ops.Metrics, def.Ops.MetricsAddr, def.Ops.MetricsToken)
	}
	for vars, want := range map[string]string{
		"HERALD_METRICS_ADDR=off":          "HERALD_METRICS_ADDR=off needs HERALD_METRICS_TOKEN",
		"HERALD_METRICS_ADDR=9464":         `HERALD_METRICS_ADDR must be host:port or off, got "9464"`,
		"HERALD_METRICS_TOKEN=short-token": "HERALD_METRICS_TOKEN must be at least 32 characters",
	} {
		k, v, _ := strings.Cut(vars, "=")
		if _, err := Load(env(map[string]string{k: v})); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", vars, err, want)
		}
	}
	tok := "mtok-4f9a0c2e7b1d6a3f8e5c0b9d2a7f4e1c"
	c, err := Load(env(map[string]string{"HERALD_METRICS_ADDR": "off", "HERALD_METRICS_TOKEN": tok}))
	if err != nil || c.Ops.MetricsAddr != "" || c.Ops.MetricsToken != tok {
		t.Errorf("addr off with a token: %q %v", c.Ops.MetricsAddr, err)
	}
	if _, err := Load(env(map[string]string{"HERALD_METRICS_ADDR": "off", "HERALD_METRICS": "false"})); err != nil {
		t.Errorf("metrics off: %v", err)
	}
}

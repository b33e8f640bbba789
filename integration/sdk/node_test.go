package sdk_test

import (
	"context"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/pem"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/heraldhq/herald/internal/platform/config"
	"github.com/heraldhq/herald/internal/testkit/stacktest"
)

// nodeSDK is the Node/TypeScript SDK's package directory.
const nodeSDK = "../../sdk/node"

// TestNodeSDKAgainstAStack runs the Node SDK's stack suite (sdk/node/test/stack, on node's
// own test runner) against real stacks: one with the worker and relay on the Temporal dev
// server, one with a send rate limit for the 429. Each stack sits behind checkingProxy, so
// every exchange is checked against the OpenAPI document as the Go SDK's are. The
// test builds the package first (npm ci when node_modules is stale, then tsc), so it tests
// the sources of this commit.
func TestNodeSDKAgainstAStack(t *testing.T) {
	node, npm := nodeTools(t)
	buildNodeSDK(t, npm, node)

	e := stacktest.New(t, stacktest.Options{Temporal: true})
	ctx := context.Background()
	secure := e.NewApp("secure")
	securePEM, _, err := e.Stack.Apps.GenerateRSAKey(ctx, secure.AppID)
	if err != nil {
		t.Fatal(err)
	}
	if err := e.Stack.Apps.SetSecureAuth(ctx, secure.AppID, true); err != nil {
		t.Fatal(err)
	}
	other, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	otherDER, err := x509.MarshalPKCS8PrivateKey(other)
	if err != nil {
		t.Fatal(err)
	}
	otherPEM := pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: otherDER})
	// 250 inbox rows written directly: the walk is what is tested, not 250 deliveries.
	e.Must(e.Do("PUT", "/v3/users/pager", map[string]any{"name": "Pager"}, e.AppHeaders()), 200, "create pager")
	if _, err := e.Stack.DB.Pool.Exec(ctx, `INSERT INTO notifications (app_id, user_id, request_id, title)
		SELECT u.app_id, u.id, gen_random_uuid(), 'n' || g FROM users u, generate_series(1, 250) g
		WHERE u.app_id = $1 AND u.identifier = 'pager'`, e.App.AppID); err != nil {
		t.Fatal(err)
	}
	limited := stacktest.New(t, stacktest.Options{Configure: func(c *config.Config) {
		c.SendRateLimit, c.SendRateBurst = 0.5, 1 // one send now, the next two seconds later
	}})

	// An app with the deprecated HMAC user signature turned on.
	hmacApp := e.NewApp("hmac")
	if err := e.Stack.Apps.SetHMACAuth(ctx, hmacApp.AppID, true); err != nil {
		t.Fatal(err)
	}

	env := []string{
		"HERALD_URL=" + checkingProxy(t, e.BaseURL),
		"HERALD_API_KEY=" + e.App.APIKey,
		"HERALD_API_SECRET=" + e.App.APISecret,
		"HERALD_TEST_SECURE_API_KEY=" + secure.APIKey,
		"HERALD_TEST_SECURE_API_SECRET=" + secure.APISecret,
		"HERALD_TEST_SECURE_PRIVATE_KEY=" + securePEM,
		"HERALD_TEST_OTHER_PRIVATE_KEY=" + string(otherPEM),
		"HERALD_TEST_LIMITED_URL=" + checkingProxy(t, limited.BaseURL),
		"HERALD_TEST_LIMITED_API_KEY=" + limited.App.APIKey,
		"HERALD_TEST_LIMITED_API_SECRET=" + limited.App.APISecret,
		"HERALD_TEST_HMAC_API_KEY=" + hmacApp.APIKey,
		"HERALD_TEST_HMAC_API_SECRET=" + hmacApp.APISecret,
		"HERALD_TEST_PAGER=pager",
	}
	runCtx, cancel := context.WithTimeout(ctx, 4*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(runCtx, node, "--test", "--test-reporter=spec", filepath.Join("build", "test", "stack", "stack.test.js"))
	cmd.Dir = nodeSDK
	cmd.Env = append(withoutHerald(os.Environ()), env...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("the Node SDK's stack suite failed (%v):\n%s", err, out)
	}
	t.Logf("the Node SDK's stack suite:\n%s", out)
	if !strings.Contains(string(out), "ℹ fail 0") || !strings.Contains(string(out), "ℹ skipped 0") {
		t.Fatalf("the Node suite did not run every test:\n%s", out)
	}
}

// nodeTools finds node and npm; without them the test is skipped, unless
// HERALD_REQUIRE_INTEGRATION is set (as `make test` does).
func nodeTools(t *testing.T) (node, npm string) {
	t.Helper()
	node, err1 := exec.LookPath("node")
	npm, err2 := exec.LookPath("npm")
	if err1 != nil || err2 != nil {
		if os.Getenv("HERALD_REQUIRE_INTEGRATION") != "" {
			t.Fatalf("node and npm are needed for the Node SDK's suite: %v %v", err1, err2)
		}
		t.Skip("skipping: no node or npm on PATH")
	}
	return node, npm
}

// buildNodeSDK installs the package's dev dependencies from its lockfile when they are
// stale (as the Makefile does), transpiles dist/ and build/test without type checking
// (make test-sdk-node type-checks).
func buildNodeSDK(t *testing.T, npm, node string) {
	t.Helper()
	lock, err := os.Stat(filepath.Join(nodeSDK, "package-lock.json"))
	if err != nil {
		t.Fatal(err)
	}
	if installed, err := os.Stat(filepath.Join(nodeSDK, "node_modules", ".package-lock.json")); err != nil || installed.ModTime().Before(lock.ModTime()) {
		run(t, npm, "ci", "--no-audit", "--no-fund", "--loglevel=error")
	}
	run(t, node, filepath.Join("scripts", "build.mjs"), "--fast", "--tests")
}

func run(t *testing.T, name string, args ...string) {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = nodeSDK
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%s %s: %v\n%s", filepath.Base(name), strings.Join(args, " "), err, out)
	}
}

// withoutHerald drops the developer's own HERALD_* variables, so the suite sees only the
// test's.
func withoutHerald(env []string) []string {
	out := env[:0:0]
	for _, kv := range env {
		if !strings.HasPrefix(kv, "HERALD_") {
			out = append(out, kv)
		}
	}
	return out
}

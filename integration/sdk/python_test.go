package sdk_test

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/json"
	"encoding/pem"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/heraldhq/herald/internal/audience/userjwt"
	"github.com/heraldhq/herald/internal/platform/config"
	"github.com/heraldhq/herald/internal/testkit/stacktest"
	herald "github.com/heraldhq/herald/sdk/go"
)

// checkingProxy forwards every request to upstream through the contract check, so each
// exchange of the Python SDK is checked against the OpenAPI document as the Go SDK's are.
func checkingProxy(t *testing.T, upstream string) string {
	t.Helper()
	rt := checkedTransport(t)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(r.Body)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadGateway)
			return
		}
		var rd io.Reader
		if len(body) > 0 {
			rd = bytes.NewReader(body)
		}
		out, err := http.NewRequestWithContext(r.Context(), r.Method, upstream+r.URL.RequestURI(), rd)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadGateway)
			return
		}
		out.Header = r.Header.Clone()
		res, err := rt.RoundTrip(out)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadGateway)
			return
		}
		defer res.Body.Close()
		for k, v := range res.Header {
			w.Header()[k] = v
		}
		w.WriteHeader(res.StatusCode)
		_, _ = io.Copy(w, res.Body)
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

// pythonResults is what the Python suite reports for the checks made on the Go side.
type pythonResults struct {
	// ResetSendRequestID is the requestId the SDK got for the send whose first answer was lost.
	ResetSendRequestID string `json:"resetSendRequestId"`
	// Tokens are user JWTs the SDK signed with the Go-made keys, by key format.
	Tokens map[string]string `json:"tokens"`
}

// TestPythonSDK runs the Python SDK's stack suite (sdk/python/stacktests) with the system
// python3 against a real stack: the API, worker and relay on the Temporal dev server, and
// a second stack with a send rate limit for the 429 test. The suite covers a send reaching
// the inbox (and the rest of the API), one delivery after a connection reset loses the first
// answer, the 400 problem list, a 429 retried, an SDK-signed token reading the inbox in
// secure mode (and the deprecated HMAC signature) and the iterator walking 250 notifications. Go then checks what only it can:
// the reset proxy's lost answer, and the SDK's tokens against the server's own verifier.
func TestPythonSDK(t *testing.T) {
	python := os.Getenv("HERALD_TEST_PYTHON")
	if python == "" {
		python = "python3"
	}
	if _, err := exec.LookPath(python); err != nil {
		if os.Getenv("HERALD_REQUIRE_INTEGRATION") != "" {
			t.Fatalf("no %s: the Python SDK's suite needs Debian's python3 (.ci/run installs it)", python)
		}
		t.Skipf("skipping: no %s", python)
	}
	ctx := context.Background()
	e := stacktest.New(t, stacktest.Options{Temporal: true})
	limited := stacktest.New(t, stacktest.Options{Configure: func(c *config.Config) {
		c.SendRateLimit, c.SendRateBurst = 0.5, 1 // one send now, the next two seconds later
	}})
	dir := t.TempDir()
	write := func(name, content string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}

	// Secure mode: an app whose user routes need a user JWT, and its key as the console
	// hands it out (PKCS #1 PEM).
	secure := e.NewApp("secure")
	securePEM, _, err := e.Stack.Apps.GenerateRSAKey(ctx, secure.AppID)
	if err != nil {
		t.Fatal(err)
	}
	if err := e.Stack.Apps.SetSecureAuth(ctx, secure.AppID, true); err != nil {
		t.Fatal(err)
	}
	// An app with the deprecated HMAC user signature turned on.
	hmacApp := e.NewApp("hmac")
	if err := e.Stack.Apps.SetHMACAuth(ctx, hmacApp.AppID, true); err != nil {
		t.Fatal(err)
	}
	// A key made by Go's crypto, in both PEM forms: the SDK signs with each, Go verifies.
	goKey, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	pkcs8, err := x509.MarshalPKCS8PrivateKey(goKey)
	if err != nil {
		t.Fatal(err)
	}
	// 250 inbox rows for "pager", written directly: the walk is tested, not 250 deliveries.
	if _, err := client(t, e).PutUser(ctx, "pager", herald.Profile{"name": "Pager"}); err != nil {
		t.Fatal(err)
	}
	if _, err := e.Stack.DB.Pool.Exec(ctx, `INSERT INTO notifications (app_id, user_id, request_id, title)
		SELECT u.app_id, u.id, gen_random_uuid(), 'n' || g FROM users u, generate_series(1, 250) g
		WHERE u.app_id = $1 AND u.identifier = 'pager'`, e.App.AppID); err != nil {
		t.Fatal(err)
	}
	proxy := newResetProxy(t, e.BaseURL)
	results := filepath.Join(dir, "results.json")

	runCtx, cancel := context.WithTimeout(ctx, 4*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(runCtx, python, "-m", "unittest", "-v", "stacktests.test_stack")
	cmd.Dir = filepath.Join("..", "..", "sdk", "python")
	cmd.Env = append(os.Environ(),
		"PYTHONDONTWRITEBYTECODE=1",
		"HERALD_TEST_STACK=1",
		"HERALD_URL="+checkingProxy(t, e.BaseURL),
		"HERALD_API_KEY="+e.App.APIKey,
		"HERALD_API_SECRET="+e.App.APISecret,
		"HERALD_TEST_RESET_URL=http://"+proxy.ln.Addr().String(),
		"HERALD_TEST_LIMITED_URL="+checkingProxy(t, limited.BaseURL),
		"HERALD_TEST_LIMITED_API_KEY="+limited.App.APIKey,
		"HERALD_TEST_LIMITED_API_SECRET="+limited.App.APISecret,
		"HERALD_TEST_SECURE_API_KEY="+secure.APIKey,
		"HERALD_TEST_SECURE_API_SECRET="+secure.APISecret,
		"HERALD_TEST_SECURE_KEY_FILE="+write("secure.pem", securePEM),
		"HERALD_TEST_HMAC_API_KEY="+hmacApp.APIKey,
		"HERALD_TEST_HMAC_API_SECRET="+hmacApp.APISecret,
		"HERALD_TEST_GO_PKCS1_FILE="+write("go-pkcs1.pem", string(pem.EncodeToMemory(&pem.Block{Type: "RSA PRIVATE KEY", Bytes: x509.MarshalPKCS1PrivateKey(goKey)}))),
		"HERALD_TEST_GO_PKCS8_FILE="+write("go-pkcs8.pem", string(pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: pkcs8}))),
		"HERALD_TEST_RESULTS="+results,
	)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("the Python SDK's stack suite failed (%v):\n%s", err, out)
	}
	t.Logf("python suite:\n%s", out)
	if !strings.Contains(string(out), "OK") || strings.Contains(string(out), "skipped") {
		t.Fatalf("the Python suite did not run every test:\n%s", out)
	}

	raw, err := os.ReadFile(results)
	if err != nil {
		t.Fatal(err)
	}
	var res pythonResults
	if err := json.Unmarshal(raw, &res); err != nil {
		t.Fatal(err)
	}
	// The reset: the server saw the send twice, and the retry answered the lost answer's
	// requestId (the same send, not a second one).
	if n := proxy.requests.Load(); n != 2 {
		t.Fatalf("the server saw %d requests through the reset proxy, want 2 (the reset one and the retry)", n)
	}
	var lost herald.SendAccepted
	if err := json.Unmarshal(<-proxy.lost, &lost); err != nil || lost.RequestID == "" || lost.RequestID != res.ResetSendRequestID {
		t.Fatalf("the retry answered request %q, the lost answer %q (%v): the retry was a second send", res.ResetSendRequestID, lost.RequestID, err)
	}
	// The SDK's RS256 tokens pass the server's verifier (pinned RS256, exp required).
	for _, form := range []string{"pkcs1", "pkcs8"} {
		tok := res.Tokens[form]
		c, err := userjwt.Verify(tok, &goKey.PublicKey, time.Now(), false)
		if err != nil {
			t.Fatalf("%s token %q: %v", form, tok, err)
		}
		if c.User() != "go-verifier" || c.APIKey != "app-key" || c.ExpiresAt == nil || c.IssuedAt == nil {
			t.Fatalf("%s token claims: %+v", form, c)
		}
		other, _ := rsa.GenerateKey(rand.Reader, 2048)
		if _, err := userjwt.Verify(tok, &other.PublicKey, time.Now(), false); err == nil {
			t.Fatalf("%s token verified with another key", form)
		}
	}
}

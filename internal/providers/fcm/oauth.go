package fcm

import (
	"context"
	"crypto/rsa"
	"crypto/x509"
	"encoding/json"
	"encoding/pem"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"sync"
	"time"

	"github.com/golang-jwt/jwt/v5"

	"github.com/heraldhq/herald/internal/providers"
	"github.com/heraldhq/herald/internal/providers/internal/httpcall"
)

// Why not golang.org/x/oauth2/google: the two-legged service-account flow is one signed
// JWT and one form POST, and owning it lets the token URL be configured for tests and
// keeps token failures classified like every other provider error.

// messagingScope is the OAuth scope of the FCM HTTP v1 API.
const messagingScope = "https://www.googleapis.com/auth/firebase.messaging"

// serviceAccount is the part of a Google service account key file we use.
type serviceAccount struct {
	ProjectID    string `json:"project_id"`
	PrivateKeyID string `json:"private_key_id"`
	PrivateKey   string `json:"private_key"`
	ClientEmail  string `json:"client_email"`
	TokenURI     string `json:"token_uri"`
}

// parseServiceAccount reads a key file and its RSA key.
func parseServiceAccount(raw string) (serviceAccount, *rsa.PrivateKey, error) {
	var sa serviceAccount
	if err := json.Unmarshal([]byte(raw), &sa); err != nil || sa.ClientEmail == "" || sa.PrivateKey == "" {
		return sa, nil, errors.New("serviceAccount must be a service account key file (JSON with client_email and private_key)")
	}
	block, _ := pem.Decode([]byte(sa.PrivateKey))
	if block == nil {
		return sa, nil, errors.New("serviceAccount private_key is not PEM")
	}
	var key any
	key, err := x509.ParsePKCS8PrivateKey(block.Bytes)
	if err != nil {
		key, err = x509.ParsePKCS1PrivateKey(block.Bytes)
	}
	rsaKey, ok := key.(*rsa.PrivateKey)
	if err != nil || !ok {
		return sa, nil, errors.New("serviceAccount private_key is not an RSA key")
	}
	return sa, rsaKey, nil
}

// tokenSource gets and caches OAuth access tokens with the JWT bearer grant (RFC 7523),
// as Google's server-to-server flow does.
type tokenSource struct {
	account  serviceAccount
	key      *rsa.PrivateKey
	tokenURL string
	http     *http.Client
	now      func() time.Time

	mu     sync.Mutex
	token  string
	expiry time.Time
}

// token returns a cached token valid for at least another minute, or fetches one.
func (ts *tokenSource) get(ctx context.Context) (string, error) {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	if ts.token != "" && ts.now().Add(time.Minute).Before(ts.expiry) {
		return ts.token, nil
	}
	now := ts.now()
	claims := jwt.MapClaims{
		"iss": ts.account.ClientEmail, "scope": messagingScope, "aud": ts.tokenURL,
		"iat": now.Unix(), "exp": now.Add(time.Hour).Unix(),
	}
	tok := jwt.NewWithClaims(jwt.SigningMethodRS256, claims)
	if ts.account.PrivateKeyID != "" {
		tok.Header["kid"] = ts.account.PrivateKeyID
	}
	assertion, err := tok.SignedString(ts.key)
	if err != nil {
		return "", err
	}
	req, err := httpcall.NewForm(ctx, ts.tokenURL, url.Values{
		"grant_type": {"urn:ietf:params:oauth:grant-type:jwt-bearer"},
		"assertion":  {assertion},
	})
	if err != nil {
		return "", err
	}
	res, raw, err := httpcall.Do(ts.http, req)
	if err != nil {
		return "", err
	}
	var answer struct {
		AccessToken      string `json:"access_token"`
		ExpiresIn        int64  `json:"expires_in"`
		Error            string `json:"error"`
		ErrorDescription string `json:"error_description"`
	}
	_ = json.Unmarshal(raw, &answer)
	if err := httpcall.Check(res, raw, false); err != nil {
		if pe, ok := err.(*providers.Error); ok {
			// invalid_grant (revoked key, bad signature) stays permanent; 5xx retries.
			pe.Message = fmt.Sprintf("OAuth token: %s %s", answer.Error, answer.ErrorDescription)
		}
		return "", err
	}
	if answer.AccessToken == "" {
		return "", &providers.Error{StatusCode: res.StatusCode, Message: "OAuth token: no access_token in the answer"}
	}
	ts.token = answer.AccessToken
	ts.expiry = now.Add(time.Duration(answer.ExpiresIn) * time.Second)
	return ts.token, nil
}

// invalidate drops the cached token after FCM refused it.
func (ts *tokenSource) invalidate() {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	ts.token = ""
}

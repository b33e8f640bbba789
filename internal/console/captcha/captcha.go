// Package captcha checks the captcha token a browser sends with a console sign-up, against
// an hCaptcha/Turnstile-style verify endpoint.
package captcha

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// Verifier checks a captcha response token.
type Verifier interface {
	// Enabled reports whether sign-ups must carry a token.
	Enabled() bool
	// Verify reports whether the token is valid for the caller at remoteIP.
	Verify(ctx context.Context, token, remoteIP string) (bool, error)
}

// Off accepts everything: the default when no captcha secret is configured.
type Off struct{}

// Enabled is false.
func (Off) Enabled() bool { return false }

// Verify accepts.
func (Off) Verify(context.Context, string, string) (bool, error) { return true, nil }

// DefaultVerifyURL is hCaptcha's siteverify endpoint; Turnstile's and reCAPTCHA's speak the
// same form protocol.
const DefaultVerifyURL = "https://api.hcaptcha.com/siteverify"

// HTTP posts secret, response and remoteip as a form to a siteverify URL and reads
// {"success": bool}.
type HTTP struct {
	URL    string
	Secret string
	Client *http.Client
}

// New returns Off when secret is empty and an HTTP verifier otherwise.
func New(verifyURL, secret string) Verifier {
	if secret == "" {
		return Off{}
	}
	if verifyURL == "" {
		verifyURL = DefaultVerifyURL
	}
	return &HTTP{URL: verifyURL, Secret: secret, Client: &http.Client{Timeout: 10 * time.Second}}
}

// Enabled is true.
func (h *HTTP) Enabled() bool { return true }

// Verify asks the provider. A provider that cannot be reached is an error, not a pass.
func (h *HTTP) Verify(ctx context.Context, token, remoteIP string) (bool, error) {
	form := url.Values{"secret": {h.Secret}, "response": {token}}
	if remoteIP != "" {
		form.Set("remoteip", remoteIP)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, h.URL, strings.NewReader(form.Encode()))
	if err != nil {
		return false, err
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	res, err := h.Client.Do(req)
	if err != nil {
		return false, fmt.Errorf("captcha verify: %w", err)
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		return false, fmt.Errorf("captcha verify: status %d", res.StatusCode)
	}
	var out struct {
		Success bool `json:"success"`
	}
	if err := json.NewDecoder(res.Body).Decode(&out); err != nil {
		return false, fmt.Errorf("captcha verify: %w", err)
	}
	return out.Success, nil
}

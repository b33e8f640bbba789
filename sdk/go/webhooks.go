package herald

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// DefaultWebhookTolerance is how far an event webhook's webhook-timestamp may be from now.
const DefaultWebhookTolerance = 5 * time.Minute

// ErrInvalidWebhook is wrapped by every error of VerifyWebhook: a header is missing, the
// timestamp is outside the tolerance, or no signature matches. Answer such a request with
// 400 or 401 and ignore it.
var ErrInvalidWebhook = errors.New("herald: invalid webhook")

// WebhookOption adjusts VerifyWebhook.
type WebhookOption func(*webhookOptions)

type webhookOptions struct {
	tolerance time.Duration
	now       func() time.Time
}

// WithWebhookTolerance sets how far webhook-timestamp may be from now (default 5 minutes).
func WithWebhookTolerance(d time.Duration) WebhookOption {
	return func(o *webhookOptions) { o.tolerance = d }
}

// VerifyWebhook checks that an event webhook comes from Herald (Standard Webhooks): the
// headers webhook-id, webhook-timestamp and webhook-signature, and the raw body as
// received, before any JSON decoding. secret is the endpoint's signing secret
// ("whsec_<base64>", as the console shows it; another string is used as the key as it
// is). webhook-signature may list several space-separated signatures (during a secret
// rotation): one matching "v1,<base64 HMAC-SHA256 of id.timestamp.body>" is enough.
// Signatures are compared in constant time. The error wraps ErrInvalidWebhook.
//
//	body, _ := io.ReadAll(r.Body)
//	if err := herald.VerifyWebhook(secret, r.Header, body); err != nil {
//		http.Error(w, "bad signature", http.StatusUnauthorized)
//		return
//	}
func VerifyWebhook(secret string, header http.Header, body []byte, opts ...WebhookOption) error {
	o := webhookOptions{tolerance: DefaultWebhookTolerance, now: time.Now}
	for _, f := range opts {
		f(&o)
	}
	id, ts, sigs := header.Get("webhook-id"), header.Get("webhook-timestamp"), header.Get("webhook-signature")
	if id == "" || ts == "" || sigs == "" {
		return fmt.Errorf("%w: webhook-id, webhook-timestamp or webhook-signature is missing", ErrInvalidWebhook)
	}
	sec, err := strconv.ParseInt(strings.TrimSpace(ts), 10, 64)
	if err != nil {
		return fmt.Errorf("%w: webhook-timestamp is not a number of seconds", ErrInvalidWebhook)
	}
	if d := o.now().Sub(time.Unix(sec, 0)); d > o.tolerance || d < -o.tolerance {
		return fmt.Errorf("%w: webhook-timestamp is outside the %s tolerance", ErrInvalidWebhook, o.tolerance)
	}
	key, err := webhookKey(secret)
	if err != nil {
		return err
	}
	want := webhookMAC(key, id, sec, body)
	for _, s := range strings.Fields(sigs) {
		version, value, ok := strings.Cut(s, ",")
		if !ok || version != "v1" {
			continue
		}
		got, err := base64.StdEncoding.DecodeString(value)
		if err == nil && hmac.Equal(got, want) {
			return nil
		}
	}
	return fmt.Errorf("%w: no signature matches", ErrInvalidWebhook)
}

// SignWebhook returns the webhook-signature value ("v1,<base64>") of a message, as Herald
// sends it; useful to test a receiver.
func SignWebhook(secret, id string, timestamp time.Time, body []byte) (string, error) {
	key, err := webhookKey(secret)
	if err != nil {
		return "", err
	}
	return "v1," + base64.StdEncoding.EncodeToString(webhookMAC(key, id, timestamp.Unix(), body)), nil
}

func webhookKey(secret string) ([]byte, error) {
	if rest, ok := strings.CutPrefix(secret, "whsec_"); ok {
		key, err := base64.StdEncoding.DecodeString(rest)
		if err != nil {
			return nil, errors.New("herald: the webhook secret is not whsec_<base64>")
		}
		return key, nil
	}
	return []byte(secret), nil
}

func webhookMAC(key []byte, id string, sec int64, body []byte) []byte {
	mac := hmac.New(sha256.New, key)
	mac.Write([]byte(id + "." + strconv.FormatInt(sec, 10) + "."))
	mac.Write(body)
	return mac.Sum(nil)
}

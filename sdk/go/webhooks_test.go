package herald

import (
	"errors"
	"net/http"
	"testing"
	"time"
)

// The Standard Webhooks specification's published test vector.
const (
	vectorSecret    = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"
	vectorID        = "msg_p5jXN8AQM9LWM0D4loKWxJek"
	vectorTimestamp = 1614265330
	vectorBody      = `{"test": 2432232314}`
	vectorSignature = "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE="
)

func vectorHeader(id, ts, sig string) http.Header {
	h := http.Header{}
	h.Set("Webhook-Id", id)
	h.Set("Webhook-Timestamp", ts)
	h.Set("Webhook-Signature", sig)
	return h
}

func at(sec int64) WebhookOption {
	return func(o *webhookOptions) { o.now = func() time.Time { return time.Unix(sec, 0) } }
}

func TestVerifyWebhookPublishedVector(t *testing.T) {
	sig, err := SignWebhook(vectorSecret, vectorID, time.Unix(vectorTimestamp, 0), []byte(vectorBody))
	if err != nil || sig != vectorSignature {
		t.Fatalf("SignWebhook = %q, %v; want the vector's %q", sig, err, vectorSignature)
	}
	h := vectorHeader(vectorID, "1614265330", vectorSignature)
	if err := VerifyWebhook(vectorSecret, h, []byte(vectorBody), at(vectorTimestamp)); err != nil {
		t.Fatal(err)
	}
	if err := VerifyWebhook(vectorSecret, h, []byte(vectorBody), at(vectorTimestamp+299)); err != nil {
		t.Fatalf("within the tolerance: %v", err)
	}
	// One matching signature among several (a secret rotation) is enough.
	h.Set("Webhook-Signature", "v1,bm90IHRoaXMgb25l v2,whatever "+vectorSignature)
	if err := VerifyWebhook(vectorSecret, h, []byte(vectorBody), at(vectorTimestamp)); err != nil {
		t.Fatalf("several signatures: %v", err)
	}
}

func TestVerifyWebhookRefusals(t *testing.T) {
	ts := "1614265330"
	cases := map[string]struct {
		secret string
		h      http.Header
		body   string
		now    int64
		opts   []WebhookOption
	}{
		"tampered body":  {vectorSecret, vectorHeader(vectorID, ts, vectorSignature), `{"test": 2432232315}`, vectorTimestamp, nil},
		"another id":     {vectorSecret, vectorHeader("msg_other", ts, vectorSignature), vectorBody, vectorTimestamp, nil},
		"another secret": {"whsec_" + "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA", vectorHeader(vectorID, ts, vectorSignature), vectorBody, vectorTimestamp, nil},
		"too old":        {vectorSecret, vectorHeader(vectorID, ts, vectorSignature), vectorBody, vectorTimestamp + 301, nil},
		"too new":        {vectorSecret, vectorHeader(vectorID, ts, vectorSignature), vectorBody, vectorTimestamp - 301, nil},
		"tighter":        {vectorSecret, vectorHeader(vectorID, ts, vectorSignature), vectorBody, vectorTimestamp + 11, []WebhookOption{WithWebhookTolerance(10 * time.Second)}},
		"no signature":   {vectorSecret, vectorHeader(vectorID, ts, ""), vectorBody, vectorTimestamp, nil},
		"no id":          {vectorSecret, vectorHeader("", ts, vectorSignature), vectorBody, vectorTimestamp, nil},
		"bad timestamp":  {vectorSecret, vectorHeader(vectorID, "yesterday", vectorSignature), vectorBody, vectorTimestamp, nil},
		"v2 only":        {vectorSecret, vectorHeader(vectorID, ts, "v2,"+vectorSignature[3:]), vectorBody, vectorTimestamp, nil},
		"not base64":     {vectorSecret, vectorHeader(vectorID, ts, "v1,***"), vectorBody, vectorTimestamp, nil},
	}
	for name, c := range cases {
		err := VerifyWebhook(c.secret, c.h, []byte(c.body), append([]WebhookOption{at(c.now)}, c.opts...)...)
		if !errors.Is(err, ErrInvalidWebhook) {
			t.Errorf("%s: err = %v, want ErrInvalidWebhook", name, err)
		}
	}
	if err := VerifyWebhook("whsec_%%%", vectorHeader(vectorID, ts, vectorSignature), []byte(vectorBody), at(vectorTimestamp)); err == nil {
		t.Error("a whsec_ secret that is not base64 was accepted")
	}
}

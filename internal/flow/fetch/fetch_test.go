package fetch

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/heraldhq/herald/workflows/flowrun"
)

func TestFetchGuardsAgainstInternalAddresses(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("X-Token") != "t1" {
			w.WriteHeader(401)
			return
		}
		switch r.URL.Path {
		case "/order":
			w.Write([]byte(`{"total": 12.5, "items": [1, 2]}`))
		case "/broken":
			w.WriteHeader(503)
		default:
			w.Write([]byte(`[1]`))
		}
	}))
	defer srv.Close()
	in := flowrun.FetchInput{URL: srv.URL + "/order", Method: "GET", Headers: map[string]string{"X-Token": "t1"}, TimeoutSeconds: 5}

	open := New(nil)
	_, err := open.Fetch(context.Background(), in)
	if err == nil || !strings.Contains(err.Error(), "not public") || !isRefusal(err) {
		t.Errorf("loopback reached without an allow-list: %v", err)
	}

	allowed := New([]string{"127.0.0.1"})
	out, err := allowed.Fetch(context.Background(), in)
	if err != nil || out["total"] != 12.5 {
		t.Fatalf("allow-listed fetch: %v %v", out, err)
	}
	in.URL = srv.URL + "/broken"
	if _, err := allowed.Fetch(context.Background(), in); err == nil || isRefusal(err) {
		t.Errorf("503 should be retryable: %v", err)
	}
	in.URL = srv.URL + "/array"
	if _, err := allowed.Fetch(context.Background(), in); err == nil || !isRefusal(err) {
		t.Errorf("a non-object answer should fail permanently: %v", err)
	}
	in.Headers = nil
	in.URL = srv.URL + "/order"
	if _, err := allowed.Fetch(context.Background(), in); err == nil || !isRefusal(err) {
		t.Errorf("401 should fail permanently: %v", err)
	}
	other := New([]string{"*.example.com"})
	in.URL = "http://" + strings.TrimPrefix(srv.URL, "http://") + "/order"
	if _, err := other.Fetch(context.Background(), in); err == nil || !strings.Contains(err.Error(), "HERALD_FETCH_ALLOWED_HOSTS") {
		t.Errorf("host outside the allow-list: %v", err)
	}
	in.URL = "file:///etc/passwd"
	if _, err := allowed.Fetch(context.Background(), in); err == nil {
		t.Error("file URL fetched")
	}
}

func isRefusal(err error) bool {
	var r *Refusal
	return errors.As(err, &r)
}

package main

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// The metrics listener: /livez for everyone, /metrics behind the token when one is set.
func TestMetricsListener(t *testing.T) {
	metrics := http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { _, _ = w.Write([]byte("herald_up 1\n")) })
	const token = "mtok-0123456789abcdef0123456789abcdef"
	get := func(h http.Handler, path, auth string) *httptest.ResponseRecorder {
		req := httptest.NewRequest(http.MethodGet, path, nil)
		if auth != "" {
			req.Header.Set("Authorization", auth)
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		return rec
	}
	open, guarded := metricsMux("", metrics), metricsMux(token, metrics)
	for _, h := range []http.Handler{open, guarded} {
		if rec := get(h, "/livez", ""); rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), "alive") {
			t.Errorf("/livez: %d %q", rec.Code, rec.Body.String())
		}
	}
	if rec := get(open, "/metrics", ""); rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), "herald_up") {
		t.Errorf("/metrics without a token set: %d", rec.Code)
	}
	for _, auth := range []string{"", "Bearer wrong", "Basic " + token, token} {
		rec := get(guarded, "/metrics", auth)
		if rec.Code != http.StatusUnauthorized || strings.Contains(rec.Body.String(), "herald_up") || rec.Header().Get("WWW-Authenticate") == "" {
			t.Errorf("/metrics with %q: %d %q", auth, rec.Code, rec.Body.String())
		}
	}
	if rec := get(guarded, "/metrics", "Bearer "+token); rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), "herald_up") {
		t.Errorf("/metrics with the token: %d", rec.Code)
	}
	if rec := get(guarded, "/other", ""); rec.Code != http.StatusNotFound {
		t.Errorf("/other: %d", rec.Code)
	}
}

package providers

import (
	"net/http"
	"testing"
	"time"
)

func TestFromHTTPStatus(t *testing.T) {
	cases := []struct {
		status     int
		retryAfter string
		gone404    bool
		permanent  bool
		gone       bool
		wait       time.Duration
	}{
		{500, "", false, false, false, 0},
		{503, "", false, false, false, 0},
		{429, "7", false, false, false, 7 * time.Second},
		{400, "", false, true, false, 0},
		{404, "", false, true, false, 0},
		{410, "", true, true, true, 0},
		{404, "", true, true, true, 0},
	}
	for _, tc := range cases {
		res := &http.Response{StatusCode: tc.status, Header: http.Header{}}
		if tc.retryAfter != "" {
			res.Header.Set("Retry-After", tc.retryAfter)
		}
		err := FromHTTPStatus(res, "body", tc.gone404).(*Error)
		if err.Permanent != tc.permanent || err.Gone != tc.gone || err.RetryAfter != tc.wait || IsPermanent(err) != tc.permanent {
			t.Errorf("%d: got %+v", tc.status, err)
		}
	}
}

func TestRetryAfterDate(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	if d := parseRetryAfter(now.Add(90*time.Second).Format(http.TimeFormat), now); d != 90*time.Second {
		t.Errorf("date form: %s", d)
	}
	if d := parseRetryAfter("soon", now); d != 0 {
		t.Errorf("garbage: %s", d)
	}
}

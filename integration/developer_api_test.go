package integration

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/heraldhq/herald/internal/testkit/stacktest"
)

// A send through the worker lands in the inbox, where the developer API reads it by
// category, marks it, reports the counts to device connect, and shows its auto-created
// category in the preferences.
func TestSentNotificationsThroughTheDeveloperAPI(t *testing.T) {
	e := stacktest.New(t, stacktest.Options{Temporal: true})
	for _, body := range []string{
		`{"notification":{"title":"Invoice"},"category":"billing","sendTo":{"recipients":["alice"]}}`,
		`{"notification":{"title":"Hello"},"sendTo":{"recipients":["alice"]}}`,
	} {
		if res := e.Do("POST", "/v3/notifications", body, e.AppHeaders()); res.Status != 202 {
			t.Fatalf("send: %d %s", res.Status, res.Body)
		}
	}
	e.Eventually(30*time.Second, "two notifications in alice's inbox", func() bool { return len(inbox(t, e, "alice").Data) == 2 })
	alice := e.UserHeaders("alice")
	var billing inboxPage
	e.Do("GET", "/v3/notifications?category=billing", nil, alice).JSON(t, &billing)
	if len(billing.Data) != 1 || billing.Data[0].Title != "Invoice" || billing.UnreadCount != 2 {
		t.Fatalf("billing list: %+v", billing)
	}
	id := billing.Data[0].ID
	if res := e.Do("POST", "/v3/notifications/"+itoa(id)+"/click", nil, alice); res.Status != 200 || !strings.Contains(string(res.Body), `"clickedAt":"`) {
		t.Errorf("click: %d %s", res.Status, res.Body)
	}
	h := stacktest.Headers{"X-SERVICE-DEVICE-ID": "laptop"}
	for k, v := range alice {
		h[k] = v
	}
	res := e.Do("POST", "/v3/sdk/connect", `{"deviceType":"browser"}`, h)
	if res.Status != 200 || !strings.Contains(string(res.Body), `"unreadCount":1`) || !strings.Contains(string(res.Body), `"identifier":"billing"`) {
		t.Errorf("connect: %d %s", res.Status, res.Body)
	}
	res = e.Do("GET", "/v3/preferences", nil, alice)
	if !strings.Contains(string(res.Body), `"identifier":"billing"`) || !strings.Contains(string(res.Body), `{"channel":"inApp","enabled":true}`) {
		t.Errorf("preferences: %s", res.Body)
	}
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

package v1_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/heraldhq/herald/internal/delivery/channels"
)

func TestIntegrationStatus(t *testing.T) {
	e := newEnv(t)
	a := e.tenant(t, "integrate@example.com")
	b := e.tenant(t, "integrate2@example.com")
	status := func() map[string]any {
		t.Helper()
		res := must(t, e.Do("GET", a.appPath("/integration-status"), nil, bearer(a.tok)), 200, "status").Map(t)
		if res["id"] != float64(a.appID) || res["apiKey"] != a.app["apiKey"] {
			t.Errorf("not the app entity: %v", res)
		}
		return res["integrationStatus"].(map[string]any)
	}
	if s := status(); s["hasSent"] != false || s["hasConnectedDevices"] != false || s["hasProvidersConfigured"] != false {
		t.Errorf("new app %v", s)
	}
	must(t, e.Do("POST", "/v3/notifications", sendBody, e.appHeaders(a.app)), 202, "send")
	p := e.Cfg.HeaderPrefix
	must(t, e.Do("POST", "/v3/sdk/connect", `{"deviceType":"browser"}`, map[string]string{p + "API-KEY": a.app["apiKey"].(string), p + "USER-ID": "ann", p + "DEVICE-ID": "phone-1"}), 200, "connect a device")
	if s := status(); s["hasSent"] != true || s["hasConnectedDevices"] != true || s["hasProvidersConfigured"] != false {
		t.Errorf("after a send and a device %v", s)
	}
	// An enabled provider instance counts as configured.
	cfg := `{"host":"127.0.0.1","port":2525,"security":"none","from":"noreply@example.com"}`
	if _, err := e.Stack.Channels.CreateInstance(t.Context(), a.appID, "email", channels.InstanceInput{Provider: "smtp", Name: "mail", Config: []byte(cfg)}); err != nil {
		t.Fatal(err)
	}
	if s := status(); s["hasProvidersConfigured"] != true {
		t.Errorf("after configuring SMTP %v", s)
	}
	// The other app is untouched, and its owner cannot read this one.
	if s := must(t, e.Do("GET", b.appPath("/integration-status"), nil, bearer(b.tok)), 200, "other").Map(t)["integrationStatus"].(map[string]any); s["hasSent"] != false || s["hasProvidersConfigured"] != false {
		t.Errorf("other app %v", s)
	}
	if res := e.Do("GET", a.appPath("/integration-status"), nil, bearer(b.tok)); res.Status != 404 {
		t.Errorf("another client's app: %d", res.Status)
	}
	if res := e.Do("GET", a.appPath("/integration-status"), nil, nil); res.Status != 401 {
		t.Errorf("no token: %d", res.Status)
	}
}

func TestProfileAttributes(t *testing.T) {
	e := newEnv(t)
	a := e.tenant(t, "attrs@example.com")
	b := e.tenant(t, "attrs2@example.com")
	for i, plan := range []string{"pro", "pro", "free"} {
		must(t, e.Do("POST", a.appPath("/users"), map[string]any{"identifier": fmt.Sprintf("u%d", i),
			"profile": map[string]any{"plan": plan, "seats": i, "tags": []string{"x"}}}, bearer(a.tok)), 200, "create user")
	}
	must(t, e.Do("POST", a.appPath("/users"), map[string]any{"identifier": "u9", "profile": map[string]any{"country": "fr"}}, bearer(a.tok)), 200, "create user")
	must(t, e.Do("POST", b.appPath("/users"), map[string]any{"identifier": "z", "profile": map[string]any{"secret": "x"}}, bearer(b.tok)), 200, "other app's user")

	var keys []map[string]any
	must(t, e.Do("GET", a.appPath("/profile-attributes"), nil, bearer(a.tok)), 200, "keys").JSON(t, &keys)
	got := []string{}
	for _, k := range keys {
		got = append(got, fmt.Sprintf("%s=%v", k["attribute"], k["users"]))
	}
	if strings.Join(got, ",") != "plan=3,seats=3,tags=3,country=1" {
		t.Errorf("keys %v", got)
	}
	var values []map[string]any
	must(t, e.Do("GET", a.appPath("/profile-attributes?attribute=plan"), nil, bearer(a.tok)), 200, "values").JSON(t, &values)
	if len(values) != 2 || values[0]["value"] != "pro" || values[0]["users"] != 2.0 || values[1]["value"] != "free" {
		t.Errorf("values %v", values)
	}
	must(t, e.Do("GET", a.appPath("/profile-attributes?attribute=tags"), nil, bearer(a.tok)), 200, "arrays have no values").JSON(t, &values)
	if len(values) != 0 {
		t.Errorf("array values %v", values)
	}
	wantMessages(t, e.Do("GET", a.appPath("/profile-attributes?attribute="+strings.Repeat("k", 256)), nil, bearer(a.tok)), "attribute must be at most 255 characters")
	if res := e.Do("GET", a.appPath("/profile-attributes"), nil, bearer(b.tok)); res.Status != 404 {
		t.Errorf("another client's app: %d", res.Status)
	}
	if res := e.Do("GET", a.appPath("/profile-attributes"), nil, nil); res.Status != 401 {
		t.Errorf("no token: %d", res.Status)
	}
}

func TestConsoleTestSend(t *testing.T) {
	e := newEnv(t)
	a := e.tenant(t, "tester@example.com")
	b := e.tenant(t, "tester2@example.com")
	viewer := e.member(t, a.tok, a.client, "tv@example.com", "viewer")
	dev := e.member(t, a.tok, a.client, "td@example.com", "developer")
	res := must(t, e.Do("POST", a.appPath("/notifications"), sendBody, bearer(dev)), 202, "developer sends")
	if id, _ := res.Map(t)["requestId"].(string); len(id) != 36 {
		t.Errorf("requestId %q", id)
	}
	wantMessages(t, e.Do("POST", a.appPath("/notifications"), `{"notification":{"title":5},"sendTo":{"recipients":[]}}`, bearer(dev)),
		"notification.title must be a string")
	wantMessages(t, e.Do("POST", a.appPath("/notifications"), `[]`, bearer(dev)), "body must be a JSON object")
	wantError(t, e.Do("POST", a.appPath("/notifications"), `{"notification":{"workflow":{"identifier":"ghost"}},"sendTo":{"recipients":["ann"]}}`, bearer(dev)),
		422, `notification.workflow: workflow "ghost" does not exist in this app`)
	wantError(t, e.Do("POST", a.appPath("/notifications"), sendBody, bearer(viewer)), 403, "this needs the developer role (or higher) on the client; yours is viewer")
	if res := e.Do("POST", a.appPath("/notifications"), sendBody, bearer(b.tok)); res.Status != 404 {
		t.Errorf("another client's app: %d", res.Status)
	}
	if res := e.Do("POST", a.appPath("/notifications"), sendBody, nil); res.Status != 401 {
		t.Errorf("no token: %d", res.Status)
	}
	if u := must(t, e.Do("GET", a.appPath("/usage"), nil, bearer(viewer)), 200, "usage").Map(t); u["notifications"] != 1.0 {
		t.Errorf("only the valid send counts: %v", u)
	}
}

func TestIssueDefaultLayout(t *testing.T) {
	e := newEnv(t)
	a := e.tenant(t, "layout@example.com")
	b := e.tenant(t, "layout2@example.com")
	viewer := e.member(t, a.tok, a.client, "lv@example.com", "viewer")
	var first []struct {
		AppID   int64 `json:"appId"`
		Created bool
		Layout  struct {
			ID        int64
			IsDefault bool `json:"isDefault"`
			HTML      string
		}
	}
	must(t, e.Do("POST", "/v1/auth/issue-default-layout", nil, bearer(a.tok)), 201, "create").JSON(t, &first)
	if len(first) != 1 || first[0].AppID != a.appID || !first[0].Created || first[0].Layout.ID == 0 || !strings.Contains(first[0].Layout.HTML, "{{{content}}}") {
		t.Fatalf("issued %+v", first)
	}
	// It is the app's default layout, the one email templates without a layout get.
	def := must(t, e.Do("GET", a.appPath("/layouts/default"), nil, bearer(a.tok)), 200, "default layout").Map(t)
	if def["id"] != float64(first[0].Layout.ID) {
		t.Errorf("app default %v, issued %d", def, first[0].Layout.ID)
	}
	again := first
	must(t, e.Do("POST", "/v1/auth/issue-default-layout", nil, bearer(a.tok)), 200, "again").JSON(t, &again)
	if len(again) != 1 || again[0].Created || again[0].Layout.ID != first[0].Layout.ID {
		t.Errorf("a second default layout: %+v", again)
	}
	wantError(t, e.Do("POST", "/v1/auth/issue-default-layout", nil, bearer(viewer)), 403, "this needs the developer role (or higher) on the client; yours is viewer")
	wantError(t, e.Do("POST", fmt.Sprintf("/v1/auth/issue-default-layout?clientId=%d", b.client), nil, bearer(a.tok)), 404, "client not found")
	if res := e.Do("POST", "/v1/auth/issue-default-layout", nil, nil); res.Status != 401 {
		t.Errorf("no token: %d", res.Status)
	}
	var other []struct{ Layout struct{ ID int64 } }
	must(t, e.Do("POST", "/v1/auth/issue-default-layout", nil, bearer(b.tok)), 201, "other client").JSON(t, &other)
	if len(other) != 1 || other[0].Layout.ID == first[0].Layout.ID {
		t.Error("clients share a layout")
	}
}

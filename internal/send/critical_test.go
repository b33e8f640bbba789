package send_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/heraldhq/herald/db/dbsqlc"
	"github.com/heraldhq/herald/internal/console/apps"
	"github.com/heraldhq/herald/internal/platform/secrets"
	"github.com/heraldhq/herald/internal/send"
	"github.com/heraldhq/herald/internal/testkit/dbtest"
)

// A request is stored critical when the category or the workflow it names is marked
// critical in its app at accept (the relay starts those first), and only then.
func TestAcceptMarksCriticalRequests(t *testing.T) {
	ctx := context.Background()
	d := dbtest.New(t)
	box, _ := secrets.NewBox("test-key-0123456789")
	as := apps.NewService(d, box)
	app, err := as.Create(ctx, "bank")
	if err != nil {
		t.Fatal(err)
	}
	other, err := as.Create(ctx, "other")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []dbsqlc.InsertCategoryParams{
		{AppID: app.AppID, Identifier: "security", Name: "Security", Critical: true},
		{AppID: app.AppID, Identifier: "news", Name: "News"},
		{AppID: other.AppID, Identifier: "alarm", Name: "Alarm", Critical: true},
	} {
		if _, err := d.InsertCategory(ctx, c); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range []dbsqlc.CreateFlowParams{
		{AppID: app.AppID, Identifier: "otp", Name: "OTP", Critical: true},
		{AppID: app.AppID, Identifier: "digest", Name: "Digest"},
	} {
		f.Draft, f.Positions = json.RawMessage(`{"steps":[]}`), json.RawMessage(`{}`)
		if _, err := d.CreateFlow(ctx, f); err != nil {
			t.Fatal(err)
		}
		if _, err := d.PublishFlow(ctx, dbsqlc.PublishFlowParams{AppID: f.AppID, Identifier: f.Identifier}); err != nil {
			t.Fatal(err)
		}
	}
	svc := send.NewService(d, nil)
	for _, tc := range []struct {
		name, notification, key string
		want                    bool
	}{
		{"critical category", `{"title":"t","category":"security"}`, "", true},
		{"critical category, with idempotency key", `{"title":"t","category":"security"}`, "k1", true},
		{"ordinary category", `{"title":"t","category":"news"}`, "", false},
		{"another app's critical category", `{"title":"t","category":"alarm"}`, "", false},
		{"unknown category", `{"title":"t","category":"new-one"}`, "", false},
		{"no category", `{"title":"t"}`, "", false},
		{"critical workflow", `{"workflow":{"identifier":"otp"}}`, "", true},
		{"critical workflow, with idempotency key", `{"workflow":{"identifier":"otp"}}`, "k2", true},
		{"ordinary workflow", `{"workflow":{"identifier":"digest"}}`, "", false},
		{"ordinary workflow, critical category", `{"workflow":{"identifier":"digest"},"category":"security"}`, "", true},
	} {
		id, err := svc.Accept(ctx, app.AppID, []byte(`{"notification":`+tc.notification+`,"recipients":["u"]}`), tc.key)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		row, err := d.GetRequest(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		if row.Critical != tc.want {
			t.Errorf("%s: stored critical = %v, want %v", tc.name, row.Critical, tc.want)
		}
	}
}

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

// BenchmarkAcceptWorkflow measures the accept path of a send naming a published workflow
// (parse, workflow lookup, insert), the hot path the payload schema check joins: without a
// schema, and with one (compiled once per version, then only validated).
func BenchmarkAcceptWorkflow(b *testing.B) {
	b.Run("no schema", func(b *testing.B) { benchAccept(b, nil) })
	b.Run("schema", func(b *testing.B) {
		benchAccept(b, json.RawMessage(`{"type":"object","required":["order"],"properties":{
			"order":{"type":"object","required":["id"],"properties":{"id":{"type":"string"},"total":{"type":"number","minimum":0},
				"items":{"type":"array","items":{"type":"object","properties":{"sku":{"type":"string"},"qty":{"type":"integer","minimum":1}}}}}},
			"customer":{"type":"object","properties":{"name":{"type":"string"}}}}}`))
	})
}

func benchAccept(b *testing.B, schema json.RawMessage) {
	ctx := context.Background()
	d := dbtest.New(b)
	box, _ := secrets.NewBox("test-key-0123456789")
	app, err := apps.NewService(d, box).Create(ctx, "bench")
	if err != nil {
		b.Fatal(err)
	}
	f := dbsqlc.CreateFlowParams{AppID: app.AppID, Identifier: "order", Name: "Order",
		Draft: json.RawMessage(`{"steps":[]}`), Positions: json.RawMessage(`{}`), PayloadSchema: schema}
	if _, err := d.CreateFlow(ctx, f); err != nil {
		b.Fatal(err)
	}
	if _, err := d.PublishFlow(ctx, dbsqlc.PublishFlowParams{AppID: app.AppID, Identifier: "order"}); err != nil {
		b.Fatal(err)
	}
	svc := send.NewService(d, nil)
	body := []byte(`{"notification":{"workflow":{"identifier":"order"}},"sendTo":{"recipients":["u1"]},
		"data":{"order":{"id":"A-1","total":12.5,"items":[{"sku":"x","qty":2}]},"customer":{"name":"Ada"}}}`)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := svc.Accept(ctx, app.AppID, body, ""); err != nil {
			b.Fatal(err)
		}
	}
}

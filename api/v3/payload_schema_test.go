package v3_test

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	herald "github.com/heraldhq/herald"
	"github.com/heraldhq/herald/internal/testkit/stacktest"
)

// TestSendDataMustMatchThePayloadSchema: a send naming a workflow whose published version
// declares a payload schema is refused at accept (422) when its data does not match, with
// every problem listed as a JSON pointer and a message, and nothing is stored (no request,
// no schedule) — immediate, scheduled or keyed. The schema is the published version's (a
// draft's change counts after publish), another app's workflow of the same identifier is
// its own, and credentials are checked first.
func TestSendDataMustMatchThePayloadSchema(t *testing.T) {
	e := stacktest.New(t, stacktest.Options{})
	ctx := context.Background()
	other := e.NewApp("other")
	const schema = `{"type":"object","required":["order"],"properties":{
		"order":{"type":"object","required":["id"],"properties":{"id":{"type":"string"},"total":{"type":"number","minimum":0}}},
		"customer":{"type":"object","properties":{"name":{"type":"string"}}}}}`
	body := func(id, schema string) []byte {
		b := `{"identifier":"` + id + `","name":"Order","definition":{"steps":[{"id":"hi","type":"inApp","content":{"title":"Order {{data.order.id}}"}}]}`
		if schema != "" {
			b += `,"payloadSchema":` + schema
		}
		return []byte(b + `}`)
	}
	for _, c := range []struct {
		app    int64
		schema string
	}{{e.App.AppID, schema}, {other.AppID, ""}} {
		if _, err := e.Stack.Flows.Create(ctx, c.app, body("order", c.schema)); err != nil {
			t.Fatal(err)
		}
		if _, err := e.Stack.Flows.Publish(ctx, c.app, "order"); err != nil {
			t.Fatal(err)
		}
	}
	send := func(data, extra string) string {
		return `{"notification":{"workflow":{"identifier":"order"}},"sendTo":{"recipients":["ann"]},"data":` + data + extra + `}`
	}
	const bad = `{"order":{"total":-2},"customer":{"name":42}}`
	wantPointers := []string{"/data/customer/name", "/data/order", "/data/order/total"}
	later := time.Now().Add(time.Hour).UTC().Format(time.RFC3339)
	for _, c := range []struct {
		name, body string
		h          stacktest.Headers
		pointers   []string
	}{
		{"every problem", send(bad, ""), e.AppHeaders(), wantPointers},
		{"scheduled", send(bad, `,"sendAt":"`+later+`"`), e.AppHeaders(), wantPointers},
		{"with an idempotency key", send(bad, ""), with(e.AppHeaders(), "Idempotency-Key", "k-bad"), wantPointers},
		{"no data at all", `{"notification":{"workflow":{"identifier":"order"}},"sendTo":{"recipients":["ann"]}}`, e.AppHeaders(), []string{"/data"}},
	} {
		res := e.Do("POST", "/v3/notifications", c.body, c.h)
		if !wantStatus(t, res, 422, c.name) {
			continue
		}
		var out struct {
			Status, Message string
			Problems        []herald.FieldProblem
		}
		res.JSON(t, &out)
		var got []string
		for _, p := range out.Problems {
			got = append(got, p.Pointer)
			if p.Message == "" {
				t.Errorf("%s: problem at %s without a message", c.name, p.Pointer)
			}
		}
		if !slices.Equal(got, c.pointers) || !strings.Contains(out.Message, `does not match the payload schema of workflow "order" (version 1)`) {
			t.Errorf("%s: %s", c.name, res.Body)
		}
	}
	var scheduled int
	if err := e.Stack.DB.Pool.QueryRow(ctx, "SELECT count(*) FROM scheduled_notifications").Scan(&scheduled); err != nil {
		t.Fatal(err)
	}
	if n := requestCount(t, e); n != 0 || scheduled != 0 {
		t.Fatalf("refused sends stored %d requests and %d schedules", n, scheduled)
	}
	// Credentials come first.
	wantStatus(t, e.Do("POST", "/v3/notifications", send(bad, ""), nil), 401, "no credentials")
	wantStatus(t, e.Do("POST", "/v3/notifications", send(bad, ""), stacktest.Headers{prefix + "API-KEY": e.App.APIKey, prefix + "API-SECRET": "wrong"}), 401, "wrong secret")

	// Matching data is accepted; the other app's "order" has no schema and takes any data.
	good := `{"order":{"id":"A-1","total":3},"customer":{"name":"Ann"}}`
	wantStatus(t, e.Do("POST", "/v3/notifications", send(good, ""), e.AppHeaders()), 202, "matching data")
	wantStatus(t, e.Do("POST", "/v3/notifications", send(bad, ""), appH(other)), 202, "the other app's workflow without a schema")

	// A draft's schema counts only once published: a new version, a new compiled schema.
	strict := strings.Replace(schema, `"required":["order"]`, `"required":["order","customer"]`, 1)
	if _, err := e.Stack.Flows.Update(ctx, e.App.AppID, "order", body("", strict)); err != nil {
		t.Fatal(err)
	}
	wantStatus(t, e.Do("POST", "/v3/notifications", send(`{"order":{"id":"A-2"}}`, ""), e.AppHeaders()), 202, "draft schema not published yet")
	if _, err := e.Stack.Flows.Publish(ctx, e.App.AppID, "order"); err != nil {
		t.Fatal(err)
	}
	res := e.Do("POST", "/v3/notifications", send(`{"order":{"id":"A-3"}}`, ""), e.AppHeaders())
	if wantStatus(t, res, 422, "published stricter schema") && !strings.Contains(string(res.Body), `"pointer":"/data"`) {
		t.Errorf("stricter schema: %s", res.Body)
	}
	// A null payloadSchema removes it; the next version takes any data object.
	if _, err := e.Stack.Flows.Update(ctx, e.App.AppID, "order", body("", "null")); err != nil {
		t.Fatal(err)
	}
	if _, err := e.Stack.Flows.Publish(ctx, e.App.AppID, "order"); err != nil {
		t.Fatal(err)
	}
	wantStatus(t, e.Do("POST", "/v3/notifications", send(bad, ""), e.AppHeaders()), 202, "schema removed")
}

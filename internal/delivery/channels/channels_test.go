package channels

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"

	herald "github.com/heraldhq/herald"
	"github.com/heraldhq/herald/internal/console/apps"
	"github.com/heraldhq/herald/internal/platform/secrets"
	"github.com/heraldhq/herald/internal/providers"
	"github.com/heraldhq/herald/internal/providers/smtp"
	"github.com/heraldhq/herald/internal/providers/webhook"
	"github.com/heraldhq/herald/internal/testkit/dbtest"
)

type fixture struct {
	svc        *Service
	app, other int64
}

func setup(t *testing.T) fixture {
	t.Helper()
	d := dbtest.New(t)
	box, _ := secrets.NewBox("test-key-0123456789")
	as := apps.NewService(d, box)
	a, err := as.Create(context.Background(), "app")
	if err != nil {
		t.Fatal(err)
	}
	o, _ := as.Create(context.Background(), "other")
	svc := NewService(d, box, providers.NewCatalogue(smtp.Kind(), webhook.Kind()), providers.Deps{})
	return fixture{svc: svc, app: a.AppID, other: o.AppID}
}

func problems(t *testing.T, err error) []string {
	t.Helper()
	var he *herald.Error
	if !errors.As(err, &he) || he.Code != herald.EINVALID {
		t.Fatalf("want a validation error, got %v", err)
	}
	return he.Details
}

const smtpConfig = `{"host":"smtp.example.com","port":587,"from":"noreply@example.com","username":"u","password":"hunter2-secret"}`

func TestInstanceSecretsAreSealedAndMasked(t *testing.T) {
	f := setup(t)
	ctx := context.Background()
	inst, err := f.svc.CreateInstance(ctx, f.app, "email", InstanceInput{Provider: "smtp", Name: "primary", Config: json.RawMessage(smtpConfig)})
	if err != nil {
		t.Fatal(err)
	}
	var cfg map[string]any
	_ = json.Unmarshal(inst.Config, &cfg)
	if cfg["password"] != Mask || cfg["host"] != "smtp.example.com" || !inst.Enabled || inst.Channel != "email" {
		t.Errorf("instance %+v config %v", inst, cfg)
	}
	var public string
	var sealed []byte
	if err := f.svc.db.Pool.QueryRow(ctx, "SELECT config::text, secrets_sealed FROM provider_instances WHERE id = $1", inst.ID).Scan(&public, &sealed); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(public, "hunter2") || bytes.Contains(sealed, []byte("hunter2")) || len(sealed) == 0 {
		t.Errorf("password stored in the clear: %s / %q", public, sealed)
	}
	// An update that sends the mask back keeps the secret; other fields change.
	up, err := f.svc.UpdateInstance(ctx, f.app, inst.ID, InstanceInput{Config: json.RawMessage(`{"password":"********","port":587,"helo":"mail.example.com"}`), Priority: ptr(3)})
	if err != nil {
		t.Fatal(err)
	}
	cands, _ := f.svc.Plan(ctx, f.app, "email", nil)
	full, _ := unseal(f.svc.box, cands[0].public, cands[0].sealed)
	if string(full["password"]) != `"hunter2-secret"` || string(full["helo"]) != `"mail.example.com"` || up.Priority != 3 {
		t.Errorf("after update: %s, priority %d", mustJSON(full), up.Priority)
	}
	// Another app cannot see or change it.
	if _, err := f.svc.GetInstance(ctx, f.other, inst.ID); herald.ErrorCode(err) != herald.ENOTFOUND {
		t.Errorf("other app get: %v", err)
	}
	if _, err := f.svc.UpdateInstance(ctx, f.other, inst.ID, InstanceInput{Name: "x"}); herald.ErrorCode(err) != herald.ENOTFOUND {
		t.Errorf("other app update: %v", err)
	}
	if _, err := f.svc.SetInstanceEnabled(ctx, f.other, inst.ID, false); herald.ErrorCode(err) != herald.ENOTFOUND {
		t.Errorf("other app disable: %v", err)
	}
	if _, err := f.svc.CreateInstance(ctx, f.app, "email", InstanceInput{Provider: "smtp", Name: "primary", Config: json.RawMessage(smtpConfig)}); herald.ErrorCode(err) != herald.ECONFLICT {
		t.Errorf("duplicate name: %v", err)
	}
}

func TestInstanceValidation(t *testing.T) {
	f := setup(t)
	ctx := context.Background()
	_, err := f.svc.CreateInstance(ctx, f.app, "inApp", InstanceInput{Provider: "smtp"})
	got := problems(t, err)
	want := []string{
		"channel must be one of email, sms, whatsapp, webPush, mobilePush, slack, discord, msTeams, webhook",
		`providerIdentifier "smtp" is not a provider of inApp (this build has none for it)`,
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %q", got)
	}
	_, err = f.svc.CreateInstance(ctx, f.app, "email", InstanceInput{Provider: "webhook", Name: strings.Repeat("n", 101)})
	got = problems(t, err)
	want = []string{`providerIdentifier "webhook" is not a provider of email (known: smtp)`, "name must be at most 100 characters"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %q", got)
	}
	_, err = f.svc.CreateInstance(ctx, f.app, "email", InstanceInput{Provider: "smtp", Config: json.RawMessage(`{"port":"x","from":"nope"}`)})
	got = problems(t, err)
	want = []string{"config.host is required", "config.from must be an email address", "config.port must be an integer"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %q", got)
	}
	inst, _ := f.svc.CreateInstance(ctx, f.app, "email", InstanceInput{Provider: "smtp", Config: json.RawMessage(smtpConfig)})
	_, err = f.svc.UpdateInstance(ctx, f.app, inst.ID, InstanceInput{Provider: "webhook", Config: json.RawMessage(`{"host":null}`)})
	got = problems(t, err)
	want = []string{"providerIdentifier cannot change (create another instance)"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %q", got)
	}
	_, err = f.svc.UpdateInstance(ctx, f.app, inst.ID, InstanceInput{Config: json.RawMessage(`{"host":null,"password":"new"}`), MayRedirect: true})
	if got = problems(t, err); !reflect.DeepEqual(got, []string{"config.host is required"}) {
		t.Errorf("got %q", got)
	}
}

func TestPlanFollowsRoutes(t *testing.T) {
	f := setup(t)
	ctx := context.Background()
	mk := func(name string, prio int) Instance {
		inst, err := f.svc.CreateInstance(ctx, f.app, "webhook", InstanceInput{Provider: "webhook", Name: name, Priority: ptr(prio),
			Config: json.RawMessage(`{"url":"https://example.com/` + name + `","secret":"0123456789abcdef"}`)})
		if err != nil {
			t.Fatal(err)
		}
		return inst
	}
	a, b, c := mk("a", 2), mk("b", 1), mk("c", 3)
	names := func(facts map[string]any) []string {
		cands, err := f.svc.Plan(ctx, f.app, "webhook", facts)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, c := range cands {
			out = append(out, c.Name)
		}
		return out
	}
	if got := names(nil); !reflect.DeepEqual(got, []string{"b", "a", "c"}) {
		t.Errorf("no route: %v, want priority order", got)
	}
	_, err := f.svc.CreateRoute(ctx, f.app, "webhook", RouteInput{Name: "eu", InstanceIDs: []int64{c.ID, a.ID},
		Conditions: json.RawMessage(`[{"field":"data.region","operator":"in","value":["eu","uk"]}]`)})
	if err != nil {
		t.Fatal(err)
	}
	_, err = f.svc.CreateRoute(ctx, f.app, "webhook", RouteInput{Name: "vip", InstanceIDs: []int64{a.ID, b.ID}, Failover: ptr(false), Priority: ptr(-1),
		Conditions: json.RawMessage(`[{"field":"user.profile.tier","operator":"eq","value":"vip"}]`)})
	if err != nil {
		t.Fatal(err)
	}
	facts := func(raw string) map[string]any {
		var m map[string]any
		_ = json.Unmarshal([]byte(raw), &m)
		return m
	}
	if got := names(facts(`{"data":{"region":"eu"}}`)); !reflect.DeepEqual(got, []string{"c", "a"}) {
		t.Errorf("eu: %v", got)
	}
	if got := names(facts(`{"data":{"region":"eu"},"user":{"profile":{"tier":"vip"}}}`)); !reflect.DeepEqual(got, []string{"a"}) {
		t.Errorf("vip without failover: %v", got)
	}
	if got := names(facts(`{"data":{"region":"us"}}`)); !reflect.DeepEqual(got, []string{"b", "a", "c"}) {
		t.Errorf("no match: %v", got)
	}
	// A disabled instance drops out of routes and defaults.
	if _, err := f.svc.SetInstanceEnabled(ctx, f.app, c.ID, false); err != nil {
		t.Fatal(err)
	}
	if got := names(facts(`{"data":{"region":"uk"}}`)); !reflect.DeepEqual(got, []string{"a"}) {
		t.Errorf("eu with c disabled: %v", got)
	}
	chans, _ := f.svc.ConfiguredChannels(ctx, f.app)
	if !chans["webhook"] || chans["email"] {
		t.Errorf("configured channels %v", chans)
	}
}

func TestRouteValidationAndTenancy(t *testing.T) {
	f := setup(t)
	ctx := context.Background()
	theirs, err := f.svc.CreateInstance(ctx, f.other, "webhook", InstanceInput{Provider: "webhook",
		Config: json.RawMessage(`{"url":"https://example.com","secret":"0123456789abcdef"}`)})
	if err != nil {
		t.Fatal(err)
	}
	_, err = f.svc.CreateRoute(ctx, f.app, "webhook", RouteInput{Name: "r", InstanceIDs: []int64{theirs.ID}})
	got := problems(t, err)
	if len(got) != 1 || !strings.Contains(got[0], "is not a provider instance of this app on webhook") {
		t.Errorf("another app's instance: %q", got)
	}
	_, err = f.svc.CreateRoute(ctx, f.app, "webhook", RouteInput{Conditions: json.RawMessage(`[{"field":"secret.x","operator":"like"},{"field":"data.a","operator":"in","value":1}]`)})
	got = problems(t, err)
	want := []string{
		"name should not be empty",
		"conditions[0].field must be a path under data, user, category, template (for example data.region)",
		"conditions[0].operator must be one of eq, neq, in, notIn, exists, notExists",
		"conditions[1].value must be an array",
		"providerInstanceIds must contain at least 1 element",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %q", got)
	}
	r, err := f.svc.CreateRoute(ctx, f.other, "webhook", RouteInput{Name: "theirs", InstanceIDs: []int64{theirs.ID}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.svc.GetRoute(ctx, f.app, r.ID); herald.ErrorCode(err) != herald.ENOTFOUND {
		t.Errorf("get another app's route: %v", err)
	}
	if err := f.svc.DeleteRoute(ctx, f.app, r.ID); herald.ErrorCode(err) != herald.ENOTFOUND {
		t.Errorf("delete another app's route: %v", err)
	}
	up, err := f.svc.UpdateRoute(ctx, f.other, r.ID, RouteInput{Failover: ptr(false), Conditions: json.RawMessage(`[{"field":"data.x","operator":"exists"}]`)})
	if err != nil || up.Failover || len(up.Conditions) != 1 || up.Name != "theirs" {
		t.Errorf("update: %+v %v", up, err)
	}
	if err := f.svc.DeleteRoute(ctx, f.other, r.ID); err != nil {
		t.Error(err)
	}
}

func TestProviderIsBuiltOncePerVersion(t *testing.T) {
	f := setup(t)
	ctx := context.Background()
	inst, _ := f.svc.CreateInstance(ctx, f.app, "webhook", InstanceInput{Provider: "webhook",
		Config: json.RawMessage(`{"url":"https://example.com","secret":"0123456789abcdef"}`)})
	cands, _ := f.svc.Plan(ctx, f.app, "webhook", nil)
	p1, err := f.svc.Provider(ctx, cands[0], nil)
	if err != nil {
		t.Fatal(err)
	}
	p2, _ := f.svc.Provider(ctx, cands[0], nil)
	if p1 != p2 {
		t.Error("provider rebuilt for the same instance version")
	}
	if _, err := f.svc.Provider(ctx, cands[0], json.RawMessage(`{"timeoutSeconds":"soon"}`)); !providers.IsPermanent(err) ||
		!strings.Contains(err.Error(), "override.webhook._config.timeoutSeconds must be an integer") {
		t.Errorf("bad override config: %v", err)
	}
	if _, err := f.svc.Provider(ctx, cands[0], json.RawMessage(`{"url":"https://attacker.example"}`)); !providers.IsPermanent(err) ||
		!strings.Contains(err.Error(), "override.webhook._config.url: "+overlayAdvice) {
		t.Errorf("override re-pointing the stored instance: %v", err)
	}
	if _, err := f.svc.UpdateInstance(ctx, f.app, inst.ID, InstanceInput{Config: json.RawMessage(`{"timeoutSeconds":5}`)}); err != nil {
		t.Fatal(err)
	}
	cands, _ = f.svc.Plan(ctx, f.app, "webhook", nil)
	if p3, _ := f.svc.Provider(ctx, cands[0], nil); p3 == p1 {
		t.Error("provider not rebuilt after its instance changed")
	}
}

func ptr[T any](v T) *T { return &v }

func mustJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// config.sendRate is Herald's, not the provider's: it is validated with the provider's
// fields (every problem at once), kept, answered, carried by the plan's candidates, kept
// by updates that leave it out, removed by null, and never reaches the provider.
func TestInstanceSendRate(t *testing.T) {
	f := setup(t)
	ctx := context.Background()
	_, err := f.svc.CreateInstance(ctx, f.app, "email", InstanceInput{Provider: "smtp", Config: json.RawMessage(`{"port":"x","host":"h","from":"a@b.c","sendRate":"fast"}`)})
	if got := problems(t, err); !reflect.DeepEqual(got, []string{"config.port must be an integer", "config.sendRate must be a number (messages per second)"}) {
		t.Errorf("got %q", got)
	}
	for _, bad := range []string{"0", "-2", "100001"} {
		_, err := f.svc.CreateInstance(ctx, f.app, "email", InstanceInput{Provider: "smtp", Config: json.RawMessage(`{"host":"h","from":"a@b.c","sendRate":` + bad + `}`)})
		if got := problems(t, err); !reflect.DeepEqual(got, []string{"config.sendRate must be more than 0 and at most 100000 messages per second"}) {
			t.Errorf("sendRate %s: got %q", bad, got)
		}
	}
	// The webhook's schema refuses unknown fields: the provider never sees sendRate.
	inst, err := f.svc.CreateInstance(ctx, f.app, "webhook", InstanceInput{Provider: "webhook",
		Config: json.RawMessage(`{"url":"https://example.com","secret":"0123456789abcdef","sendRate":2.5}`)})
	if err != nil {
		t.Fatal(err)
	}
	var cfg map[string]any
	_ = json.Unmarshal(inst.Config, &cfg)
	if cfg["sendRate"] != 2.5 || cfg["secret"] != Mask {
		t.Errorf("answered config %v", cfg)
	}
	cands, _ := f.svc.Plan(ctx, f.app, "webhook", nil)
	if len(cands) != 1 || cands[0].SendRate != 2.5 {
		t.Fatalf("candidates %+v, want one with SendRate 2.5", cands)
	}
	if _, err := f.svc.Provider(ctx, cands[0], nil); err != nil {
		t.Errorf("provider of an instance with a send rate: %v", err)
	}
	if p := f.svc.StoredProblems("webhook", cands[0].public, cands[0].sealed); len(p) > 0 {
		t.Errorf("stored problems %q", p)
	}
	if _, err := f.svc.UpdateInstance(ctx, f.app, inst.ID, InstanceInput{Config: json.RawMessage(`{"timeoutSeconds":5}`)}); err != nil {
		t.Fatal(err)
	}
	if cands, _ = f.svc.Plan(ctx, f.app, "webhook", nil); cands[0].SendRate != 2.5 {
		t.Errorf("an update leaving sendRate out changed it to %g", cands[0].SendRate)
	}
	if _, err := f.svc.UpdateInstance(ctx, f.app, inst.ID, InstanceInput{Config: json.RawMessage(`{"sendRate":null}`)}); err != nil {
		t.Fatal(err)
	}
	if cands, _ = f.svc.Plan(ctx, f.app, "webhook", nil); cands[0].SendRate != 0 {
		t.Errorf("sendRate %g after null, want none", cands[0].SendRate)
	}
}

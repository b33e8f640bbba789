package stack

import (
	"bytes"
	"context"
	"log/slog"
	"strings"
	"testing"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/client"

	"github.com/heraldhq/herald/internal/ops/doctor"
	"github.com/heraldhq/herald/internal/platform/config"
	"github.com/heraldhq/herald/internal/testkit/cloudtest"
	"github.com/heraldhq/herald/workflows/visibility"
)

// cloudStack is the part of a stack that registers search attributes, connected to a
// stand-in of Temporal Cloud with an API key; its log is returned.
func cloudStack(t *testing.T, cloud *cloudtest.Frontend) (*Stack, *bytes.Buffer) {
	t.Helper()
	cfg := config.Defaults()
	cfg.TemporalAddress, cfg.TemporalNamespace = cloud.Address, cloud.Namespace()
	cfg.TemporalClient = config.TemporalClientConfig{TLS: true, CAFile: cloud.CAFile, ServerName: cloud.ServerName(), APIKey: "key",
		ConnectTimeout: 5 * time.Second, RPCTimeout: 5 * time.Second}
	var logs bytes.Buffer
	log := slog.New(slog.NewTextHandler(&logs, nil))
	opts, conn, err := temporalClientOptions(cfg, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	tc, err := client.NewLazyClient(opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(tc.Close)
	return &Stack{Cfg: cfg, Log: log, Temporal: tc, TemporalConn: conn}, &logs
}

// On Temporal Cloud Herald may not add its search attributes: start-up says which are
// missing and gives the tcld command; once an operator ran it, start-up goes on quietly.
// herald doctor fails the check with the same command.
func TestSearchAttributesOnTemporalCloud(t *testing.T) {
	cloud := cloudtest.Start(t, cloudtest.Options{APIKey: "key"})
	s, logs := cloudStack(t, cloud)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := s.EnsureSearchAttributes(ctx); err != nil {
		t.Fatalf("%v\n%s", err, logs.String())
	}
	tcld := "tcld namespace search-attributes add --namespace herald.a1b2c --search-attribute HeraldAppId=KeywordList --search-attribute HeraldRecipient=Keyword --search-attribute HeraldRequestId=KeywordList --search-attribute HeraldWorkflow=Keyword"
	for _, want := range []string{"level=ERROR", "lacks Herald's search attributes HeraldAppId, HeraldRecipient, HeraldRequestId, HeraldWorkflow", tcld} {
		if !strings.Contains(logs.String(), want) {
			t.Errorf("start-up log lacks %q:\n%s", want, logs.String())
		}
	}
	d := &doctor.Doctor{Cfg: s.Cfg, Temporal: s.Temporal, TemporalConn: s.TemporalConn}
	f := findingOf(d.Run(ctx), "search-attributes")
	if f.Level != doctor.Fail || !strings.Contains(f.Fix, tcld) || !strings.Contains(f.Message, "Temporal Cloud") {
		t.Errorf("doctor: %+v", f)
	}

	// Only the missing ones are named.
	cloud.AddWithTcld(map[string]enumspb.IndexedValueType{"HeraldAppId": visibility.All()["HeraldAppId"], "HeraldRequestId": visibility.All()["HeraldRequestId"]})
	s, logs = cloudStack(t, cloud)
	if err := s.EnsureSearchAttributes(ctx); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(logs.String(), "lacks Herald's search attributes HeraldRecipient, HeraldWorkflow") || strings.Contains(logs.String(), "HeraldAppId=") {
		t.Errorf("after two were added:\n%s", logs.String())
	}

	cloud.AddWithTcld(visibility.All())
	s, logs = cloudStack(t, cloud)
	if err := s.EnsureSearchAttributes(ctx); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(logs.String(), "level=ERROR") || strings.Contains(logs.String(), "level=WARN") {
		t.Errorf("after tcld:\n%s", logs.String())
	}
	d = &doctor.Doctor{Cfg: s.Cfg, Temporal: s.Temporal, TemporalConn: s.TemporalConn}
	if f := findingOf(d.Run(ctx), "search-attributes"); f.Level != doctor.OK {
		t.Errorf("doctor after tcld: %+v", f)
	}
}

func findingOf(r doctor.Report, check string) doctor.Finding {
	for _, f := range r.Findings {
		if f.Check == check {
			return f
		}
	}
	return doctor.Finding{}
}

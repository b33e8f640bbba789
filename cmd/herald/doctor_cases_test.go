package main

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/heraldhq/herald/db"
	"github.com/heraldhq/herald/internal/console/apps"
	"github.com/heraldhq/herald/internal/ops/doctor"
	"github.com/heraldhq/herald/internal/platform/secrets"
	"github.com/heraldhq/herald/internal/testkit/dbtest"
)

// TestDoctorMoreBadConfigurations covers the bad configurations TestDoctorBadConfigurations
// leaves out, one broken at a time on the good one: a secret key unset, a placeholder or
// weak; a database that does not exist or that a newer release migrated; a plain-http or
// relative public URL; system mail from localhost or without TLS; more insecure apps than
// the report names. Each must give its finding at its level, with a fix.
func TestDoctorMoreBadConfigurations(t *testing.T) {
	good := goodDoctorEnv(t)
	with := func(kv ...string) map[string]string {
		env := maps.Clone(good)
		for i := 0; i < len(kv); i += 2 {
			env[kv[i]] = kv[i+1]
		}
		return env
	}
	ctx := t.Context()
	// A database a newer release migrated: one version this binary does not know.
	ahead := dbtest.URL(t)
	d, err := db.Open(ctx, ahead, db.PoolSize{MaxConns: 2})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := d.Pool.Exec(ctx, "INSERT INTO goose_db_version (version_id, is_applied) VALUES (99999, true)"); err != nil {
		t.Fatal(err)
	}
	d.Close()
	// More insecure apps than a report names.
	crowded := dbtest.URL(t)
	d, err = db.Open(ctx, crowded, db.PoolSize{MaxConns: 2})
	if err != nil {
		t.Fatal(err)
	}
	box, err := secrets.NewBox(good["HERALD_SECRET_KEY"])
	if err != nil {
		t.Fatal(err)
	}
	for i := range doctor.MaxListedApps + 2 {
		if _, err := apps.NewService(d, box).Create(ctx, fmt.Sprintf("Open Shop %d", i)); err != nil {
			t.Fatal(err)
		}
	}
	d.Close()
	missingDB := db.WithDatabase(dbtest.ServerURL(t), "herald_no_such_database_"+strings.ToLower(secrets.HexToken(4)))

	cases := []struct {
		name  string
		env   map[string]string
		check string
		want  doctor.Level
		says  string
		// also are the checks that the same mistake rightly fails too.
		also []string
	}{
		{"no secret key and no key file", with("HERALD_SECRET_KEY", "", "HERALD_DATA_DIR", t.TempDir()), "secret-key", doctor.Fail, "not set", []string{"codec-key"}},
		{"placeholder secret key", with("HERALD_SECRET_KEY", "please-change-me-before-production-0123456789"), "secret-key", doctor.Fail, "placeholder", []string{"config"}},
		{"weak secret key", with("HERALD_SECRET_KEY", "passwordpasswordpasswordpassword"), "secret-key", doctor.Warn, "distinct characters", nil},
		{"database does not exist", with("HERALD_DATABASE_URL", missingDB), "database", doctor.Fail, "does not exist", []string{"migrations"}},
		{"database migrated by a newer release", with("HERALD_DATABASE_URL", ahead), "migrations", doctor.Warn, "99999", nil},
		{"plain http public URL", with("HERALD_PUBLIC_URL", "http://herald.example.com"), "public-url", doctor.Warn, "plain http", nil},
		{"relative public URL", with("HERALD_PUBLIC_URL", "herald.example.com"), "config", doctor.Fail, "HERALD_PUBLIC_URL", []string{"public-url", "origins"}},
		{"system mail from localhost", with("HERALD_SMTP_FROM", "Herald <no-reply@localhost>"), "smtp", doctor.Warn, "@localhost", nil},
		{"system mail without TLS", with("HERALD_SMTP_TLS", "none"), "smtp", doctor.Warn, "without TLS", nil},
		{"more insecure apps than listed", with("HERALD_DATABASE_URL", crowded), "apps", doctor.Warn, "and 2 more", nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r, _ := runDoctorCmd(t, tc.env)
			if got := levelOf(r, tc.check); got != tc.want {
				t.Fatalf("%s: %q, want %s (%+v)", tc.check, got, tc.want, r.Findings)
			}
			found := false
			for _, f := range r.Findings {
				if f.Check == tc.check && f.Level == tc.want && strings.Contains(f.Message, tc.says) {
					found = true
					if f.Fix == "" {
						t.Errorf("%s: no fix", tc.check)
					}
				}
			}
			if !found {
				t.Errorf("no %s finding of %s says %q: %+v", tc.want, tc.check, tc.says, r.Findings)
			}
			// One thing is broken: every other finding stays as on the good configuration.
			for _, f := range r.Findings {
				if f.Level != doctor.OK && f.Check != tc.check && !slices.Contains(tc.also, f.Check) {
					t.Errorf("unrelated finding %+v", f)
				}
			}
		})
	}
}

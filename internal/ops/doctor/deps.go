package doctor

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"go.temporal.io/api/serviceerror"
	"go.temporal.io/api/workflowservice/v1"
	"go.temporal.io/sdk/client"

	"github.com/heraldhq/herald/db"
	"github.com/heraldhq/herald/internal/console/apps"
	"github.com/heraldhq/herald/internal/platform/config"
	"github.com/heraldhq/herald/internal/platform/temporalconn"
	"github.com/heraldhq/herald/workflows/visibility"
)

// databaseFindings checks Postgres, the migration level and the apps.
func (d *Doctor) databaseFindings(ctx context.Context) []Finding {
	where := config.MaskURL(d.Cfg.DatabaseURL)
	if d.DB == nil {
		err := d.DBErr
		if err == nil {
			err = errors.New("no connection")
		}
		return []Finding{fail("database", fmt.Sprintf("cannot reach %s: %v", where, err),
			"Start Postgres or correct HERALD_DATABASE_URL, then run `herald migrate` (it creates the database).")}
	}
	ctx, cancel := context.WithTimeout(ctx, d.timeout())
	defer cancel()
	if err := d.DB.Pool.Ping(ctx); err != nil {
		return []Finding{fail("database", fmt.Sprintf("cannot reach %s: %v", where, err),
			"Start Postgres or correct HERALD_DATABASE_URL.")}
	}
	out := []Finding{ok("database", "reachable at "+where)}
	l, err := db.MigrationLevel(ctx, d.DB.Pool)
	switch {
	case err != nil:
		return append(out, fail("migrations", err.Error(), "Check that HERALD_DATABASE_URL's user may read the database, then run `herald migrate`."))
	case len(l.Pending) > 0:
		return append(out, fail("migrations", fmt.Sprintf("the database lacks %d of this binary's %d migrations (%s)", len(l.Pending), len(db.Versions()), versions(l.Pending)),
			"Run `herald migrate` with this binary before starting it."))
	case len(l.Unknown) > 0:
		out = append(out, warn("migrations", fmt.Sprintf("the database carries %d migrations this binary does not know (%s): a newer release migrated it", len(l.Unknown), versions(l.Unknown)),
			"Run the release that migrated the database, or finish the rolling upgrade (docs/deployment.md)."))
	default:
		out = append(out, ok("migrations", fmt.Sprintf("all %d migrations of this binary applied", len(db.Versions()))))
	}
	return append(out, d.userModeApps(ctx))
}

func (d *Doctor) userModeApps(ctx context.Context) Finding {
	flagged, total, err := apps.NewService(d.DB, nil).UserMode(ctx, MaxListedApps)
	if err != nil {
		return warn("apps", "could not list the apps: "+err.Error(), "Run `herald migrate`, then `herald doctor` again.")
	}
	if total == 0 {
		return ok("apps", "every app authenticates its users (secure mode or HMAC)")
	}
	names := make([]string, 0, len(flagged))
	for _, a := range flagged {
		names = append(names, fmt.Sprintf("%q (app %d, client %d)", a.Name, a.ID, a.ClientID))
	}
	more := ""
	if total > len(flagged) {
		more = fmt.Sprintf(" and %d more", total-len(flagged))
	}
	return warn("apps", fmt.Sprintf("%d app(s) in user mode without secure mode (%s): anyone with the public API key can act as any of their users: %s%s",
		total, apps.WarnInsecureUserMode, strings.Join(names, ", "), more),
		"Turn on secure mode for each (console → app → Security: generate the key pair and sign user JWTs on your backend), or HMAC signatures.")
}

// temporalFindings checks the TLS files, the frontend, the namespace, the search
// attributes and the codec key.
func (d *Doctor) temporalFindings(ctx context.Context) []Finding {
	addr, ns := d.Cfg.TemporalAddress, d.Cfg.TemporalNamespace
	out := d.temporalTLSFindings()
	unreachable := "Start Temporal or correct HERALD_TEMPORAL_ADDRESS (and its TLS settings); sends wait in the outbox until it answers."
	if d.Temporal == nil {
		err := d.TemporalErr
		if err == nil {
			err = errors.New("no client")
		}
		return append(out, fail("temporal", fmt.Sprintf("cannot reach Temporal at %s: %v", addr, err), unreachable))
	}
	ctx, cancel := context.WithTimeout(ctx, d.timeout())
	defer cancel()
	if d.TemporalConn != nil {
		err := d.TemporalConn.Check(ctx, d.Temporal)
		var setup *temporalconn.SetupError
		switch {
		case errors.As(err, &setup):
			fix := setup.Fix
			if setup.Setting != "" {
				fix = setup.Setting + ": " + fix
			}
			return append(out, fail("temporal", fmt.Sprintf("the connection to Temporal at %s cannot work: %s (%v)", addr, setup.Problem, setup.Err), fix))
		case err != nil:
			return append(out, fail("temporal", fmt.Sprintf("cannot reach Temporal at %s: %v", addr, err), unreachable))
		}
	}
	if _, err := d.Temporal.CheckHealth(ctx, &client.CheckHealthRequest{}); err != nil {
		return append(out, fail("temporal", fmt.Sprintf("cannot reach Temporal at %s: %v", addr, err), unreachable))
	}
	out = append(out, ok("temporal", "reachable at "+addr))
	_, err := d.Temporal.WorkflowService().DescribeNamespace(ctx, &workflowservice.DescribeNamespaceRequest{Namespace: ns})
	var nf *serviceerror.NamespaceNotFound
	switch {
	case errors.As(err, &nf):
		return append(out, fail("namespace", fmt.Sprintf("the namespace %q does not exist", ns),
			fmt.Sprintf("Create it (`temporal operator namespace create --namespace %s`; Temporal Cloud: `tcld namespace create`) or correct HERALD_TEMPORAL_NAMESPACE.", ns)))
	case err != nil:
		return append(out, fail("namespace", fmt.Sprintf("cannot describe the namespace %q: %v", ns, err),
			"Check that Herald's Temporal credentials may use HERALD_TEMPORAL_NAMESPACE."))
	}
	out = append(out, ok("namespace", ns))
	out = append(out, d.searchAttributes(ctx))
	if d.CodecKey != nil {
		out = append(out, d.CodecKey(ctx))
	}
	return out
}

// cloud reports whether Temporal is Temporal Cloud (by its address, or the TLS server name
// of a private endpoint), whose search attributes are added with tcld.
func (d *Doctor) cloud() bool {
	return temporalconn.IsCloud(d.Cfg.TemporalAddress) || temporalconn.IsCloud(d.Cfg.TemporalClient.ServerName)
}

func (d *Doctor) searchAttributes(ctx context.Context) Finding {
	ns := d.Cfg.TemporalNamespace
	missing, err := visibility.Missing(ctx, d.Temporal, ns)
	var denied *serviceerror.PermissionDenied
	switch {
	case errors.As(err, &denied):
		return warn("search-attributes", fmt.Sprintf("Herald's credentials may not list the search attributes of the namespace %q, so whether HeraldAppId, HeraldRequestId, HeraldWorkflow and HeraldRecipient exist is unknown: %v", ns, err),
			"Check them (Temporal Cloud: `tcld namespace get --namespace "+ns+"`), and add the missing ones: "+strings.Join(visibility.AddCommands(ns, visibility.All(), d.cloud()), "; ")+".")
	case err != nil:
		return fail("search-attributes", err.Error(),
			"Remove the attribute of the wrong type from the namespace, or use a namespace of Herald's own (HERALD_TEMPORAL_NAMESPACE).")
	}
	if len(missing) == 0 {
		return ok("search-attributes", "HeraldAppId, HeraldRequestId, HeraldWorkflow and HeraldRecipient are registered")
	}
	names := strings.Join(visibility.Names(missing), ", ")
	cmds := strings.Join(visibility.AddCommands(ns, missing, d.cloud()), "; ")
	if d.cloud() {
		// Temporal Cloud's operator API does not add search attributes: Herald cannot.
		return fail("search-attributes", fmt.Sprintf("the namespace %q lacks %s: workflow runs cannot start until they exist, and Temporal Cloud lets only its control plane add them", ns, names),
			"Run: "+cmds+".")
	}
	// herald api and herald worker register them at start-up when their credentials may.
	return warn("search-attributes", fmt.Sprintf("the namespace %q lacks %s: workflow runs cannot start until they exist", ns, names),
		"Start herald api or herald worker once (they register them when allowed), or run: "+cmds+".")
}

func versions(vs []int64) string {
	s := make([]string, 0, min(len(vs), 5))
	for i, v := range vs {
		if i == 5 {
			s = append(s, fmt.Sprintf("… %d more", len(vs)-5))
			break
		}
		s = append(s, fmt.Sprintf("%05d", v))
	}
	return strings.Join(s, ", ")
}

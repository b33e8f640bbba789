package chart_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"helm.sh/helm/v3/pkg/chartutil"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
)

// env is a container's environment by name.
func env(c corev1.Container) map[string]corev1.EnvVar {
	out := map[string]corev1.EnvVar{}
	for _, e := range c.Env {
		out[e.Name] = e
	}
	return out
}

func component(r *rendered, name string) []*appsv1.Deployment {
	var out []*appsv1.Deployment
	for _, d := range r.deployments {
		if d.Labels["app.kubernetes.io/component"] == name {
			out = append(out, d)
		}
	}
	return out
}

func secretRef(t *testing.T, where string, e corev1.EnvVar, name, key string) {
	t.Helper()
	if e.ValueFrom == nil || e.ValueFrom.SecretKeyRef == nil || e.ValueFrom.SecretKeyRef.Name != name || e.ValueFrom.SecretKeyRef.Key != key {
		t.Errorf("%s: %s = %+v, want the key %s of Secret %s", where, e.Name, e, key, name)
	}
}

// The defaults: metrics on loopback, no ServiceMonitor or Ingress, the Secret herald.
func TestDefaultInstall(t *testing.T) {
	r := renderInstall(t, "")
	if len(r.monitors)+len(r.ingresses) != 0 || len(r.hpas) != 1 || len(r.pdbs) != 2 {
		t.Errorf("%d monitors, %d ingresses, %d HPAs, %d PDBs", len(r.monitors), len(r.ingresses), len(r.hpas), len(r.pdbs))
	}
	for _, d := range r.deployments {
		e := env(d.Spec.Template.Spec.Containers[0])
		if e["HERALD_METRICS_ADDR"].Value != "127.0.0.1:9464" {
			t.Errorf("%s: HERALD_METRICS_ADDR %q: metrics must stay on loopback without the ServiceMonitor", d.Name, e["HERALD_METRICS_ADDR"].Value)
		}
		if _, ok := e["HERALD_METRICS_TOKEN"]; ok {
			t.Errorf("%s: a metrics token without the ServiceMonitor", d.Name)
		}
		secretRef(t, d.Name, e["HERALD_SECRET_KEY"], "herald", "secret-key")
		secretRef(t, d.Name, e["HERALD_DATABASE_URL"], "herald", "database-url")
	}
}

// Production: the ServiceMonitor, the metrics listeners beyond loopback behind the token of
// the same Secret, sticky sessions on the Ingress, mutual TLS to Temporal from a mounted
// Secret, workers split by kind of queue.
func TestProductionInstall(t *testing.T) {
	r := renderInstall(t, "production-values.yaml")
	if len(r.monitors) != 1 || len(r.ingresses) != 1 || len(r.hpas) != 1 {
		t.Fatalf("%d monitors, %d ingresses, %d HPAs", len(r.monitors), len(r.ingresses), len(r.hpas))
	}
	ep := r.monitors[0].Spec.Endpoints[0]
	if ep.Port != "metrics" || ep.Path != "/metrics" || ep.Authorization == nil || ep.Authorization.Credentials == nil {
		t.Fatalf("ServiceMonitor endpoint %+v", ep)
	}
	token := ep.Authorization.Credentials
	for _, d := range r.deployments {
		c := d.Spec.Template.Spec.Containers[0]
		e := env(c)
		if e["HERALD_METRICS_ADDR"].Value != "0.0.0.0:9464" {
			t.Errorf("%s: HERALD_METRICS_ADDR %q", d.Name, e["HERALD_METRICS_ADDR"].Value)
		}
		secretRef(t, d.Name, e["HERALD_METRICS_TOKEN"], token.Name, token.Key)
		secretRef(t, d.Name, e["HERALD_SMTP_PASSWORD"], "herald-smtp", "password")
		secretRef(t, d.Name, e["HERALD_REDIS_URL"], "herald-redis", "url")
		if e["HERALD_TEMPORAL_TLS_CERT_FILE"].Value != "/etc/herald/temporal-tls/tls.crt" || e["HERALD_TEMPORAL_TLS_KEY_FILE"].Value != "/etc/herald/temporal-tls/tls.key" ||
			e["HERALD_TEMPORAL_TLS_CA_FILE"].Value != "/etc/herald/temporal-tls/ca.crt" || e["HERALD_TEMPORAL_TLS_SERVER_NAME"].Value == "" {
			t.Errorf("%s: Temporal TLS variables %v", d.Name, e)
		}
		mounted := false
		for _, m := range c.VolumeMounts {
			mounted = mounted || m.MountPath == "/etc/herald/temporal-tls"
		}
		found := false
		for _, v := range d.Spec.Template.Spec.Volumes {
			found = found || (v.Secret != nil && v.Secret.SecretName == "herald-temporal-client")
		}
		if !mounted || !found {
			t.Errorf("%s: the Temporal client certificate Secret is not mounted", d.Name)
		}
		if !strings.Contains(d.Spec.Template.Spec.Containers[0].Image, "@sha256:") {
			t.Errorf("%s: image %s, want the digest", d.Name, c.Image)
		}
	}
	workers := component(r, "worker")
	if len(workers) != 2 {
		t.Fatalf("%d worker Deployments, want 2 groups", len(workers))
	}
	queues := map[string]string{}
	for _, w := range workers {
		queues[w.Labels["herald.dev/worker-group"]] = w.Spec.Template.Spec.Containers[0].Args[2]
	}
	if queues["orchestration"] != "orchestration" || queues["providers"] != "email,sms,push,chat,webhook" {
		t.Errorf("worker queues %v", queues)
	}
	a := r.ingresses[0].Annotations
	if a["nginx.ingress.kubernetes.io/affinity"] != "cookie" || a["nginx.ingress.kubernetes.io/session-cookie-name"] == "" || a["cert-manager.io/cluster-issuer"] != "letsencrypt" {
		t.Errorf("Ingress annotations %v: want cookie affinity for Engine.IO polling", a)
	}
	if a["nginx.ingress.kubernetes.io/session-cookie-secure"] != "true" {
		t.Errorf("Ingress with TLS: the affinity cookie is not Secure: %v", a)
	}
	if len(r.ingresses[0].Spec.TLS) != 1 {
		t.Errorf("Ingress TLS %v", r.ingresses[0].Spec.TLS)
	}
}

// Temporal Cloud: the API key from the external Secret, TLS without files, no chart account.
func TestTemporalCloudInstall(t *testing.T) {
	r := renderInstall(t, "temporal-cloud-values.yaml")
	if len(r.accounts) != 0 {
		t.Errorf("%d ServiceAccounts with serviceAccount.create=false", len(r.accounts))
	}
	for _, d := range r.deployments {
		spec := d.Spec.Template.Spec
		e := env(spec.Containers[0])
		secretRef(t, d.Name, e["HERALD_TEMPORAL_API_KEY"], "herald-from-vault", "HERALD_TEMPORAL_API_KEY")
		secretRef(t, d.Name, e["HERALD_SECRET_KEY"], "herald-from-vault", "HERALD_SECRET_KEY")
		if e["HERALD_TEMPORAL_NAMESPACE"].Value != "herald-prod.a1b2c" || !strings.HasSuffix(e["HERALD_TEMPORAL_ADDRESS"].Value, ".tmprl.cloud:7233") {
			t.Errorf("%s: Temporal %v", d.Name, e)
		}
		for _, name := range []string{"HERALD_TEMPORAL_TLS_CA_FILE", "HERALD_TEMPORAL_TLS_CERT_FILE"} {
			if _, ok := e[name]; ok {
				t.Errorf("%s: %s set without a Secret of files", d.Name, name)
			}
		}
		if spec.ServiceAccountName != "herald-workload" {
			t.Errorf("%s: service account %q", d.Name, spec.ServiceAccountName)
		}
	}
	if a := r.ingresses[0].Annotations; a["nginx.ingress.kubernetes.io/upstream-hash-by"] != "$remote_addr" || a["nginx.ingress.kubernetes.io/affinity"] != "" {
		t.Errorf("Ingress annotations %v: want affinity by client address", a)
	}
	if sa := r.jobs[0].Spec.Template.Spec.ServiceAccountName; sa != "herald-workload" {
		t.Errorf("the migration Job runs as %q, want the existing account", sa)
	}
}

// Values the chart must refuse: a secret value inline, a missing Secret reference, a
// setting the chart owns, half a client certificate, a ServiceMonitor without its token.
func TestChartRefusesUnsafeValues(t *testing.T) {
	c := loadChart(t)
	for name, tc := range map[string]struct {
		values string
		want   string
	}{
		"inline secret":          {"config: { HERALD_SMTP_PASSWORD: hunter2 }", "config.HERALD_SMTP_PASSWORD is a secret"},
		"inline database URL":    {"config: { HERALD_DATABASE_URL: 'postgres://u:p@db/herald' }", "config.HERALD_DATABASE_URL is a secret"},
		"inline codec keys":      {"config: { HERALD_TEMPORAL_CODEC_KEYS: k1=abc }", "is a secret"},
		"no secret key ref":      {"secrets: { secretKey: { name: '' } }", "HERALD_SECRET_KEY needs a Secret reference"},
		"secret env without key": {"secrets: { env: { HERALD_SMTP_PASSWORD: { name: smtp } } }", "HERALD_SMTP_PASSWORD needs a Secret reference"},
		"managed by the chart":   {"config: { HERALD_METRICS_ADDR: '0.0.0.0:9464' }", "is set by the chart"},
		"not a Herald variable":  {"config: { PATH: /bin }", "only HERALD_*"},
		"half a certificate":     {"temporal: { tls: { enabled: true, secretName: s, certKey: tls.crt } }", "set both certKey and keyKey"},
		"monitor without token":  {"metrics: { serviceMonitor: { enabled: true } }", "HERALD_METRICS_TOKEN needs a Secret reference"},
		"bad worker group name":  {"worker: { groups: [ { name: Email_Workers, queues: email, replicaCount: 1 } ] }", "must be 1 to 20 lowercase"},
		"unknown queue kind":     {"worker: { groups: [ { name: w, queues: 'email,fax', replicaCount: 1 } ] }", "queues"},
		"misspelt value":         {"api: { replicas: 3 }", "replicas"},
		"secret value in a ref":  {"secrets: { env: { HERALD_SMTP_PASSWORD: { name: s, key: k, value: hunter2 } } }", "value"},
	} {
		vals, err := chartutil.ReadValues([]byte(tc.values))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if _, err := renderChart(t, c, vals); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err = %v, want %q", name, err, tc.want)
		}
	}
}

// Every HERALD_* variable the chart sets exists: a typo would be ignored by Herald.
func TestChartSetsOnlyKnownVariables(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "..", "..", "docs", "configuration.md"))
	if err != nil {
		t.Fatal(err)
	}
	known := map[string]bool{}
	for _, m := range regexp.MustCompile("`(HERALD_[A-Z0-9_]+)`").FindAllStringSubmatch(string(doc), -1) {
		known[m[1]] = true
	}
	if len(known) < 50 {
		t.Fatalf("read only %d variables from docs/configuration.md", len(known))
	}
	for _, file := range installs {
		r := renderInstall(t, file)
		for name, cp := range heraldContainers(r) {
			for _, e := range cp.c.Env {
				if strings.HasPrefix(e.Name, "HERALD_") && !known[e.Name] {
					t.Errorf("%s: %s: %s is not a Herald setting (docs/configuration.md)", r.name, name, e.Name)
				}
			}
		}
	}
}

// HERALD_CHART_DUMP=dir writes what each install renders, for reading without helm.
func TestDumpRendered(t *testing.T) {
	dir := os.Getenv("HERALD_CHART_DUMP")
	if dir == "" {
		t.Skip("set HERALD_CHART_DUMP=<dir> to write the rendered manifests")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, file := range installs {
		files, err := renderChart(t, loadChart(t), readValues(t, file))
		if err != nil {
			t.Fatal(err)
		}
		var b strings.Builder
		for _, name := range sortedKeys(files) {
			if strings.TrimSpace(files[name]) != "" {
				b.WriteString("# " + name + "\n" + files[name] + "\n---\n")
			}
		}
		out := strings.TrimSuffix(file, "-values.yaml")
		if out == "" {
			out = "defaults"
		}
		if err := os.WriteFile(filepath.Join(dir, out+".yaml"), []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

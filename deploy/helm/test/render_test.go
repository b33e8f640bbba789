// Package chart_test renders deploy/helm/herald with Helm's own Go SDK, for the default
// values and the realistic values files of deploy/helm/herald/ci, and strictly decodes
// every document into the Kubernetes API types: a field the API does not know fails, as
// it would at kubectl apply --validate=strict. It is a module of its own so that the
// server's module never depends on Helm or the Kubernetes libraries (make test-helm).
package chart_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	"helm.sh/helm/v3/pkg/chart"
	"helm.sh/helm/v3/pkg/chart/loader"
	"helm.sh/helm/v3/pkg/chartutil"
	"helm.sh/helm/v3/pkg/engine"
	"helm.sh/helm/v3/pkg/lint"
	"helm.sh/helm/v3/pkg/lint/support"
	"helm.sh/helm/v3/pkg/releaseutil"
	appsv1 "k8s.io/api/apps/v1"
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	networkingv1 "k8s.io/api/networking/v1"
	policyv1 "k8s.io/api/policy/v1"
	kjson "sigs.k8s.io/json"
	"sigs.k8s.io/yaml"
)

// chartDir is the chart under test.
const chartDir = "../herald"

// namespace and release are those of the simulated install.
const (
	namespace = "notifications"
	release   = "herald"
)

// kinds maps apiVersion/kind to a new value of its Go type. A kind the chart renders that
// is not here fails the test: add its type, do not skip it.
// No Secret and no ConfigMap among them: the chart holds no secret value and lists every
// variable in the pod specs, so rendering either fails here.
var kinds = map[string]func() any{
	"apps/v1/Deployment":                      func() any { return &appsv1.Deployment{} },
	"v1/Service":                              func() any { return &corev1.Service{} },
	"v1/ServiceAccount":                       func() any { return &corev1.ServiceAccount{} },
	"batch/v1/Job":                            func() any { return &batchv1.Job{} },
	"policy/v1/PodDisruptionBudget":           func() any { return &policyv1.PodDisruptionBudget{} },
	"autoscaling/v2/HorizontalPodAutoscaler":  func() any { return &autoscalingv2.HorizontalPodAutoscaler{} },
	"networking.k8s.io/v1/Ingress":            func() any { return &networkingv1.Ingress{} },
	"monitoring.coreos.com/v1/ServiceMonitor": func() any { return &monitoringv1.ServiceMonitor{} },
}

// rendered is one install's documents, decoded.
type rendered struct {
	name        string
	objects     []any
	deployments []*appsv1.Deployment
	services    []*corev1.Service
	jobs        []*batchv1.Job
	pdbs        []*policyv1.PodDisruptionBudget
	hpas        []*autoscalingv2.HorizontalPodAutoscaler
	ingresses   []*networkingv1.Ingress
	monitors    []*monitoringv1.ServiceMonitor
	accounts    []*corev1.ServiceAccount
}

func loadChart(t *testing.T) *chart.Chart {
	t.Helper()
	c, err := loader.Load(chartDir)
	if err != nil {
		t.Fatalf("load %s: %v", chartDir, err)
	}
	return c
}

// renderChart renders the chart as `helm install --dry-run` would, with the values of
// valuesFile ("" for the defaults), and returns the manifests by template.
func renderChart(t *testing.T, c *chart.Chart, vals chartutil.Values) (map[string]string, error) {
	t.Helper()
	caps := chartutil.DefaultCapabilities.Copy()
	caps.APIVersions = append(caps.APIVersions, "monitoring.coreos.com/v1", "monitoring.coreos.com/v1/ServiceMonitor")
	opts := chartutil.ReleaseOptions{Name: release, Namespace: namespace, Revision: 1, IsInstall: true}
	top, err := chartutil.ToRenderValues(c, vals, opts, caps)
	if err != nil {
		return nil, err
	}
	return engine.Render(c, top)
}

func readValues(t *testing.T, file string) chartutil.Values {
	t.Helper()
	if file == "" {
		return chartutil.Values{}
	}
	v, err := chartutil.ReadValuesFile(filepath.Join(chartDir, "ci", file))
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// decode strictly decodes every rendered document.
func decode(t *testing.T, name string, files map[string]string) *rendered {
	t.Helper()
	r := &rendered{name: name}
	for _, path := range sortedKeys(files) {
		if strings.HasSuffix(path, "NOTES.txt") || strings.HasPrefix(filepath.Base(path), "_") {
			continue
		}
		for _, doc := range releaseutil.SplitManifests(files[path]) {
			if strings.TrimSpace(stripComments(doc)) == "" {
				continue
			}
			js, err := yaml.YAMLToJSONStrict([]byte(doc))
			if err != nil {
				t.Fatalf("%s: %s: not YAML (or a key twice): %v\n%s", name, path, err, doc)
			}
			var head struct{ APIVersion, Kind string }
			if err := json.Unmarshal(js, &head); err != nil {
				t.Fatalf("%s: %s: %v", name, path, err)
			}
			newObj, ok := kinds[head.APIVersion+"/"+head.Kind]
			if !ok {
				t.Fatalf("%s: %s: kind %s/%s has no Go type in this test", name, path, head.APIVersion, head.Kind)
			}
			obj := newObj()
			dec := json.NewDecoder(bytes.NewReader(js))
			dec.DisallowUnknownFields()
			if err := dec.Decode(obj); err != nil {
				t.Fatalf("%s: %s: %s/%s does not decode strictly: %v\n%s", name, path, head.APIVersion, head.Kind, err, doc)
			}
			// encoding/json matches field names regardless of case; the API server does
			// not: decode again as it does (kubectl apply --validate=strict).
			strict, err := kjson.UnmarshalStrict(js, newObj(), kjson.DisallowDuplicateFields, kjson.DisallowUnknownFields)
			if err != nil || len(strict) > 0 {
				t.Fatalf("%s: %s: %s/%s: the API server would refuse it: %v %v\n%s", name, path, head.APIVersion, head.Kind, err, strict, doc)
			}
			r.objects = append(r.objects, obj)
			switch o := obj.(type) {
			case *appsv1.Deployment:
				r.deployments = append(r.deployments, o)
			case *corev1.Service:
				r.services = append(r.services, o)
			case *batchv1.Job:
				r.jobs = append(r.jobs, o)
			case *policyv1.PodDisruptionBudget:
				r.pdbs = append(r.pdbs, o)
			case *autoscalingv2.HorizontalPodAutoscaler:
				r.hpas = append(r.hpas, o)
			case *networkingv1.Ingress:
				r.ingresses = append(r.ingresses, o)
			case *monitoringv1.ServiceMonitor:
				r.monitors = append(r.monitors, o)
			case *corev1.ServiceAccount:
				r.accounts = append(r.accounts, o)
			}
		}
	}
	return r
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func stripComments(doc string) string {
	var b strings.Builder
	for _, line := range strings.Split(doc, "\n") {
		if !strings.HasPrefix(strings.TrimSpace(line), "#") {
			b.WriteString(line + "\n")
		}
	}
	return b.String()
}

// installs are the values this test renders: the defaults and the files of ci/.
var installs = []string{"", "minimal-values.yaml", "production-values.yaml", "temporal-cloud-values.yaml"}

func renderInstall(t *testing.T, file string) *rendered {
	t.Helper()
	name := file
	if name == "" {
		name = "defaults"
	}
	files, err := renderChart(t, loadChart(t), readValues(t, file))
	if err != nil {
		t.Fatalf("%s: render: %v", name, err)
	}
	return decode(t, name, files)
}

// TestChartLints runs Helm's own linter (Chart.yaml, templates, values) on every install.
func TestChartLints(t *testing.T) {
	for _, file := range installs {
		res := lint.AllWithKubeVersion(chartDir, readValues(t, file), namespace, nil)
		for _, m := range res.Messages {
			if m.Severity >= support.WarningSev {
				t.Errorf("%s: helm lint: %s", file, m)
			}
		}
	}
}

func TestChartRendersStrictly(t *testing.T) {
	for _, file := range installs {
		r := renderInstall(t, file)
		t.Run(r.name, func(t *testing.T) {
			if len(r.deployments) < 2 || len(r.services) < 1 || len(r.jobs) != 1 {
				t.Fatalf("%d deployments, %d services, %d jobs", len(r.deployments), len(r.services), len(r.jobs))
			}
			checkLabels(t, r)
			checkSelectors(t, r)
			checkPods(t, r)
			checkProbes(t, r)
			checkMigrations(t, r)
		})
	}
}

// fmtObj names an object for messages.
func fmtObj(kind, name string) string { return fmt.Sprintf("%s %s", kind, name) }

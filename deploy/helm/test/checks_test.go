package chart_test

import (
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
)

// secretVar matches the secret variables of internal/platform/config (its secret:"…" tags);
// the chart's own guard uses the same expression (templates/_helpers.tpl).
var secretVar = regexp.MustCompile(`(SECRET|PASSWORD$|TOKEN$|API_KEY$|SIGNING_KEY$|CODEC_KEYS$|DATABASE_URL$|REDIS_URL$)`)

// requiredLabels are on every object and every pod.
var requiredLabels = []string{"app.kubernetes.io/name", "app.kubernetes.io/instance", "app.kubernetes.io/component", "app.kubernetes.io/managed-by", "app.kubernetes.io/version", "helm.sh/chart"}

// meta is the kind and metadata of a decoded object.
func meta(obj any) (string, metav1.Object) {
	return reflect.TypeOf(obj).Elem().Name(), obj.(metav1.Object)
}

func checkLabels(t *testing.T, r *rendered) {
	for _, obj := range r.objects {
		kind, m := meta(obj)
		for _, l := range requiredLabels {
			if m.GetLabels()[l] == "" {
				t.Errorf("%s lacks the label %s", fmtObj(kind, m.GetName()), l)
			}
		}
		if m.GetLabels()["app.kubernetes.io/instance"] != release || m.GetLabels()["app.kubernetes.io/managed-by"] != "Helm" {
			t.Errorf("%s: labels %v", fmtObj(kind, m.GetName()), m.GetLabels())
		}
	}
	for _, d := range r.deployments {
		for _, l := range requiredLabels {
			if d.Spec.Template.Labels[l] == "" {
				t.Errorf("Deployment %s: its pods lack the label %s", d.Name, l)
			}
		}
	}
}

// podsOf are the Deployments whose pod labels sel selects.
func podsOf(r *rendered, sel labels.Selector) []*appsv1.Deployment {
	var out []*appsv1.Deployment
	for _, d := range r.deployments {
		if sel.Matches(labels.Set(d.Spec.Template.Labels)) {
			out = append(out, d)
		}
	}
	return out
}

// Every selector selects what it means to: Deployments their own pods and no other
// Deployment's, Services and PDBs the pods of one component, the HPA and the Ingress
// existing objects and ports, the ServiceMonitor Services with a metrics port.
func checkSelectors(t *testing.T, r *rendered) {
	for _, d := range r.deployments {
		sel, err := metav1.LabelSelectorAsSelector(d.Spec.Selector)
		if err != nil {
			t.Fatal(err)
		}
		if got := podsOf(r, sel); len(got) != 1 || got[0] != d {
			t.Errorf("Deployment %s: its selector %v selects %d Deployments' pods", d.Name, d.Spec.Selector.MatchLabels, len(got))
		}
	}
	byName := map[string]*corev1.Service{}
	for _, s := range r.services {
		byName[s.Name] = s
		if got := podsOf(r, labels.SelectorFromSet(s.Spec.Selector)); len(got) == 0 {
			t.Errorf("Service %s selects no pods", s.Name)
		}
		for _, p := range s.Spec.Ports {
			for _, d := range podsOf(r, labels.SelectorFromSet(s.Spec.Selector)) {
				if !hasPort(d, p.TargetPort.StrVal) {
					t.Errorf("Service %s: target port %q is not a port of Deployment %s", s.Name, p.TargetPort.StrVal, d.Name)
				}
			}
		}
	}
	for _, p := range r.pdbs {
		sel, _ := metav1.LabelSelectorAsSelector(p.Spec.Selector)
		if got := podsOf(r, sel); len(got) != 1 {
			t.Errorf("PodDisruptionBudget %s covers %d Deployments", p.Name, len(got))
		}
	}
	for _, h := range r.hpas {
		if h.Spec.ScaleTargetRef.Kind != "Deployment" || !slices.ContainsFunc(r.deployments, func(d *appsv1.Deployment) bool {
			return d.Name == h.Spec.ScaleTargetRef.Name && d.Labels["app.kubernetes.io/component"] == "api"
		}) {
			t.Errorf("HorizontalPodAutoscaler %s scales %v, not the API Deployment", h.Name, h.Spec.ScaleTargetRef)
		}
		for _, d := range r.deployments {
			if d.Name == h.Spec.ScaleTargetRef.Name && d.Spec.Replicas != nil {
				t.Errorf("Deployment %s sets replicas while autoscaled: every upgrade would reset the HPA's count", d.Name)
			}
		}
	}
	for _, ing := range r.ingresses {
		for _, rule := range ing.Spec.Rules {
			for _, p := range rule.HTTP.Paths {
				s := byName[p.Backend.Service.Name]
				if s == nil || !slices.ContainsFunc(s.Spec.Ports, func(sp corev1.ServicePort) bool { return sp.Name == p.Backend.Service.Port.Name }) {
					t.Errorf("Ingress %s: backend %s port %q does not exist", ing.Name, p.Backend.Service.Name, p.Backend.Service.Port.Name)
				}
			}
		}
	}
	for _, sm := range r.monitors {
		sel, err := metav1.LabelSelectorAsSelector(&sm.Spec.Selector)
		if err != nil {
			t.Fatal(err)
		}
		components := map[string]bool{}
		for _, s := range r.services {
			if sel.Matches(labels.Set(s.Labels)) && slices.ContainsFunc(s.Spec.Ports, func(p corev1.ServicePort) bool { return p.Name == "metrics" }) {
				components[s.Labels["app.kubernetes.io/component"]] = true
			}
		}
		if !components["api"] || !components["worker"] {
			t.Errorf("ServiceMonitor %s reaches the metrics ports of %v, want api and worker", sm.Name, components)
		}
	}
}

func hasPort(d *appsv1.Deployment, name string) bool {
	for _, c := range d.Spec.Template.Spec.Containers {
		for _, p := range c.Ports {
			if p.Name == name {
				return true
			}
		}
	}
	return false
}

// heraldContainers are every container of the API and worker pods (init containers
// included) and of the migration Job, by a readable name.
func heraldContainers(r *rendered) map[string]struct {
	c   corev1.Container
	pod corev1.PodSpec
} {
	out := map[string]struct {
		c   corev1.Container
		pod corev1.PodSpec
	}{}
	add := func(owner string, spec corev1.PodSpec) {
		for _, c := range append(slices.Clone(spec.InitContainers), spec.Containers...) {
			out[owner+"/"+c.Name] = struct {
				c   corev1.Container
				pod corev1.PodSpec
			}{c, spec}
		}
	}
	for _, d := range r.deployments {
		add("Deployment "+d.Name, d.Spec.Template.Spec)
	}
	for _, j := range r.jobs {
		add("Job "+j.Name, j.Spec.Template.Spec)
	}
	return out
}

// checkPods: security contexts, no secret value in any env, the secrets each role needs.
func checkPods(t *testing.T, r *rendered) {
	for name, cp := range heraldContainers(r) {
		c, pod := cp.c, cp.pod
		sc := c.SecurityContext
		if sc == nil {
			t.Errorf("%s: no securityContext", name)
			continue
		}
		nonRoot := (sc.RunAsNonRoot != nil && *sc.RunAsNonRoot) || (pod.SecurityContext != nil && pod.SecurityContext.RunAsNonRoot != nil && *pod.SecurityContext.RunAsNonRoot)
		if !nonRoot || (sc.RunAsUser != nil && *sc.RunAsUser == 0) || (pod.SecurityContext != nil && pod.SecurityContext.RunAsUser != nil && *pod.SecurityContext.RunAsUser == 0) {
			t.Errorf("%s may run as root", name)
		}
		if sc.ReadOnlyRootFilesystem == nil || !*sc.ReadOnlyRootFilesystem {
			t.Errorf("%s: root filesystem not read-only", name)
		}
		if sc.AllowPrivilegeEscalation == nil || *sc.AllowPrivilegeEscalation || (sc.Privileged != nil && *sc.Privileged) {
			t.Errorf("%s: privilege escalation allowed", name)
		}
		if sc.Capabilities == nil || !slices.Equal(sc.Capabilities.Drop, []corev1.Capability{"ALL"}) || len(sc.Capabilities.Add) > 0 {
			t.Errorf("%s: capabilities %v, want drop [ALL]", name, sc.Capabilities)
		}
		seccomp := sc.SeccompProfile
		if seccomp == nil && pod.SecurityContext != nil {
			seccomp = pod.SecurityContext.SeccompProfile
		}
		if seccomp == nil || seccomp.Type != corev1.SeccompProfileTypeRuntimeDefault {
			t.Errorf("%s: seccomp %v, want RuntimeDefault", name, seccomp)
		}
		if pod.AutomountServiceAccountToken == nil || *pod.AutomountServiceAccountToken {
			t.Errorf("%s: the pod mounts a service account token Herald never uses", name)
		}
		if c.Resources.Requests.Cpu().IsZero() || c.Resources.Requests.Memory().IsZero() || c.Resources.Limits.Memory().IsZero() {
			t.Errorf("%s: resources %v: requests and a memory limit are required", name, c.Resources)
		}
		if len(c.EnvFrom) > 0 {
			t.Errorf("%s: envFrom: every variable is listed", name)
		}
		env := map[string]corev1.EnvVar{}
		for _, e := range c.Env {
			if _, dup := env[e.Name]; dup {
				t.Errorf("%s: %s set twice", name, e.Name)
			}
			env[e.Name] = e
			if secretVar.MatchString(e.Name) {
				if e.Value != "" || e.ValueFrom == nil || e.ValueFrom.SecretKeyRef == nil || e.ValueFrom.SecretKeyRef.Name == "" || e.ValueFrom.SecretKeyRef.Key == "" {
					t.Errorf("%s: the secret %s is not a secretKeyRef: %+v", name, e.Name, e)
				}
			} else if e.ValueFrom != nil && e.ValueFrom.SecretKeyRef != nil {
				t.Errorf("%s: %s comes from a Secret but is not a known secret variable", name, e.Name)
			}
			if strings.Contains(e.Value, "://") && strings.Contains(e.Value, "@") {
				t.Errorf("%s: %s=%q carries credentials in a plain value", name, e.Name, e.Value)
			}
		}
		want := []string{"HERALD_DATABASE_URL"}
		if !strings.HasPrefix(name, "Job ") {
			want = append(want, "HERALD_SECRET_KEY", "HERALD_TEMPORAL_ADDRESS", "HERALD_TEMPORAL_NAMESPACE", "HERALD_TASK_QUEUE", "HERALD_METRICS_ADDR")
		}
		for _, w := range want {
			if _, ok := env[w]; !ok {
				t.Errorf("%s lacks %s", name, w)
			}
		}
		for _, m := range c.VolumeMounts {
			if m.SubPath != "" {
				t.Errorf("%s mounts %s with subPath: rotated Secret files would never reach it", name, m.Name)
			}
		}
	}
	for _, d := range r.deployments {
		spec := d.Spec.Template.Spec
		if len(spec.InitContainers) != 1 || spec.InitContainers[0].Name != "doctor" || !slices.Equal(spec.InitContainers[0].Args, []string{"doctor"}) {
			t.Errorf("Deployment %s: init containers %v, want herald doctor", d.Name, spec.InitContainers)
		}
	}
}

// checkProbes: the API's liveness /livez, readiness /readyz on the port HERALD_HTTP_ADDR
// listens on; the worker's liveness asks its metrics listener's /livez.
func checkProbes(t *testing.T, r *rendered) {
	for _, d := range r.deployments {
		c := d.Spec.Template.Spec.Containers[0]
		env := map[string]string{}
		for _, e := range c.Env {
			env[e.Name] = e.Value
		}
		switch d.Labels["app.kubernetes.io/component"] {
		case "api":
			if !slices.Equal(c.Args, []string{"api"}) {
				t.Errorf("Deployment %s runs %v", d.Name, c.Args)
			}
			port := ""
			for _, p := range c.Ports {
				if p.Name == "http" && strings.HasSuffix(env["HERALD_HTTP_ADDR"], ":"+strconv.Itoa(int(p.ContainerPort))) && strings.HasPrefix(env["HERALD_HTTP_ADDR"], "0.0.0.0:") {
					port = p.Name
				}
			}
			if port == "" {
				t.Errorf("Deployment %s: no port named http where HERALD_HTTP_ADDR=%q listens", d.Name, env["HERALD_HTTP_ADDR"])
			}
			for probe, want := range map[*corev1.Probe]string{c.LivenessProbe: "/livez", c.ReadinessProbe: "/readyz"} {
				if probe == nil || probe.HTTPGet == nil || probe.HTTPGet.Path != want || probe.HTTPGet.Port.StrVal != "http" {
					t.Errorf("Deployment %s: probe %+v, want GET %s on http", d.Name, probe, want)
				}
			}
			if env["HERALD_SHUTDOWN_DRAIN"] == "" {
				t.Errorf("Deployment %s: no HERALD_SHUTDOWN_DRAIN: pods would stop accepting before leaving the load balancer", d.Name)
			}
		case "worker":
			if len(c.Args) != 3 || c.Args[0] != "worker" || c.Args[1] != "--queues" || c.Args[2] == "" {
				t.Errorf("Deployment %s runs %v, want worker --queues KINDS", d.Name, c.Args)
			}
			p := c.LivenessProbe
			_, metricsPort, _ := strings.Cut(env["HERALD_METRICS_ADDR"], ":")
			if p == nil || p.Exec == nil || !slices.Equal(p.Exec.Command[:2], []string{"/usr/local/bin/herald", "healthcheck"}) ||
				!slices.Contains(p.Exec.Command, "http://127.0.0.1:"+metricsPort+"/livez") {
				t.Errorf("Deployment %s: liveness %+v, want herald healthcheck on the metrics listener (%s)", d.Name, p, env["HERALD_METRICS_ADDR"])
			}
		default:
			t.Errorf("Deployment %s: component %q", d.Name, d.Labels["app.kubernetes.io/component"])
		}
	}
}

// checkMigrations: herald migrate as a pre-install/pre-upgrade hook that never restarts in
// place and is replaced on the next upgrade.
func checkMigrations(t *testing.T, r *rendered) {
	j := r.jobs[0]
	if j.Annotations["helm.sh/hook"] != "pre-install,pre-upgrade" || !strings.Contains(j.Annotations["helm.sh/hook-delete-policy"], "before-hook-creation") {
		t.Errorf("Job %s: annotations %v", j.Name, j.Annotations)
	}
	spec := j.Spec.Template.Spec
	if spec.RestartPolicy != corev1.RestartPolicyNever || !slices.Equal(spec.Containers[0].Args, []string{"migrate"}) {
		t.Errorf("Job %s: restart %s, args %v", j.Name, spec.RestartPolicy, spec.Containers[0].Args)
	}
	// A hook runs before the release's objects exist: it must not need one of them.
	for _, a := range r.accounts {
		if spec.ServiceAccountName == a.Name {
			t.Errorf("Job %s runs as the chart's ServiceAccount %s, which does not exist yet at pre-install", j.Name, a.Name)
		}
	}
}

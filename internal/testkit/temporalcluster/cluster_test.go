package temporalcluster

import (
	"strings"
	"testing"
)

func TestRenderDynamicConfigAddsValuesAfterTheLimits(t *testing.T) {
	got, err := renderDynamicConfig(RecommendedDynamicConfig)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(got, dynamicConfig) {
		t.Fatalf("the raised limits are not kept first:\n%s", got)
	}
	for _, want := range []string{"matching.useNewMatcher:\n  - value: true\n", "matching.enableFairness:\n  - value: true\n",
		"system.enableActivityEagerExecution:\n  - value: true\n", "system.enableEagerWorkflowStart:\n  - value: true\n",
		"matching.numTaskqueueReadPartitions:\n  - value: 1\n", "matching.numTaskqueueWritePartitions:\n  - value: 1\n"} {
		if !strings.Contains(got, want) {
			t.Errorf("missing %q in\n%s", want, got)
		}
	}
}

func TestRenderDynamicConfigRefusesBadAndRepeatedKeys(t *testing.T) {
	for _, extra := range [][]string{{"matching.useNewMatcher"}, {"=true"}, {"frontend.rps=5"}, {"a.b=1", "a.b=2"}} {
		if got, err := renderDynamicConfig(extra); err == nil {
			t.Errorf("%v: no error, rendered\n%s", extra, got)
		}
	}
}

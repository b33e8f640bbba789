package stack

import (
	"net/url"
	"strings"

	v1 "github.com/heraldhq/herald/api/v1"
)

// configurationHandlers are the /v1 handlers of an app's configuration (channels,
// templates, topics, workflows, commits), sharing the console's auth and app scoping.
func (s *Stack) configurationHandlers(console *v1.Console) *v1.Configuration {
	return &v1.Configuration{Console: console, Channels: s.Channels, Templates: s.Templates, Flows: s.Flows,
		Schedules: s.Schedules, FlowSchedules: s.FlowSchedules, Topics: s.Topics, Commits: s.Commits,
		TemporalUI: temporalUI(s.Cfg.TemporalUIURL, s.Cfg.TemporalNamespace),
		Canceler:   s.Temporal, Log: s.Log.With("component", "workflows")}
}

// temporalUI is the Web UI's address of the namespace's workflows, or "" without a UI URL.
func temporalUI(base, namespace string) string {
	if base == "" {
		return ""
	}
	return strings.TrimRight(base, "/") + "/namespaces/" + url.PathEscape(namespace) + "/workflows"
}

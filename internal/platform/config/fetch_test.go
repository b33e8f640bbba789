package config

import (
	"slices"
	"testing"
)

func TestFetchAllowedHosts(t *testing.T) {
	c, err := Load(func(k string) string {
		if k == "HERALD_FETCH_ALLOWED_HOSTS" {
			return " api.example.com, *.internal.example ,,"
		}
		return ""
	})
	if err != nil || !slices.Equal(c.FetchAllowedHosts, []string{"api.example.com", "*.internal.example"}) {
		t.Errorf("hosts %q %v", c.FetchAllowedHosts, err)
	}
	if c, _ := Load(func(string) string { return "" }); c.FetchAllowedHosts != nil {
		t.Errorf("default %q", c.FetchAllowedHosts)
	}
}

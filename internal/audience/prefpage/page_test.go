package prefpage

import (
	"reflect"
	"testing"

	"github.com/heraldhq/herald/internal/audience/prefs"
)

func TestFlowSwitches(t *testing.T) {
	type sw struct {
		Field  string
		On     bool
		Locked bool
	}
	got := func(f Flow) []sw {
		out := []sw{{f.Field, f.On, f.Locked}}
		for _, c := range f.Channels {
			out = append(out, sw{c.Field, c.On, c.Locked})
		}
		return out
	}
	cols := []string{"inApp", "email"}
	// A channel never set follows the workflow's switch; one set (even outside the
	// matrix's columns) shows what the user set.
	off := prefs.FlowPreference{Workflow: prefs.FlowRef{Identifier: "digest", Name: "Digest"}, Enabled: false, Channels: map[string]bool{"email": true, "sms": false}}
	if g, want := got(flowSwitches(off, cols)), []sw{
		{"workflow.digest", false, false}, {"workflow.digest.inApp", false, false}, {"workflow.digest.email", true, false}, {"workflow.digest.sms", false, false},
	}; !reflect.DeepEqual(g, want) {
		t.Errorf("workflow off:\n got %v\nwant %v", g, want)
	}
	// Critical: everything on and locked, whatever the user set, with the reason.
	otp := prefs.FlowPreference{Workflow: prefs.FlowRef{Identifier: "otp"}, Enabled: false, Channels: map[string]bool{"email": false}, Critical: true, LockedReason: "always"}
	f := flowSwitches(otp, cols)
	if g, want := got(f), []sw{{"workflow.otp", true, true}, {"workflow.otp.inApp", true, true}, {"workflow.otp.email", true, true}}; !reflect.DeepEqual(g, want) {
		t.Errorf("critical:\n got %v\nwant %v", g, want)
	}
	if f.Label != "otp" || f.Channels[1].Label != "otp: Email" || f.Channels[1].LockedReason != "always" {
		t.Errorf("labels: %q %q %q", f.Label, f.Channels[1].Label, f.Channels[1].LockedReason)
	}
}

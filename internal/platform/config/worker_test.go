package config

import (
	"strings"
	"testing"
)

func TestWorkerQueuesAndSlots(t *testing.T) {
	c := Defaults()
	if len(c.WorkerQueues) != len(queueKinds) || c.WorkerSlots.Of("orchestration") != 64 || c.WorkerSlots.Of("email") != 32 {
		t.Fatalf("defaults: %v %v", c.WorkerQueues, c.WorkerSlots)
	}
	env := map[string]string{"HERALD_WORKER_QUEUES": " email, sms,email ", "HERALD_WORKER_SLOTS": "email=4, orchestration=100"}
	c, err := Load(func(k string) string { return env[k] })
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(c.WorkerQueues, ",") != "email,sms" || c.WorkerQueues.Has("orchestration") {
		t.Errorf("queues %v", c.WorkerQueues)
	}
	if c.WorkerSlots.Of("email") != 4 || c.WorkerSlots.Of("orchestration") != 100 || c.WorkerSlots.Of("sms") != 16 {
		t.Errorf("slots %v", c.WorkerSlots)
	}
	env = map[string]string{"HERALD_WORKER_QUEUES": "email,fax", "HERALD_WORKER_SLOTS": "email=0,fax=3,sms"}
	_, err = Load(func(k string) string { return env[k] })
	for _, want := range []string{
		`HERALD_WORKER_QUEUES: unknown queue kind "fax"`,
		`HERALD_WORKER_SLOTS: "email=0" must be kind=count`,
		`HERALD_WORKER_SLOTS: unknown queue kind "fax"`,
		`HERALD_WORKER_SLOTS: "sms" must be kind=count`,
	} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("error %v lacks %q", err, want)
		}
	}
}

// HERALD_BROADCAST_SHARE is a percent from 1 to 100, 25 by default; anything else is
// refused with the variable, the range and the value given.
func TestBroadcastShare(t *testing.T) {
	c, err := Load(func(string) string { return "" })
	if err != nil || c.BroadcastShare != 25 {
		t.Fatalf("default: %d, %v", c.BroadcastShare, err)
	}
	c, err = Load(func(k string) string { return map[string]string{"HERALD_BROADCAST_SHARE": "100"}[k] })
	if err != nil || c.BroadcastShare != 100 {
		t.Fatalf("100: %d, %v", c.BroadcastShare, err)
	}
	for _, v := range []string{"0", "101", "half", "-5"} {
		_, err := Load(func(k string) string { return map[string]string{"HERALD_BROADCAST_SHARE": v}[k] })
		want := `HERALD_BROADCAST_SHARE must be a percent from 1 to 100, got "` + v + `"`
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: error %v, want it to say %q", v, err, want)
		}
	}
}

package flowrun

import (
	"encoding/json"
	"testing"
)

// TestInputsKeepTheirDurableJSONKeys decodes inputs written before the Go fields were
// renamed (Workflow → Flow): recorded histories and running workflows carry those keys.
func TestInputsKeepTheirDurableJSONKeys(t *testing.T) {
	old := []byte(`{"AppID":7,"RequestID":"r","Workflow":{"Identifier":"billing","Version":3}}`)
	var run RunInput
	var step DeliverStepInput
	var rec StepRecord
	var load LoadRunInput
	for _, v := range []any{&run, &step, &rec, &load} {
		if err := json.Unmarshal(old, v); err != nil {
			t.Fatal(err)
		}
	}
	for name, got := range map[string]Ref{"RunInput": run.Flow, "DeliverStepInput": step.Flow, "StepRecord": rec.Flow, "LoadRunInput": load.Flow} {
		if got != (Ref{Identifier: "billing", Version: 3}) {
			t.Errorf("%s: decoded %+v, want the flow billing v3", name, got)
		}
	}
	out, _ := json.Marshal(RunInput{Flow: Ref{Identifier: "billing", Version: 3}})
	var keys map[string]json.RawMessage
	_ = json.Unmarshal(out, &keys)
	if _, ok := keys["Workflow"]; !ok {
		t.Errorf("RunInput encodes %s, want the key Workflow", out)
	}
}

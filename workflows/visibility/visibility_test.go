package visibility

import (
	"fmt"
	"testing"

	"github.com/google/uuid"
	"go.temporal.io/sdk/converter"
)

// A pack's HeraldRequestId stays under Temporal's default 2 KB value limit, which would
// refuse the start of the run.
func TestSendAttributesFitTemporalsValueLimit(t *testing.T) {
	var ids []string
	for range 100 {
		ids = append(ids, uuid.NewString())
	}
	sa := Send([]int64{1, 2}, ids)
	listed, ok := sa.GetKeywordList(RequestID)
	if !ok || len(listed) != MaxListedRequests || listed[0] != ids[0] {
		t.Fatalf("listed %d ids (%v)", len(listed), ok)
	}
	p, err := converter.GetDefaultDataConverter().ToPayload(listed)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(p.GetData()); n > 2048 {
		t.Errorf("HeraldRequestId takes %d bytes, over Temporal's 2,048", n)
	}
	if apps, _ := sa.GetKeywordList(AppID); fmt.Sprint(apps) != "[1 2]" {
		t.Errorf("apps %v", apps)
	}
}

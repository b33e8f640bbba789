package visibility

import (
	"fmt"
	"testing"

	"github.com/google/uuid"
	enumspb "go.temporal.io/api/enums/v1"
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

// The commands an operator copies: tcld's name=type pairs on Temporal Cloud (its types are
// Keyword and KeywordList), the CLI's --name/--type elsewhere.
func TestAddCommands(t *testing.T) {
	cloud := AddCommands("herald.a1b2c", All(), true)
	want := "tcld namespace search-attributes add --namespace herald.a1b2c --search-attribute HeraldAppId=KeywordList --search-attribute HeraldRecipient=Keyword --search-attribute HeraldRequestId=KeywordList --search-attribute HeraldWorkflow=Keyword"
	if len(cloud) != 1 || cloud[0] != want {
		t.Errorf("cloud:\n%v\nwant\n%s", cloud, want)
	}
	cli := AddCommands("herald", map[string]enumspb.IndexedValueType{"HeraldWorkflow": enumspb.INDEXED_VALUE_TYPE_KEYWORD}, false)
	if len(cli) != 1 || cli[0] != "temporal operator search-attribute create --namespace herald --name HeraldWorkflow --type Keyword" {
		t.Errorf("cli: %v", cli)
	}
}

package api

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"slices"
	"testing"
)

// TestWorkflowsLeaveDesignerPositionsAlone: the console's node positions are no part of the
// CLI's folder: a pulled workflow has no field for them, and a pushed draft is sent without
// them, so the server keeps the ones the console stored (and pull stays diff-stable when a
// step is moved in the console).
func TestWorkflowsLeaveDesignerPositionsAlone(t *testing.T) {
	var sent map[string]json.RawMessage
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.Method {
		case "GET":
			_, _ = w.Write([]byte(`[{"identifier":"nudge","name":"Nudge","definition":{"steps":[{"id":"a","type":"inApp"}]},"positions":{"a":{"x":1,"y":2}},"publishedVersion":null}]`))
		case "PUT":
			if err := json.NewDecoder(r.Body).Decode(&sent); err != nil {
				t.Error(err)
			}
			_, _ = w.Write([]byte(`{}`))
		}
	}))
	defer srv.Close()
	c := New(srv.URL, "hcli_x")
	list, err := c.Workflows(context.Background(), 1)
	if err != nil || len(list) != 1 {
		t.Fatalf("workflows %v %v", list, err)
	}
	if err := c.UpdateWorkflow(context.Background(), 1, "nudge", list[0].Name, list[0].Critical, list[0].Definition, list[0].PayloadSchema); err != nil {
		t.Fatal(err)
	}
	keys := make([]string, 0, len(sent))
	for k := range sent {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	if !slices.Equal(keys, []string{"critical", "definition", "name", "payloadSchema"}) {
		t.Fatalf("a pushed draft sends %v; positions must be left to the console", keys)
	}
}

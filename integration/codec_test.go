package integration

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os/exec"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/uuid"
	commonpb "go.temporal.io/api/common/v1"
	enumspb "go.temporal.io/api/enums/v1"
	historypb "go.temporal.io/api/history/v1"
	"go.temporal.io/api/proxy"
	"google.golang.org/protobuf/encoding/protojson"

	"github.com/heraldhq/herald/internal/platform/config"
	"github.com/heraldhq/herald/internal/platform/temporalcodec"
	"github.com/heraldhq/herald/internal/testkit/smtptest"
	"github.com/heraldhq/herald/internal/testkit/stacktest"
	"github.com/heraldhq/herald/workflows/flowrun"
	"github.com/heraldhq/herald/workflows/send"
)

// The personal data and secrets a flow run carries, each a marker searched for in the
// histories: the recipient's email and phone, a custom profile field, the send's data, a
// fetch step's header (a customer's API key) and the fetched response.
var codecMarkers = map[string]string{
	"email":          "alice.codec@example.com",
	"phone":          "+15550100199",
	"profile field":  "profile-marker-7f3a",
	"send data":      "data-marker-91c2",
	"fetch header":   "cust-api-key-4f9a0b",
	"fetch response": "response-marker-d4e5",
}

const codecToken = "codec-operator-token-for-tests"

// A flow run's history in Temporal holds none of the recipient's profile, the send's data,
// a fetch step's header or the fetched response: read raw with the SDK and with the
// Temporal CLI, nothing shows; read through the codec (in process, over the codec server
// with the operator token, and by the CLI pointed at the codec server) everything does.
func TestTemporalHistoriesHoldNoPersonalData(t *testing.T) {
	var gotHeader atomic.Value
	fetched := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		gotHeader.Store(r.Header.Get("X-Api-Key"))
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"plan":"pro","secret":"` + codecMarkers["fetch response"] + `"}`))
	}))
	t.Cleanup(fetched.Close)
	e := stacktest.New(t, stacktest.Options{Temporal: true, Configure: func(c *config.Config) {
		c.FetchAllowedHosts = []string{"127.0.0.1"}
		c.Codec.ServerToken = codecToken
		c.Codec.ServerOrigins = []string{"http://localhost:8233"}
	}})
	publishWorkflow(t, e, "private", `{"steps":[
		{"id":"load","type":"fetch","url":"`+fetched.URL+`/accounts/{{user.identifier}}","headers":{"X-Api-Key":"`+codecMarkers["fetch header"]+`"},"resultKey":"account","next":"note"},
		{"id":"note","type":"inApp","content":{"title":"Plan {{data.account.plan}}"}}]}`)
	req := sendNotification(t, e, `{"notification":{"workflow":{"identifier":"private"}},
		"sendTo":{"recipients":[{"identifier":"u-codec","email":"`+codecMarkers["email"]+`","phone":"`+codecMarkers["phone"]+`","favourite":"`+codecMarkers["profile field"]+`"}]},
		"data":{"note":"`+codecMarkers["send data"]+`"}}`)
	waitForRun(t, e, req, "u-codec", "completed")
	if got := titles(t, e, "u-codec"); got != "Plan pro" {
		t.Fatalf("the run did not use the fetched data: inbox %q", got)
	}
	if gotHeader.Load() != codecMarkers["fetch header"] {
		t.Fatalf("the fetch step sent header %v", gotHeader.Load())
	}
	wf := flowrun.WorkflowID("private", req, "u-codec")

	// Raw, as Temporal stores it: the SDK's history, every payload (search attributes
	// included) and the whole history as JSON.
	h := rawHistory(t, e, wf)
	raw, err := protojson.Marshal(h)
	if err != nil {
		t.Fatal(err)
	}
	all := string(raw) + "\n" + payloadBytes(t, h)
	for what, m := range codecMarkers {
		if strings.Contains(all, m) {
			t.Errorf("the raw history of %s shows the %s (%s)", wf, what, m)
		}
	}
	input := h.GetEvents()[0].GetWorkflowExecutionStartedEventAttributes().GetInput().GetPayloads()
	if len(input) == 0 || string(input[0].GetMetadata()["encoding"]) != temporalcodec.Encoding || string(input[0].GetMetadata()[temporalcodec.MetadataKeyID]) != e.Stack.Codec.KeyID() {
		t.Errorf("the run's input is not encrypted: %v", input)
	}

	var encrypted []*commonpb.Payload
	_ = proxy.VisitPayloads(context.Background(), h, proxy.VisitPayloadsOptions{SkipSearchAttributes: true,
		Visitor: func(_ *proxy.VisitPayloadsContext, ps []*commonpb.Payload) ([]*commonpb.Payload, error) {
			encrypted = append(encrypted, ps...)
			return ps, nil
		}})
	for _, p := range encrypted {
		if string(p.GetMetadata()["encoding"]) != temporalcodec.Encoding {
			t.Errorf("a payload of %s is %s, not encrypted", wf, p.GetMetadata()["encoding"])
		}
	}
	// The send workflow that started the run carries the recipients too.
	sendRaw, _ := protojson.Marshal(rawHistory(t, e, send.WorkflowID([]uuid.UUID{uuid.MustParse(req)})))
	sendAll := string(sendRaw) + payloadBytes(t, rawHistory(t, e, send.WorkflowID([]uuid.UUID{uuid.MustParse(req)})))
	for what, m := range codecMarkers {
		if strings.Contains(sendAll, m) {
			t.Errorf("the raw history of the send workflow shows the %s (%s)", what, m)
		}
	}

	// Decoded with the codec, the same history shows them all.
	if err := e.Stack.Codec.DecodeHistory(h); err != nil {
		t.Fatal(err)
	}
	decoded := payloadBytes(t, h)
	for what, m := range codecMarkers {
		if !strings.Contains(decoded, m) {
			t.Errorf("the decoded history of %s lacks the %s (%s): is the marker test blind?", wf, what, m)
		}
	}

	// The codec server over HTTP, with the operator token, decodes the history's payloads.
	body, _ := protojson.Marshal(&commonpb.Payloads{Payloads: encrypted})
	res := codecCall(t, e.BaseURL+"/codec/decode", body, "Bearer "+codecToken)
	var out commonpb.Payloads
	if res.status != 200 || protojson.Unmarshal(res.body, &out) != nil || len(out.Payloads) != len(encrypted) {
		t.Errorf("codec server decode: %d %.300s", res.status, res.body)
	}
	var served []byte
	for _, p := range out.Payloads {
		served = append(served, p.GetData()...)
	}
	for _, what := range []string{"email", "fetch header"} {
		if !bytes.Contains(served, []byte(codecMarkers[what])) {
			t.Errorf("the codec server's decoding lacks the %s", what)
		}
	}
	if res := codecCall(t, e.BaseURL+"/codec/decode", body, ""); res.status != 401 || bytes.Contains(res.body, []byte("alice")) {
		t.Errorf("codec server without the token: %d %s", res.status, res.body)
	}
	if res := codecCall(t, e.BaseURL+"/codec/decode", body, "Bearer wrong-"+codecToken); res.status != 401 {
		t.Errorf("codec server with a wrong token: %d %s", res.status, res.body)
	}
	pre, _ := http.NewRequest("OPTIONS", e.BaseURL+"/codec/decode", nil)
	pre.Header.Set("Origin", "http://localhost:8233")
	pre.Header.Set("Access-Control-Request-Method", "POST")
	pre.Header.Set("Access-Control-Request-Headers", "content-type,x-namespace,authorization")
	if r, err := http.DefaultClient.Do(pre); err != nil || r.StatusCode != 204 || r.Header.Get("Access-Control-Allow-Origin") != "http://localhost:8233" {
		t.Errorf("preflight on the API listener: %v %v", r, err)
	}

	// A plain email send: its send workflow's history holds neither the address nor the
	// message, raw; decoded, whatever of them the run carries shows.
	mail := smtptest.Start(t)
	smtpInstance(t, e, mail)
	plainReq := sendNotification(t, e, `{"notification":{"title":"Invoice `+codecMarkers["send data"]+`"},
		"sendTo":{"recipients":[{"identifier":"b-codec","email":"bob.codec@example.com"}]},"override":{"channels":["email"]}}`)
	e.Eventually(60*time.Second, "the email", func() bool { return mail.Count("bob.codec@example.com") == 1 })
	sendWF := send.WorkflowID([]uuid.UUID{uuid.MustParse(plainReq)})
	e.Eventually(60*time.Second, "the send workflow to close", func() bool {
		d, err := e.Stack.Temporal.DescribeWorkflowExecution(context.Background(), sendWF, "")
		return err == nil && d.WorkflowExecutionInfo.Status != enumspb.WORKFLOW_EXECUTION_STATUS_RUNNING
	})
	sh := rawHistory(t, e, sendWF)
	shRaw, _ := protojson.Marshal(sh)
	for _, m := range []string{"bob.codec@example.com", codecMarkers["send data"]} {
		if strings.Contains(string(shRaw)+payloadBytes(t, sh), m) {
			t.Errorf("the raw history of the email send shows %s", m)
		}
	}
	if err := e.Stack.Codec.DecodeHistory(sh); err != nil {
		t.Fatal(err)
	}
	t.Logf("email send %s: %d events; decoded, the address appears: %v", sendWF, len(sh.GetEvents()), strings.Contains(payloadBytes(t, sh), "bob.codec@example.com"))

	// The Temporal CLI, as an operator reads a history: nothing without the codec server,
	// everything through it.
	cli, err := stacktest.TemporalCLI()
	if err != nil {
		t.Fatal(err)
	}
	show := func(extra ...string) string {
		args := append([]string{"workflow", "show", "--output", "json", "-w", wf, "--address", e.Cfg.TemporalAddress, "--namespace", e.Cfg.TemporalNamespace}, extra...)
		b, err := exec.Command(cli, args...).CombinedOutput()
		if err != nil {
			t.Fatalf("temporal %s: %v\n%.2000s", strings.Join(args, " "), err, b)
		}
		return string(b)
	}
	plain := revealed(t, show())
	for what, m := range codecMarkers {
		if strings.Contains(plain, m) {
			t.Errorf("temporal workflow show (no codec) shows the %s (%s)", what, m)
		}
	}
	through := revealed(t, show("--codec-endpoint", e.BaseURL+"/codec", "--codec-auth", "Bearer "+codecToken))
	for what, m := range codecMarkers {
		if !strings.Contains(through, m) {
			t.Errorf("temporal workflow show through the codec server lacks the %s (%s)", what, m)
		}
	}
	t.Logf("%s: %d events, its %d payloads %s under key %s; the CLI shows the %d markers only through /codec", wf, len(h.GetEvents()), len(encrypted), temporalcodec.Encoding, e.Stack.Codec.KeyID(), len(codecMarkers))
}

// rawHistory reads a run's history as Temporal stores it (the SDK does not decode it).
func rawHistory(t *testing.T, e *stacktest.Env, wf string) *historypb.History {
	t.Helper()
	it := e.Stack.Temporal.GetWorkflowHistory(context.Background(), wf, "", false, enumspb.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT)
	h := &historypb.History{}
	for it.HasNext() {
		ev, err := it.Next()
		if err != nil {
			t.Fatal(err)
		}
		h.Events = append(h.Events, ev)
	}
	return h
}

// payloadBytes is every payload's data and metadata of a history, search attributes
// included, as text.
func payloadBytes(t *testing.T, h *historypb.History) string {
	t.Helper()
	var b strings.Builder
	err := proxy.VisitPayloads(context.Background(), h, proxy.VisitPayloadsOptions{
		Visitor: func(_ *proxy.VisitPayloadsContext, ps []*commonpb.Payload) ([]*commonpb.Payload, error) {
			for _, p := range ps {
				for k, v := range p.GetMetadata() {
					b.WriteString(k + "=" + string(v) + "\n")
				}
				b.Write(p.GetData())
				b.WriteByte('\n')
			}
			return ps, nil
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// revealed is the CLI's JSON output followed by every string in it that decodes as
// base64 (payload data the CLI shows encoded), so a search sees payloads either way.
func revealed(t *testing.T, out string) string {
	t.Helper()
	var v any
	if err := json.Unmarshal([]byte(out), &v); err != nil {
		t.Fatalf("CLI output is not JSON: %v\n%.500s", err, out)
	}
	var b strings.Builder
	b.WriteString(out)
	var walk func(any)
	walk = func(v any) {
		switch x := v.(type) {
		case map[string]any:
			for _, y := range x {
				walk(y)
			}
		case []any:
			for _, y := range x {
				walk(y)
			}
		case string:
			if d, err := base64.StdEncoding.DecodeString(x); err == nil {
				b.WriteByte('\n')
				b.Write(d)
			}
		}
	}
	walk(v)
	return b.String()
}

type codecResult struct {
	status int
	body   []byte
}

func codecCall(t *testing.T, url string, body []byte, auth string) codecResult {
	t.Helper()
	r, _ := http.NewRequest("POST", url, bytes.NewReader(body))
	r.Header.Set("Content-Type", "application/json")
	r.Header.Set("X-Namespace", "default")
	if auth != "" {
		r.Header.Set("Authorization", auth)
	}
	res, err := http.DefaultClient.Do(r)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return codecResult{res.StatusCode, b}
}

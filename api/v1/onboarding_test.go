package v1_test

import (
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/heraldhq/herald/internal/testkit/stacktest"
)

// TestOnboardingSequenceFromTheDocs reads the onboarding sequence of docs/console-api.md
// (between <!-- onboarding:begin --> and <!-- onboarding:end -->) and runs it call by
// call against a real stack: sign up, verify, sign in, create a client, initialize its
// environments, read an app's credentials, send, create and publish a workflow, send with
// it, commit and publish the commit to Production. The page's curl lines are the test's
// input, so the documented calls are the calls that work.
func TestOnboardingSequenceFromTheDocs(t *testing.T) {
	e := newEnv(t)
	doc, err := os.ReadFile("../../docs/console-api.md")
	if err != nil {
		t.Fatal(err)
	}
	_, block, ok := strings.Cut(string(doc), "<!-- onboarding:begin -->")
	block, _, ok2 := strings.Cut(block, "<!-- onboarding:end -->")
	if !ok || !ok2 {
		t.Fatal("docs/console-api.md has no onboarding block")
	}
	sh := &miniShell{t: t, e: e, vars: map[string]string{}, external: func(name string) string {
		if name != "CODE" {
			t.Fatalf("the documented sequence uses $%s before setting it", name)
		}
		return e.Mail.Last(t, "ada@example.com").Find(t, `verificationCode=([A-Za-z0-9_-]+)`)
	}}
	for _, line := range shellLines(block) {
		sh.run(line)
	}

	// Every documented call answered as its comment says.
	want := []int{201, 200, 200, 201, 200, 200, 200, 200, 202, 201, 200, 202, 201, 200, 200}
	var got []int
	for _, c := range sh.calls {
		got = append(got, c.res.Status)
	}
	if !slices.Equal(got, want) {
		for _, c := range sh.calls {
			t.Logf("%s %s → %d %s", c.method, c.path, c.res.Status, c.res.Body)
		}
		t.Fatalf("statuses %v, want %v", got, want)
	}
	// And left what the page says it leaves.
	init1, init2 := sh.calls[4].res.Map(t), sh.calls[5].res.Map(t)
	if init1["created"] != true || init2["created"] != false || len(init2["apps"].([]any)) != 2 {
		t.Errorf("initialize-client-environment: %v then %v", init1, init2)
	}
	names := []string{}
	for _, a := range init2["apps"].([]any) {
		names = append(names, a.(map[string]any)["name"].(string))
	}
	if !slices.Equal(names, []string{"Development", "Production"}) || sh.vars["DEV"] == sh.vars["PROD"] {
		t.Errorf("environments %v (DEV %s, PROD %s)", names, sh.vars["DEV"], sh.vars["PROD"])
	}
	if v := sh.calls[10].res.Map(t)["version"]; v != 1.0 {
		t.Errorf("workflow publish answered version %v", v)
	}
	for _, i := range []int{8, 11} {
		if id, _ := sh.calls[i].res.Map(t)["requestId"].(string); len(id) != 36 {
			t.Errorf("send %d: %s", i, sh.calls[i].res.Body)
		}
	}
	var prod struct{ PublishedVersion *int }
	sh.calls[14].res.JSON(t, &prod)
	if prod.PublishedVersion == nil || *prod.PublishedVersion != 1 {
		t.Errorf("Production's workflow after the commit was published: %s", sh.calls[14].res.Body)
	}
	// A new account belongs to no client (hence steps 4 and 5).
	fresh := e.user(t, "newcomer@example.com")
	if res := e.Do("GET", "/v1/clients", nil, bearer(fresh)); res.Status != 200 || string(res.Body) != "[]" {
		t.Errorf("a new account's clients: %d %s", res.Status, res.Body)
	}
	// Another account cannot initialize or read this client's environments.
	if res := e.Do("POST", "/v1/clients/"+sh.vars["CLIENT"]+"/initialize-client-environment", nil, bearer(fresh)); res.Status != 404 {
		t.Errorf("another account's initialize: %d %s", res.Status, res.Body)
	}
	if res := e.Do("POST", "/v1/clients/"+sh.vars["CLIENT"]+"/initialize-client-environment", nil, nil); res.Status != 401 {
		t.Errorf("initialize without a token: %d %s", res.Status, res.Body)
	}
	// Before the workflow was published a send naming it was refused: check with
	// Production's credentials on a workflow it does not have.
	prodKey := e.Do("GET", "/v1/apps/"+sh.vars["PROD"]+"/secret", nil, bearer(sh.vars["TOKEN"])).Map(t)
	res := e.Do("POST", "/v3/notifications", `{"notification":{"workflow":{"identifier":"not-yet"}},"sendTo":{"recipients":["ada"]}}`,
		stacktest.Headers{"X-SERVICE-API-KEY": prodKey["apiKey"].(string), "X-SERVICE-API-SECRET": prodKey["apiSecret"].(string)})
	if res.Status != 422 {
		t.Errorf("send naming an unknown workflow: %d %s", res.Status, res.Body)
	}
}

// shellLines joins continued lines and drops blank lines, comments and the code fence.
func shellLines(block string) []string {
	var out []string
	cur := ""
	for _, l := range strings.Split(block, "\n") {
		if strings.HasSuffix(l, "\\") {
			cur += strings.TrimSuffix(l, "\\")
			continue
		}
		l = strings.TrimSpace(cur + l)
		cur = ""
		if l == "" || strings.HasPrefix(l, "#") || strings.HasPrefix(l, "```") {
			continue
		}
		out = append(out, l)
	}
	return out
}

// miniShell runs the small shell subset the onboarding block is written in: NAME=word,
// NAME=$(curl … | jq -r PATH) and curl with -s, -X, -H and -d; words quoted with '…' or
// "…" (with $NAME and \" inside), and $NAME expanded.
type miniShell struct {
	t        *testing.T
	e        *env
	vars     map[string]string
	external func(name string) string
	calls    []shellCall
}

type shellCall struct {
	method, path string
	res          *stacktest.Response
}

var (
	assignCapture = regexp.MustCompile(`^([A-Z_]+)=\$\((curl .*) \| jq -r ([^ )]+)\)$`)
	assignWord    = regexp.MustCompile(`^([A-Z_]+)=(.*)$`)
)

func (s *miniShell) run(line string) {
	s.t.Helper()
	if m := assignCapture.FindStringSubmatch(line); m != nil {
		res := s.curl(m[2])
		s.vars[m[1]] = jqPath(s.t, res.Body, m[3])
		return
	}
	if strings.HasPrefix(line, "curl ") {
		s.curl(line)
		return
	}
	if m := assignWord.FindStringSubmatch(line); m != nil {
		s.vars[m[1]] = strings.Join(s.words(m[2]), " ")
		return
	}
	s.t.Fatalf("the onboarding block has a line the test cannot run: %s", line)
}

func (s *miniShell) curl(line string) *stacktest.Response {
	s.t.Helper()
	w := s.words(line)
	method, target, body := "", "", ""
	h := stacktest.Headers{}
	for i := 1; i < len(w); i++ {
		switch w[i] {
		case "-s":
		case "-X":
			i++
			method = w[i]
		case "-H":
			i++
			k, v, _ := strings.Cut(w[i], ":")
			h[strings.TrimSpace(k)] = strings.TrimSpace(v)
		case "-d":
			i++
			body = w[i]
		default:
			if strings.HasPrefix(w[i], "-") || target != "" {
				s.t.Fatalf("curl argument the test does not know: %q in %s", w[i], line)
			}
			target = w[i]
		}
	}
	if method == "" {
		method = "GET"
		if body != "" {
			method = "POST"
		}
	}
	u, err := url.Parse(target)
	if err != nil || u.Host == "" {
		s.t.Fatalf("curl target %q: %v", target, err)
	}
	var payload any
	if body != "" {
		payload = body
	}
	res := s.e.Do(method, u.RequestURI(), payload, h)
	s.calls = append(s.calls, shellCall{method: method, path: u.RequestURI(), res: res})
	return res
}

// words splits a command line as the shell would, expanding $NAME.
func (s *miniShell) words(line string) []string {
	var out []string
	var cur strings.Builder
	inWord := false
	expand := func(i int) int { // line[i] == '$'; returns the index after the name
		j := i + 1
		for j < len(line) && (line[j] == '_' || line[j] >= 'A' && line[j] <= 'Z') {
			j++
		}
		name := line[i+1 : j]
		v, ok := s.vars[name]
		if !ok {
			v = s.external(name)
		}
		cur.WriteString(v)
		return j
	}
	for i := 0; i < len(line); {
		c := line[i]
		switch {
		case c == ' ' || c == '\t':
			if inWord {
				out = append(out, cur.String())
				cur.Reset()
				inWord = false
			}
			i++
		case c == '\'':
			end := strings.IndexByte(line[i+1:], '\'')
			if end < 0 {
				s.t.Fatalf("unclosed ' in %s", line)
			}
			cur.WriteString(line[i+1 : i+1+end])
			inWord, i = true, i+end+2
		case c == '"':
			inWord = true
			i++
			for i < len(line) && line[i] != '"' {
				switch {
				case line[i] == '\\' && i+1 < len(line):
					cur.WriteByte(line[i+1])
					i += 2
				case line[i] == '$':
					i = expand(i)
				default:
					cur.WriteByte(line[i])
					i++
				}
			}
			i++
		case c == '$':
			inWord = true
			i = expand(i)
		default:
			inWord = true
			cur.WriteByte(c)
			i++
		}
	}
	if inWord {
		out = append(out, cur.String())
	}
	return out
}

// jqPath evaluates jq's .a.b[0].c on a JSON answer, as jq -r prints it.
func jqPath(t *testing.T, body []byte, path string) string {
	t.Helper()
	dec := json.NewDecoder(strings.NewReader(string(body)))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		t.Fatalf("jq %s: answer is not JSON: %s", path, body)
	}
	for _, part := range regexp.MustCompile(`\.([A-Za-z_]+)|\[(\d+)\]`).FindAllStringSubmatch(path, -1) {
		switch {
		case part[1] != "":
			m, _ := v.(map[string]any)
			v = m[part[1]]
		default:
			i, _ := strconv.Atoi(part[2])
			a, _ := v.([]any)
			if i >= len(a) {
				t.Fatalf("jq %s: no element %d in %s", path, i, body)
			}
			v = a[i]
		}
	}
	switch x := v.(type) {
	case string:
		return x
	case nil:
		t.Fatalf("jq %s: null in %s", path, body)
	}
	return fmt.Sprint(v)
}

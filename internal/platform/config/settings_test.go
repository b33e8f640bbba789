package config

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"
)

// examples sets every variable to the example of its tag.
func examples() map[string]string {
	m := map[string]string{}
	for _, s := range Settings() {
		m[s.Name] = s.Example
	}
	// The documented example of the secret key is refused as published (CheckSecretKey).
	m["HERALD_SECRET_KEY"] = "tX9vQ2mL7wR4kP8zN1cB6yH3jF5dS0aG"
	return m
}

func field(c *Config, s Setting) reflect.Value {
	return reflect.ValueOf(c).Elem().FieldByIndex(s.index)
}

// Every variable is read: set to the example of its tag, each changes its field. A new field
// is covered as soon as it has its tags; one without an example fails here.
func TestEveryVariableIsRead(t *testing.T) {
	if len(Settings()) < 80 {
		t.Fatalf("only %d settings found", len(Settings()))
	}
	def := Defaults()
	c, err := Load(env(examples()))
	if err != nil {
		t.Fatalf("the examples do not load: %v", err)
	}
	for _, s := range Settings() {
		if s.Example == "" || s.Example == s.Default || s.Description == "" {
			t.Errorf("%s needs a desc tag and an example tag other than its default", s.Name)
			continue
		}
		if got, was := field(&c, s).Interface(), field(&def, s).Interface(); reflect.DeepEqual(got, was) {
			t.Errorf("%s=%q left its field at %v", s.Name, s.Example, got)
		}
	}
}

// The documented default of each setting, written in the environment, gives the field
// Defaults() has; a computed default (dflt tag) is the zero value, filled in where it is used.
func TestDefaultsEqualTheDocumentedDefaults(t *testing.T) {
	def := Defaults()
	for _, s := range Settings() {
		if s.Default == "" {
			if s.field.Tag.Get("dflt") == "" && !field(&def, s).IsZero() {
				t.Errorf("%s has no documented default but defaults to %v", s.Name, field(&def, s))
			}
			continue
		}
		c, err := Load(env(map[string]string{s.Name: s.Default}))
		if err != nil {
			t.Errorf("%s=%q (its default): %v", s.Name, s.Default, err)
			continue
		}
		if got, want := field(&c, s).Interface(), field(&def, s).Interface(); !reflect.DeepEqual(got, want) {
			t.Errorf("%s: the documented default %q reads %v, Defaults() has %v", s.Name, s.Default, got, want)
		}
	}
	if def.Console.AuditRetention.Hours() != 365*24 || def.BodyLimit != 1<<20 || def.Console.FilesMaxBytes != 5<<20 || len(def.Ops.Plans) != 3 {
		t.Errorf("defaults %+v", def)
	}
}

// Each setting that can hold a bad value reports it with its name and what it expects.
func TestBadValuesNameTheirVariable(t *testing.T) {
	checked := 0
	for _, s := range Settings() {
		tag := s.field.Tag
		if s.field.Type == reflect.TypeOf(NameList(nil)) || (s.field.Type.Kind() == reflect.String && tag.Get("oneof") == "" && tag.Get("format") == "") {
			continue // any text is valid
		}
		checked++
		_, err := Load(env(map[string]string{s.Name: "bad/value"}))
		if err == nil {
			t.Errorf("%s=bad/value accepted", s.Name)
			continue
		}
		msg := err.Error()
		if !strings.Contains(msg, s.Name+" must ") && !strings.Contains(msg, s.Name+": ") {
			t.Errorf("%s: the error does not name it: %v", s.Name, msg)
		}
	}
	if checked < 40 {
		t.Errorf("only %d settings checked", checked)
	}
}

func TestBytesAndDays(t *testing.T) {
	c, err := Load(env(map[string]string{"HERALD_BODY_LIMIT": "512KiB", "HERALD_FILES_MAX_BYTES": "15MiB", "HERALD_CONSOLE_REFRESH_TTL": "7d"}))
	if err != nil || c.BodyLimit != 512<<10 || c.Console.FilesMaxBytes != MaxFileBytes || c.Console.RefreshTTL.Hours() != 7*24 {
		t.Fatalf("%v %v %v %v", c.BodyLimit, c.Console.FilesMaxBytes, c.Console.RefreshTTL, err)
	}
	_, err = Load(env(map[string]string{"HERALD_BODY_LIMIT": "1000", "HERALD_FILES_MAX_BYTES": "16MiB"}))
	for _, want := range []string{
		`HERALD_BODY_LIMIT must be a size in bytes such as 1048576 or 1MiB, at least 1024, got "1000"`,
		`HERALD_FILES_MAX_BYTES must be a size in bytes such as 1048576 or 1MiB, from 1 to 15MiB, got "16MiB"`,
	} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("error %v does not say %q", err, want)
		}
	}
}

// Errors map back to their variable by field name, so field names are unique; so are the
// variables.
func TestSettingsAreUnique(t *testing.T) {
	fields, names := map[string]bool{}, map[string]bool{}
	for _, s := range Settings() {
		if fields[s.field.Name] || names[s.Name] {
			t.Errorf("%s (field %s) is not unique", s.Name, s.field.Name)
		}
		fields[s.field.Name], names[s.Name] = true, true
		if !strings.HasPrefix(s.Name, "HERALD_") {
			t.Errorf("%s does not start with HERALD_", s.Name)
		}
	}
}

// Messages of this package name only variables that exist.
func TestMessagesNameRealVariables(t *testing.T) {
	names := map[string]bool{}
	for _, s := range Settings() {
		names[s.Name] = true
	}
	for old, now := range renamed {
		if !names[now] {
			t.Errorf("%s was renamed %s, which is no setting", old, now)
		}
		names[old] = true // named only to say it was renamed
	}
	files, _ := filepath.Glob("*.go")
	re := regexp.MustCompile(`HERALD_[A-Z0-9_]*[A-Z0-9]`)
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, n := range re.FindAllString(string(src), -1) {
			if !names[n] {
				t.Errorf("%s names %s, which is no setting", f, n)
			}
		}
	}
}

func TestSecretsAreNeverShown(t *testing.T) {
	m := examples()
	var secrets []string
	plain := 0 // secrets shown as Masked (URLs only hide their password)
	for _, s := range Settings() {
		switch {
		case s.Secret:
			m[s.Name] = "secret-value-of-" + s.Name
			secrets = append(secrets, m[s.Name])
			plain++
		case s.MaskURL:
			m[s.Name] = "https://user:pass-" + s.Name + "@host.example/x"
			secrets = append(secrets, "pass-"+s.Name)
		}
	}
	if len(secrets) < 10 {
		t.Fatalf("only %d secrets", len(secrets))
	}
	// Codec keys are id=base64 pairs: the marker is the id, the key follows it.
	m["HERALD_TEMPORAL_CODEC_KEYS"] += "=ASNFZ4mrze8BI0VniavN7wEjRWeJq83vASNFZ4mrze8="
	var table bytes.Buffer
	if err := WriteTable(&table, env(m)); err != nil {
		t.Fatal(err)
	}
	c, err := Load(env(m))
	if err != nil {
		t.Fatal(err)
	}
	m["HERALD_AI_BASE_URL"] = "ftp://user:pass-HERALD_AI_BASE_URL@x" // a bad URL is reported without its password
	_, bad := Load(env(m))
	if bad == nil {
		t.Fatal("ftp URL accepted")
	}
	shown := table.String() + fmt.Sprint(c.Summary()...) + bad.Error()
	for _, s := range secrets {
		if strings.Contains(shown, s) {
			t.Errorf("%q is shown", s)
		}
	}
	if n := strings.Count(table.String(), Masked); n < plain {
		t.Errorf("%d secrets masked:\n%s", n, table.String())
	}
}

func TestTableShowsDefaultAndCurrentValues(t *testing.T) {
	var out bytes.Buffer
	if err := WriteTable(&out, env(map[string]string{"HERALD_DB_MAX_CONNS": " 64 "})); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(out.String(), "\n")
	if len(lines) != len(Settings())+2 {
		t.Errorf("%d lines for %d settings", len(lines), len(Settings()))
	}
	var row, unset []string
	for _, l := range lines {
		switch f := strings.Fields(l); {
		case len(f) > 0 && f[0] == "HERALD_DB_MAX_CONNS":
			row = f
		case len(f) > 0 && f[0] == "HERALD_HTTP_ADDR":
			unset = f
		}
	}
	if len(row) < 4 || row[1] != "32" || row[2] != "64" || row[3] != "yes" {
		t.Errorf("row %q", row)
	}
	if len(unset) < 4 || unset[1] != "127.0.0.1:8080" || unset[2] != "127.0.0.1:8080" || unset[3] != "no" {
		t.Errorf("row %q", unset)
	}
}

// docs/configuration.md is generated from the tags; it must be regenerated when they change.
func TestConfigurationDocIsFresh(t *testing.T) {
	path := filepath.Join("..", "..", "..", "docs", "configuration.md")
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != Markdown() {
		t.Errorf("docs/configuration.md is stale: run `make docs-config` (go run ./cmd/herald config --markdown > docs/configuration.md) and commit it")
	}
	for _, s := range Settings() {
		if !strings.Contains(string(got), "| `"+s.Name+"` |") {
			t.Errorf("docs/configuration.md lacks %s", s.Name)
		}
	}
}

// Values are trimmed, except keys whose every byte counts; no duration may be negative.
func TestTrimmingAndNegativeDurations(t *testing.T) {
	c, err := Load(env(map[string]string{"HERALD_SECRET_KEY": " key with blanks, every byte of it counts ", "HERALD_STRIPE_SECRET_KEY": " sk_x\n", "HERALD_TASK_QUEUE": "  q  "}))
	if err != nil || c.SecretKey != " key with blanks, every byte of it counts " || c.Ops.StripeSecretKey != "sk_x" || c.TaskQueue != "q" {
		t.Errorf("%q %q %q %v", c.SecretKey, c.Ops.StripeSecretKey, c.TaskQueue, err)
	}
	_, err = Load(env(map[string]string{"HERALD_RELAY_PACK_WINDOW": "-1s", "HERALD_REQUEST_TIMEOUT": "0s"}))
	if err == nil || !strings.Contains(err.Error(), `HERALD_RELAY_PACK_WINDOW must be a duration such as 500ms or 2s, got "-1s"`) || strings.Contains(err.Error(), "HERALD_REQUEST_TIMEOUT") {
		t.Errorf("err = %v", err)
	}
	// A busy app's gathering beside others is bounded: a mistyped hour would hold its sends.
	if _, err := Load(env(map[string]string{"HERALD_RELAY_SHARED_BUSY_WINDOW": "1h"})); err == nil || !strings.Contains(err.Error(), "HERALD_RELAY_SHARED_BUSY_WINDOW must be") {
		t.Errorf("HERALD_RELAY_SHARED_BUSY_WINDOW=1h: %v", err)
	}
}

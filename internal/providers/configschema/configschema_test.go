package configschema

import (
	"reflect"
	"testing"
)

const schema = `{
	"type": "object",
	"additionalProperties": false,
	"required": ["host", "from"],
	"properties": {
		"host": {"type": "string", "minLength": 1},
		"port": {"type": "integer", "minimum": 1, "maximum": 65535},
		"password": {"type": "string", "x-secret": true},
		"from": {"type": "string", "format": "email"},
		"url": {"type": "string", "format": "uri"},
		"tls": {"type": "string", "enum": ["none", "starttls", "tls"]},
		"tags": {"type": "array", "items": {"type": "string"}, "maxItems": 2},
		"code": {"type": ["string", "null"], "pattern": "^[A-Z]+$"}
	}
}`

func TestValidate(t *testing.T) {
	s, err := Parse([]byte(schema))
	if err != nil {
		t.Fatal(err)
	}
	if got := s.SecretFields(); !reflect.DeepEqual(got, []string{"password"}) {
		t.Errorf("secret fields: %v", got)
	}
	if p := s.Validate([]byte(`{"host":"smtp.example.com","port":587,"from":"a@example.com","tls":"starttls","url":"https://x.test/a","code":null}`), "config"); len(p) != 0 {
		t.Errorf("valid config: %v", p)
	}
	got := s.Validate([]byte(`{"host":"","port":70000.5,"from":"nope","url":"/relative","tls":"ssl","tags":["a",2,"c"],"code":"abc","extra":1}`), "config")
	want := []string{
		"config.code must match ^[A-Z]+$",
		"config.extra is not a known field",
		"config.from must be an email address",
		"config.host should not be empty",
		"config.port must be an integer",
		"config.tags must contain no more than 2 elements",
		"config.tags[1] must be a string",
		"config.tls must be one of \"none\", \"starttls\", \"tls\"",
		"config.url must be an absolute URL",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("violations:\n got %q\nwant %q", got, want)
	}
	if got := s.Validate([]byte(`{"port": 0}`), "config"); !reflect.DeepEqual(got, []string{
		"config.host is required", "config.from is required", "config.port must not be less than 1",
	}) {
		t.Errorf("required: %q", got)
	}
	if got := s.Validate([]byte(`[1]`), "config"); !reflect.DeepEqual(got, []string{"config must be an object"}) {
		t.Errorf("not an object: %q", got)
	}
}

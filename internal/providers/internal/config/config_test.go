package config

import (
	"encoding/json"
	"errors"
	"testing"
)

func spec() Spec {
	return Spec{
		{Name: "token", Type: "string", Required: true, Secret: true, Description: "t"},
		{Name: "region", Type: "string", Enum: []string{"us", "eu"}, Default: "us", Description: "r"},
		{Name: "ttl", Type: "integer", Default: 60, Description: "seconds"},
		{Name: "url", Type: "string", Format: "uri", Description: "u"},
	}
}

type settings struct {
	Token  string `json:"token"`
	Region string `json:"region"`
	TTL    int    `json:"ttl"`
	URL    string `json:"url"`
}

func TestSchema(t *testing.T) {
	var got any
	if err := json.Unmarshal(spec().Schema(), &got); err != nil {
		t.Fatal(err)
	}
	var want any
	_ = json.Unmarshal([]byte(`{
		"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object",
		"properties": {
			"token": {"type": "string", "description": "t", "x-secret": true},
			"region": {"type": "string", "description": "r", "enum": ["us", "eu"], "default": "us"},
			"ttl": {"type": "integer", "description": "seconds", "default": 60},
			"url": {"type": "string", "description": "u", "format": "uri"}
		},
		"required": ["token"]
	}`), &want)
	g, _ := json.Marshal(got)
	w, _ := json.Marshal(want)
	if string(g) != string(w) {
		t.Errorf("got  %s\nwant %s", g, w)
	}
}

func TestDecodeAppliesDefaults(t *testing.T) {
	var s settings
	if err := spec().Decode(json.RawMessage(`{"token":"x","url":""}`), &s); err != nil {
		t.Fatal(err)
	}
	if s != (settings{Token: "x", Region: "us", TTL: 60}) {
		t.Errorf("%+v", s)
	}
	if err := spec().Decode(json.RawMessage(`{"token":"x","region":"eu","ttl":5}`), &s); err != nil || s.Region != "eu" || s.TTL != 5 {
		t.Errorf("%+v %v", s, err)
	}
}

func TestDecodeReportsEveryProblem(t *testing.T) {
	var s settings
	err := spec().Decode(json.RawMessage(`{"region":"asia","ttl":"soon","url":3}`), &s)
	var joined interface{ Unwrap() []error }
	if !errors.As(err, &joined) {
		t.Fatalf("got %v", err)
	}
	var msgs []string
	for _, e := range joined.Unwrap() {
		msgs = append(msgs, e.Error())
	}
	want := []string{"token is required", "region must be one of us, eu", "ttl must be an integer", "url must be a string"}
	if len(msgs) != len(want) {
		t.Fatalf("got %q", msgs)
	}
	for i := range want {
		if msgs[i] != want[i] {
			t.Errorf("%d: %q, want %q", i, msgs[i], want[i])
		}
	}
	for _, raw := range []string{``, `null`} {
		if err := spec().Decode(json.RawMessage(raw), &s); err == nil || err.Error() != "token is required" {
			t.Errorf("%q: %v", raw, err)
		}
	}
}

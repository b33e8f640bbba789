package jsontime_test

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/heraldhq/herald/jsontime"
)

func TestMarshalIsUTCWithMilliseconds(t *testing.T) {
	zone := time.FixedZone("UTC+2", 2*3600)
	at := time.Date(2026, 1, 2, 5, 4, 5, 678_900_000, zone)
	b, err := json.Marshal(struct {
		At  jsontime.Time  `json:"at"`
		Nil *jsontime.Time `json:"nil"`
		Ptr *jsontime.Time `json:"ptr"`
	}{At: jsontime.Time(at), Ptr: jsontime.Ptr(&at)})
	if err != nil {
		t.Fatal(err)
	}
	want := `{"at":"2026-01-02T03:04:05.678Z","nil":null,"ptr":"2026-01-02T03:04:05.678Z"}`
	if string(b) != want {
		t.Errorf("got %s, want %s", b, want)
	}
}

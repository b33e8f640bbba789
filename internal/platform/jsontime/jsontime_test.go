package jsontime_test

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/heraldhq/herald/internal/platform/jsontime"
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

func TestAppendQuotedMatchesTheLayout(t *testing.T) {
	for _, at := range []time.Time{
		time.Unix(0, 0), time.Date(9999, 12, 31, 23, 59, 59, 999_999_999, time.UTC), time.Date(1, 1, 1, 0, 0, 0, 0, time.UTC),
		time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC), time.Date(-5, 3, 4, 5, 6, 7, 8_000_000, time.UTC),
		time.Date(2026, 11, 22, 6, 5, 4, 3_999_999, time.FixedZone("x", -7*3600)),
	} {
		want := `"` + at.UTC().Format(jsontime.Layout) + `"`
		if got := string(jsontime.AppendQuoted(nil, at)); got != want {
			t.Errorf("%v: got %s, want %s", at, got, want)
		}
	}
}

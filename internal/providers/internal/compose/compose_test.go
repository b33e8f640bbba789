package compose

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/heraldhq/herald/internal/providers"
)

func TestText(t *testing.T) {
	cases := []struct {
		msg  providers.Message
		want string
	}{
		{providers.Message{Title: " Hi ", Body: "there"}, "Hi\nthere"},
		{providers.Message{Body: "only"}, "only"},
		{providers.Message{Title: "T", URL: "https://x.y/z"}, "T\nhttps://x.y/z"},
		{providers.Message{Body: "see https://x.y/z", URL: "https://x.y/z"}, "see https://x.y/z"},
		{providers.Message{}, ""},
	}
	for _, tc := range cases {
		if got := Text(tc.msg); got != tc.want {
			t.Errorf("%+v: %q, want %q", tc.msg, got, tc.want)
		}
	}
}

func TestSenderOf(t *testing.T) {
	def := Sender{Email: "noreply@x.com", Name: "X", ReplyTo: "help@x.com"}
	if got := SenderOf(providers.Message{}, def); got != def {
		t.Errorf("defaults: %+v", got)
	}
	got := SenderOf(providers.Message{From: "news@x.com", FromName: "News", ReplyTo: "r@x.com"}, def)
	if got != (Sender{Email: "news@x.com", Name: "News", ReplyTo: "r@x.com"}) {
		t.Errorf("override: %+v", got)
	}
}

func TestAddressAndUnique(t *testing.T) {
	if got := Address("Zoë", "z@x.com"); got != "=?utf-8?q?Zo=C3=AB?= <z@x.com>" {
		t.Errorf("address %q", got)
	}
	if got := Address("", "z@x.com"); got != "z@x.com" {
		t.Errorf("bare %q", got)
	}
	got := Unique([]string{"a@x.com", " B@x.com", "b@X.com", "", "c@x.com"}, "C@x.com")
	if !reflect.DeepEqual(got, []string{"a@x.com", "B@x.com"}) {
		t.Errorf("unique %q", got)
	}
}

func TestMergeAndPick(t *testing.T) {
	dst := map[string]any{"a": map[string]any{"x": 1.0, "y": 2.0}, "b": []any{1.0}, "keep": true}
	Merge(dst, Pick(map[string]any{"a": map[string]any{"y": 3.0, "z": 4.0}, "b": []any{}, "drop": 1.0}, "a", "b", "missing"))
	want := map[string]any{"a": map[string]any{"x": 1.0, "y": 3.0, "z": 4.0}, "b": []any{}, "keep": true}
	if !reflect.DeepEqual(dst, want) {
		t.Errorf("got %v", dst)
	}
}

func TestDataStrings(t *testing.T) {
	got := DataStrings(json.RawMessage(`{"s":"x","n":42,"o":{"a":[1]},"b":true}`))
	want := map[string]string{"s": "x", "n": "42", "o": `{"a":[1]}`, "b": "true"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %v", got)
	}
	if DataStrings(json.RawMessage(`[1]`)) != nil || DataStrings(nil) != nil {
		t.Error("non-objects flatten to something")
	}
}

func TestFitKeyDigestTruncate(t *testing.T) {
	if FitKey("short", 10) != "short" {
		t.Error("short key changed")
	}
	long := FitKey("a-key-that-is-too-long", 10)
	if len(long) != 10 || long != Digest("a-key-that-is-too-long", 10) || long == FitKey("a-key-that-is-too-lonG", 10) {
		t.Errorf("fitted %q", long)
	}
	if got := Truncate("héllo wörld", 5); got != "héll…" {
		t.Errorf("truncate %q", got)
	}
	if got := Truncate("abc", 5); got != "abc" {
		t.Errorf("truncate %q", got)
	}
}

func TestCheckEmail(t *testing.T) {
	ok := providers.Message{To: providers.Address{Email: "a@x.com"}, Text: "t"}
	if CheckEmail(ok) != nil {
		t.Error("valid email refused")
	}
	for _, m := range []providers.Message{{Text: "t"}, {To: providers.Address{Email: "a@x.com"}}} {
		if !providers.IsPermanent(CheckEmail(m)) {
			t.Errorf("%+v accepted", m)
		}
	}
}

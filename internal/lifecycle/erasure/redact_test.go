package erasure

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestNeedlesTakeIdentifierAndProfileStringsLongestFirst(t *testing.T) {
	got := Needles("user-1234", json.RawMessage(`{"email":"ann@example.com","locale":"en","phone":"+15550100","tags":["vip-customer"],"n":3}`))
	want := []string{"ann@example.com", "vip-customer", "+15550100", "user-1234"}
	if strings.Join(got, ",") != strings.Join(want, ",") {
		t.Fatalf("needles = %q, want %q", got, want)
	}
	if got := Needles("u1", nil); len(got) != 0 {
		t.Fatalf("a short identifier is no needle: %q", got)
	}
}

func TestLikePatternsEscapeWildcards(t *testing.T) {
	got := LikePatterns([]string{`a_b%c\d`})
	if got[0] != `%a\_b\%c\\d%` {
		t.Fatalf("pattern = %q", got[0])
	}
}

func TestRedactRequestRemovesTheRecipientAndItsStrings(t *testing.T) {
	payload := `{"notification":{"title":"Hi ann@example.com"},"recipients":[{"identifier":"ann","profile":{"email":"ann@example.com"}},{"identifier":"bob","profile":{"email":"bob@example.com"}}],"topics":["news"],"data":{"ann@example.com":{"to":"ann@example.com"}}}`
	out, err := RedactRequest(json.RawMessage(payload), "ann", []string{"ann@example.com"})
	if err != nil {
		t.Fatal(err)
	}
	if !out.Changed || out.Recipients != 1 || out.Topics != 1 {
		t.Fatalf("result = %+v", out)
	}
	s := string(out.Payload)
	if strings.Contains(s, "ann@example.com") || strings.Contains(s, `"identifier":"ann"`) {
		t.Fatalf("payload still names the user: %s", s)
	}
	if !strings.Contains(s, "bob@example.com") || !strings.Contains(s, "Hi "+Redacted) {
		t.Fatalf("payload lost what is not the user's: %s", s)
	}
}

func TestRedactRequestWithoutTheUserChangesNothing(t *testing.T) {
	out, err := RedactRequest(json.RawMessage(`{"recipients":[{"identifier":"bob"}]}`), "ann", []string{"ann@example.com"})
	if err != nil || out.Changed || out.Recipients != 1 {
		t.Fatalf("result = %+v, %v", out, err)
	}
}

func TestRecipientPatternMatchesJSONBText(t *testing.T) {
	if got := RecipientPattern(`a_b"<c>`); got != `%"identifier": "a\_b\\"<c>"%` {
		t.Fatalf("pattern = %s", got)
	}
}

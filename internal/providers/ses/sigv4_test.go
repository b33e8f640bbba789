package ses

import (
	"net/http"
	"testing"
	"time"
)

// The AWS Signature Version 4 test suite (docs.aws.amazon.com/general/latest/gr/
// signature-v4-test-suite.html): example credentials, region us-east-1, service "service",
// 2015-08-30T12:36:00Z, and the signatures AWS publishes for these requests.
func TestSignV4MatchesTheAWSTestSuite(t *testing.T) {
	creds := credentials{AccessKeyID: "AKIDEXAMPLE", SecretAccessKey: "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY"}
	at := time.Date(2015, 8, 30, 12, 36, 0, 0, time.UTC)
	cases := []struct{ name, method, url, signature string }{
		{"get-vanilla", "GET", "https://example.amazonaws.com/", "5fa00fa31553b73ebf1942676e86291e8372ff2a2260956d9b8aae1d763fbf31"},
		{"get-vanilla-query-order-key-case", "GET", "https://example.amazonaws.com/?Param2=value2&Param1=value1", "b97d918cfa904a5beff61c982a1b6f458b799221646efd99d3219ec94cdf2500"},
		{"post-vanilla", "POST", "https://example.amazonaws.com/", "5da7c1a2acd57cee7505fc6676e4e544621c30862966e37dddb68e92efbe5d6b"},
	}
	for _, tc := range cases {
		req, err := http.NewRequest(tc.method, tc.url, nil)
		if err != nil {
			t.Fatal(err)
		}
		signV4(req, nil, creds, "us-east-1", "service", at)
		want := "AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/service/aws4_request, SignedHeaders=host;x-amz-date, Signature=" + tc.signature
		if got := req.Header.Get("Authorization"); got != want {
			t.Errorf("%s:\n got %s\nwant %s", tc.name, got, want)
		}
		if got := req.Header.Get("X-Amz-Date"); got != "20150830T123600Z" {
			t.Errorf("%s: X-Amz-Date %s", tc.name, got)
		}
	}
}

func TestSignV4SignsTheSessionTokenAndContentType(t *testing.T) {
	req, _ := http.NewRequest("POST", "https://email.eu-west-1.amazonaws.com/v2/email/outbound-emails", nil)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", "Herald")
	signV4(req, []byte("{}"), credentials{"AK", "SK", "TOKEN"}, "eu-west-1", "ses", time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC))
	if req.Header.Get("X-Amz-Security-Token") != "TOKEN" {
		t.Error("no session token header")
	}
	const prefix = "AWS4-HMAC-SHA256 Credential=AK/20260102/eu-west-1/ses/aws4_request, SignedHeaders=content-type;host;x-amz-date;x-amz-security-token, Signature="
	if got := req.Header.Get("Authorization"); len(got) != len(prefix)+64 || got[:len(prefix)] != prefix {
		t.Errorf("Authorization %s", got)
	}
}

func TestCanonicalQueryOrdersByNameThenValue(t *testing.T) {
	req, _ := http.NewRequest("GET", "https://x/?b=2&a-b=3&a=1&a=0&sp=a%20b", nil)
	if got, want := canonicalQuery(req.URL.Query()), "a=0&a=1&a-b=3&b=2&sp=a%20b"; got != want {
		t.Errorf("got %s want %s", got, want)
	}
}

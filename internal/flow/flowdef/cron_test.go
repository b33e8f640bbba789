package flowdef

import (
	"slices"
	"testing"
)

func TestCheckCron(t *testing.T) {
	for _, ok := range []string{"0 9 * * *", "*/15 8-18 * * MON-FRI", "0 0 1 JAN,jul ?", "30 6 ? * 7", "@daily", "@Hourly", "0-59/5 * 1-31/2 * 0"} {
		if got := CheckCron(ok); len(got) != 0 {
			t.Errorf("%q: %q", ok, got)
		}
	}
	cases := map[string][]string{
		"0 9 * *":         {"cron must have 5 fields (minute hour day-of-month month day-of-week), got 4"},
		"@fortnightly":    {`cron: unknown descriptor "@fortnightly" (use @yearly, @annually, @monthly, @weekly, @daily, @midnight, @hourly, or five fields)`},
		"61 24 0 13 8":    {"cron minute: 61 is out of range 0-59", "cron hour: 24 is out of range 0-23", "cron day-of-month: 0 is out of range 1-31", "cron month: 13 is out of range 1-12", "cron day-of-week: 8 is out of range 0-7"},
		"*/0 x 5-1 FOO ?": {`cron minute: step "0" must be a whole number of at least 1`, `cron hour: "x" is not a number`, "cron day-of-month: range 5-1 goes backwards", `cron month: "FOO" is not a number or a name (JAN, FEB, MAR, APR, MAY, JUN, JUL, AUG, SEP, OCT, NOV, DEC)`},
		"1,,2 ? * * *":    {"cron minute: empty list item", `cron hour: "?" is not a number`},
	}
	for expr, want := range cases {
		if got := CheckCron(expr); !slices.Equal(got, want) {
			t.Errorf("%q:\n got %q\nwant %q", expr, got, want)
		}
	}
}

func TestCheckTimezone(t *testing.T) {
	for _, ok := range []string{"", "UTC", "Europe/Berlin", "America/New_York"} {
		if msg := CheckTimezone(ok); msg != "" {
			t.Errorf("%q: %s", ok, msg)
		}
	}
	if msg := CheckTimezone("Mars/Olympus"); msg != `timezone: unknown time zone "Mars/Olympus" (use an IANA name such as Europe/Berlin)` {
		t.Errorf("unknown zone: %s", msg)
	}
	if msg := CheckTimezone("Local"); msg == "" {
		t.Error("Local depends on the server: refuse it")
	}
}

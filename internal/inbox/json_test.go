package inbox

import (
	"encoding/json"
	"math/rand/v2"
	"testing"
	"time"
)

// plainPage and plainNotification mirror the types without their fast encoder, so
// encoding/json writes them by reflection: the reference output.
type plainPage struct {
	UnreadCount int64               `json:"unreadCount"`
	Pagination  Pagination          `json:"pagination"`
	Data        []plainNotification `json:"data"`
}

type plainNotification Notification

var tricky = []string{"", "plain", `quote " and \ backslash`, "<b>&amp;</b>", "tab\tnew\nline\r", "\x00\x01\x1f\x7f",
	"\b\f", "é ü 漢字 🎉", "line\u2028sep\u2029", "bad \xff\xfe utf8", "\xe2\x80", "ok"}

func randomString(r *rand.Rand) string {
	s := ""
	for range r.IntN(4) {
		s += tricky[r.IntN(len(tricky))]
	}
	return s
}

func randomNotification(r *rand.Rand) Notification {
	at := time.Unix(r.Int64N(4e9), r.Int64N(1e9)).In(time.FixedZone("x", 3600*(r.IntN(25)-12)))
	n := Notification{ID: r.Int64N(1 << 50), Title: randomString(r), Message: randomString(r), Icon: randomString(r),
		URL: randomString(r), CreatedAt: Time(at)}
	raws := []string{"", `{"k": 1, "list": [1, 2, {"a": "<x> & y"}]}`, `"s\u2028"`, `[]`, `{"nested": {"deep": null}}`, `12.50`}
	if v := raws[r.IntN(len(raws))]; v != "" {
		n.Data = json.RawMessage(v)
	}
	if v := raws[r.IntN(len(raws))]; v != "" {
		n.Blocks = json.RawMessage(v)
	}
	if r.IntN(2) == 0 {
		s := randomString(r)
		n.State = &s
	}
	if r.IntN(2) == 0 {
		n.Category = &Category{ID: r.Int64N(1000), Identifier: randomString(r), Name: randomString(r)}
	}
	for _, p := range []**Time{&n.SeenAt, &n.ReadAt, &n.ClickedAt} {
		if r.IntN(2) == 0 {
			t := Time(at.Add(time.Duration(r.Int64N(1e12))))
			*p = &t
		}
	}
	return n
}

func TestPageJSONMatchesEncodingJSON(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for i := range 2000 {
		page := Page{UnreadCount: r.Int64N(100), Pagination: Pagination{TotalCount: r.Int64N(1e6), PageNo: r.IntN(500), Limit: 20}}
		switch i % 3 {
		case 0:
			page.Data = nil
		case 1:
			page.Data = []Notification{}
		default:
			for range 1 + r.IntN(5) {
				page.Data = append(page.Data, randomNotification(r))
			}
		}
		plain := plainPage{UnreadCount: page.UnreadCount, Pagination: page.Pagination}
		if page.Data != nil {
			plain.Data = []plainNotification{}
			for _, n := range page.Data {
				plain.Data = append(plain.Data, plainNotification(n))
			}
		}
		want, err := json.Marshal(plain)
		if err != nil {
			t.Fatal(err)
		}
		if got := page.AppendJSON(nil); string(got) != string(want) {
			t.Fatalf("case %d:\n got %s\nwant %s", i, got, want)
		}
	}
}

func BenchmarkPageJSON(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 2))
	page := Page{Pagination: Pagination{TotalCount: 100000, PageNo: 1, Limit: 20}}
	for range 20 {
		n := Notification{ID: r.Int64N(1 << 40), Title: "Seeded 123", Message: "Message body number 123",
			Data: json.RawMessage(`{"k": 1}`), CreatedAt: Time(time.Now())}
		page.Data = append(page.Data, n)
	}
	b.Run("encoding/json", func(b *testing.B) {
		for b.Loop() {
			if _, err := json.Marshal(page); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("AppendJSON", func(b *testing.B) {
		buf := make([]byte, 0, 8192)
		for b.Loop() {
			buf = page.AppendJSON(buf[:0])
		}
	})
}

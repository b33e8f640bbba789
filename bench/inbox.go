package bench

import (
	"fmt"
	"io"
)

// InboxResult is scenario 4: reading inboxes (filled in when the inbox endpoints land).
type InboxResult struct {
	Rows     int64
	Page1    Stats
	Page500  Stats
	Unread   Stats
	Ordinary Stats
}

func (in *InboxResult) write(w io.Writer) {
	fmt.Fprintf(w, "## 4. Inbox read (%d notifications)\n\n| measure | req/s | p50 / p99 |\n|---|---|---|\n", in.Rows)
	for _, row := range []struct {
		name string
		s    Stats
	}{{"heavy user, page 1", in.Page1}, {"heavy user, page 500", in.Page500}, {"unread count", in.Unread}, {"ordinary users, page 1", in.Ordinary}} {
		fmt.Fprintf(w, "| %s | %.0f | %s / %s |\n", row.name, row.s.Rate(), ms(row.s.P50), ms(row.s.P99))
	}
	fmt.Fprintln(w)
}

package herald

import (
	"context"
	"iter"
)

// Notifications walks every notification of the user's inbox that o selects, page after
// page from o.PageNo (default 1) with o.Limit per page (default 20, the most). It stops at
// the first error, which it yields with a zero Notification.
//
//	for n, err := range user.Notifications(ctx, herald.ListOptions{}) {
//		if err != nil { return err }
//		fmt.Println(n.Title)
//	}
func (u *UserClient) Notifications(ctx context.Context, o ListOptions) iter.Seq2[Notification, error] {
	if o.Limit <= 0 {
		o.Limit = 20
	}
	if o.PageNo <= 0 {
		o.PageNo = 1
	}
	return Pages(func(page int) ([]Notification, bool, error) {
		q := o
		q.PageNo = o.PageNo + page
		p, err := u.ListNotifications(ctx, q)
		if err != nil {
			return nil, false, err
		}
		seen := (q.PageNo-1)*q.Limit + len(p.Data)
		more := len(p.Data) == q.Limit && (p.Pagination == nil || seen < p.Pagination.TotalCount)
		return p.Data, more, nil
	})
}

// Pages turns a page fetcher into an iterator over every item: fetch(n) returns page n
// (from 0), and whether another follows.
func Pages[T any](fetch func(page int) (items []T, more bool, err error)) iter.Seq2[T, error] {
	return func(yield func(T, error) bool) {
		for page := 0; ; page++ {
			items, more, err := fetch(page)
			if err != nil {
				var zero T
				yield(zero, err)
				return
			}
			for _, it := range items {
				if !yield(it, nil) {
					return
				}
			}
			if !more {
				return
			}
		}
	}
}

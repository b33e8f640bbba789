package usage

import (
	"context"
	"time"

	"github.com/jackc/pgx/v5/pgtype"

	"github.com/heraldhq/herald/db"
	"github.com/heraldhq/herald/db/dbsqlc"
)

// HistoryMonths is how many months (the current one included) a usage report lists.
const HistoryMonths = 12

// Month is the usage of one calendar month (UTC).
type Month struct {
	// Month is YYYY-MM.
	Month         string `json:"month"`
	Notifications int64  `json:"notifications"`
	Recipients    int64  `json:"recipients"`
}

// AppUsage is an app's usage: the current month and the months before it.
type AppUsage struct {
	AppID int64 `json:"appId"`
	Month
	History []Month `json:"history"`
}

// AppMonth is one app's share of its client's month.
type AppMonth struct {
	AppID         int64  `json:"appId"`
	Name          string `json:"name"`
	Notifications int64  `json:"notifications"`
	Recipients    int64  `json:"recipients"`
}

// ClientUsage is a client's usage against its plan.
type ClientUsage struct {
	ClientID int64 `json:"clientId"`
	Month
	Plan     string `json:"plan"`
	PlanName string `json:"planName"`
	// Quota is the plan's monthly notifications, nil when unlimited; Remaining likewise.
	Quota     *int64 `json:"quota"`
	Remaining *int64 `json:"remaining"`
	OverQuota bool   `json:"overQuota"`
	// Enforcement is the quota mode: off, report or enforce.
	Enforcement string     `json:"enforcement"`
	ResetsAt    time.Time  `json:"resetsAt"`
	Apps        []AppMonth `json:"apps"`
	History     []Month    `json:"history"`
}

// Reports reads usage.
type Reports struct {
	db     *db.DB
	quotas QuotaSource
	mode   string
	// Now is the clock; tests move it.
	Now func() time.Time
}

// NewReports returns a usage reader.
func NewReports(d *db.DB, quotas QuotaSource, mode string) *Reports {
	return &Reports{db: d, quotas: quotas, mode: mode, Now: time.Now}
}

func date(t time.Time) pgtype.Date { return pgtype.Date{Time: t, Valid: true} }

// App returns an app's usage.
func (r *Reports) App(ctx context.Context, appID int64) (AppUsage, error) {
	month := MonthOf(r.Now())
	since := month.AddDate(0, 1-HistoryMonths, 0)
	rows, err := r.db.AppUsageMonths(ctx, dbsqlc.AppUsageMonthsParams{AppID: appID, Since: date(since), SinceAt: since})
	if err != nil {
		return AppUsage{}, db.MapError(err)
	}
	counts := map[string]Month{}
	for _, row := range rows {
		k := row.Month.Time.Format("2006-01")
		counts[k] = Month{Month: k, Notifications: row.Notifications, Recipients: row.Recipients}
	}
	hist := history(month, counts)
	return AppUsage{AppID: appID, Month: hist[0], History: hist}, nil
}

// Client returns a client's usage against its quota.
func (r *Reports) Client(ctx context.Context, clientID int64) (ClientUsage, error) {
	month := MonthOf(r.Now())
	since := month.AddDate(0, 1-HistoryMonths, 0)
	rows, err := r.db.ClientUsageMonths(ctx, dbsqlc.ClientUsageMonthsParams{ClientID: clientID, Since: date(since), SinceAt: since})
	if err != nil {
		return ClientUsage{}, db.MapError(err)
	}
	counts := map[string]Month{}
	for _, row := range rows {
		k := row.Month.Time.Format("2006-01")
		counts[k] = Month{Month: k, Notifications: row.Notifications, Recipients: row.Recipients}
	}
	hist := history(month, counts)
	apps, err := r.db.ClientAppsUsage(ctx, dbsqlc.ClientAppsUsageParams{Month: date(month), MonthStart: month,
		MonthEnd: month.AddDate(0, 1, 0), ClientID: &clientID})
	if err != nil {
		return ClientUsage{}, db.MapError(err)
	}
	out := ClientUsage{ClientID: clientID, Month: hist[0], History: hist, Enforcement: r.mode,
		ResetsAt: month.AddDate(0, 1, 0), Apps: make([]AppMonth, 0, len(apps))}
	for _, a := range apps {
		out.Apps = append(out.Apps, AppMonth{AppID: a.ID, Name: a.Name, Notifications: a.Notifications, Recipients: a.Recipients})
	}
	q, err := r.quotas(ctx, clientID)
	if err != nil {
		return ClientUsage{}, err
	}
	out.Plan, out.PlanName = q.Plan, q.PlanName
	if q.Monthly > 0 && r.mode != Off {
		quota, remaining := q.Monthly, max(q.Monthly-out.Notifications, 0)
		out.Quota, out.Remaining, out.OverQuota = &quota, &remaining, out.Notifications >= quota
	}
	return out, nil
}

// history lists HistoryMonths months from month backwards, zero where nothing was sent.
func history(month time.Time, counts map[string]Month) []Month {
	out := make([]Month, HistoryMonths)
	for i := range out {
		k := month.AddDate(0, -i, 0).Format("2006-01")
		m, ok := counts[k]
		if !ok {
			m = Month{Month: k}
		}
		out[i] = m
	}
	return out
}

package security

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/heraldhq/herald/internal/testkit/stacktest"
)

// snapshot is every row of every table of the database, and the state of the fakes of
// third-party services (Stripe): table → primary key → row (as JSON). Comparing two tells
// exactly what a request wrote.
type snapshot map[string]map[string]string

// snapshotter reads snapshots of one database with a single query, and of the state of
// the fakes of third-party services the stack writes to (external: table → key → row).
type snapshotter struct {
	e        *stacktest.Env
	query    string
	external []func() map[string]map[string]string
}

func newSnapshotter(t *testing.T, e *stacktest.Env, external ...func() map[string]map[string]string) *snapshotter {
	t.Helper()
	ctx := context.Background()
	rows, err := e.Stack.DB.Pool.Query(ctx, `
		SELECT c.relname, coalesce(array_agg(a.attname ORDER BY k.ord) FILTER (WHERE a.attname IS NOT NULL), '{}')
		FROM pg_class c
		JOIN pg_namespace n ON n.oid = c.relnamespace AND n.nspname = 'public'
		LEFT JOIN pg_index i ON i.indrelid = c.oid AND i.indisprimary
		LEFT JOIN LATERAL unnest(i.indkey) WITH ORDINALITY AS k(attnum, ord) ON true
		LEFT JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum = k.attnum
		WHERE c.relkind = 'r' AND c.relname <> 'goose_db_version'
		GROUP BY c.relname ORDER BY c.relname`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var parts []string
	for rows.Next() {
		var table string
		var pk []string
		if err := rows.Scan(&table, &pk); err != nil {
			t.Fatal(err)
		}
		key := "to_jsonb(t)::text"
		if len(pk) > 0 {
			cols := make([]string, len(pk))
			for i, c := range pk {
				cols[i] = "t." + c
			}
			key = "jsonb_build_array(" + strings.Join(cols, ", ") + ")::text"
		}
		parts = append(parts, fmt.Sprintf("SELECT '%s', %s, to_jsonb(t)::text FROM %s t", table, key, table))
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return &snapshotter{e: e, query: strings.Join(parts, " UNION ALL "), external: external}
}

func (s *snapshotter) take(t *testing.T) snapshot {
	t.Helper()
	rows, err := s.e.Stack.DB.Pool.Query(context.Background(), s.query)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	out := snapshot{}
	for rows.Next() {
		var table, key, row string
		if err := rows.Scan(&table, &key, &row); err != nil {
			t.Fatal(err)
		}
		if out[table] == nil {
			out[table] = map[string]string{}
		}
		out[table][key] = row
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	for _, ext := range s.external {
		for table, rs := range ext() {
			out[table] = rs
		}
	}
	return out
}

// rows counts the rows of each table.
func (s snapshot) rows() map[string]int {
	out := map[string]int{}
	for table, rs := range s {
		out[table] = len(rs)
	}
	return out
}

// change is one row a request added, removed or changed.
type change struct {
	table, key string
	// before and after are the row as JSON; empty when it did not exist.
	before, after string
}

func (c change) String() string {
	switch {
	case c.before == "":
		return fmt.Sprintf("%s: added %s", c.table, c.after)
	case c.after == "":
		return fmt.Sprintf("%s: removed %s", c.table, c.before)
	}
	return fmt.Sprintf("%s %s: %s → %s", c.table, c.key, c.before, c.after)
}

// diff lists what changed from s to after.
func (s snapshot) diff(after snapshot) []change {
	var out []change
	tables := map[string]bool{}
	for t := range s {
		tables[t] = true
	}
	for t := range after {
		tables[t] = true
	}
	for table := range tables {
		for k, b := range s[table] {
			if a, ok := after[table][k]; !ok || a != b {
				out = append(out, change{table, k, b, a})
			}
		}
		for k, a := range after[table] {
			if _, ok := s[table][k]; !ok {
				out = append(out, change{table, k, "", a})
			}
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].String() < out[j].String() })
	return out
}

// owner tells which tenant's data a row is, by the references it holds: the tenant's app,
// client and console account, and the rows that hang from them (users, topics, requests,
// templates, flows, provider instances).
type owner struct {
	ids map[string]map[float64]bool // reference column → ids of the tenant
}

// ownerOf collects a tenant's ids from a snapshot.
func ownerOf(s snapshot, tn *tenant) *owner {
	o := &owner{ids: map[string]map[float64]bool{
		"app_id": {float64(tn.app): true}, "client_id": {float64(tn.client): true},
		"console_user_id": {float64(tn.consoleUser): true}, "created_by": {float64(tn.consoleUser): true},
		"invited_by": {float64(tn.consoleUser): true},
	}}
	// Rows of the tenant's app name the ids other tables refer to.
	for table, col := range map[string]string{"users": "user_id", "topics": "topic_id", "templates": "template_id",
		"flows": "flow_id", "provider_instances": "instance_id", "categories": "category_id", "layouts": "layout_id"} {
		if o.ids[col] == nil {
			o.ids[col] = map[float64]bool{}
		}
		for _, row := range s[table] {
			var r map[string]any
			_ = json.Unmarshal([]byte(row), &r)
			if id, ok := r["id"].(float64); ok && r["app_id"] == float64(tn.app) {
				o.ids[col][id] = true
			}
		}
	}
	return o
}

// owns reports whether a row (as JSON) is the tenant's.
func (o *owner) owns(table, row string) bool {
	if row == "" {
		return false
	}
	var r map[string]any
	if err := json.Unmarshal([]byte(row), &r); err != nil {
		return false
	}
	self := map[string]string{"apps": "app_id", "clients": "client_id", "console_users": "console_user_id"}
	if col, ok := self[table]; ok {
		if id, ok := r["id"].(float64); ok && o.ids[col][id] {
			return true
		}
	}
	for col, ids := range o.ids {
		if id, ok := r[col].(float64); ok && ids[id] {
			return true
		}
	}
	return false
}

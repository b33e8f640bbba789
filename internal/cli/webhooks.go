package cli

import (
	"encoding/json"
	"fmt"
	"strconv"
	"time"

	"github.com/heraldhq/herald/internal/cli/api"
)

// webhookLogs prints the app's event webhook deliveries, oldest first; with follow it
// prints a delivery again each time it has a new attempt.
func (r *runner) webhookLogs(c *api.Client, status string, limit int, follow bool, every time.Duration) error {
	seen := map[int64]int{} // delivery → attempts printed
	header := false
	for {
		list, err := c.WebhookDeliveries(r.ctx, r.app, status, limit)
		if err != nil {
			if r.ctx.Err() != nil {
				return nil
			}
			return err
		}
		for i := len(list) - 1; i >= 0; i-- {
			d := list[i]
			if n, ok := seen[d.ID]; ok && n == d.Attempts {
				continue
			}
			seen[d.ID] = d.Attempts
			if r.json {
				b, _ := json.Marshal(d)
				fmt.Fprintln(r.env.Stdout, string(b))
				continue
			}
			if !header {
				r.out("%s", r.paint(bold, fmt.Sprintf("%-20s %-9s %-22s %-10s %-8s %-12s %s", "TIME", "ENDPOINT", "EVENT", "STATUS", "ATTEMPTS", "LAST ANSWER", "WEBHOOK-ID")))
				header = true
			}
			st := fmt.Sprintf("%-10s", d.Status)
			switch d.Status {
			case "succeeded":
				st = r.paint(green, st)
			case "failed":
				st = r.paint(red, st)
			}
			answer := d.LastError
			if d.LastStatus != nil {
				answer = "HTTP " + strconv.Itoa(*d.LastStatus)
			}
			if d.LastLatencyMs != nil {
				answer += fmt.Sprintf(" %dms", *d.LastLatencyMs)
			}
			r.out("%-20s %-9d %-22s %s %-8d %-12s %s", d.CreatedAt.Local().Format("2006-01-02 15:04:05"), d.EndpointID, d.EventType, st, d.Attempts, answer, d.MessageID)
		}
		if !follow {
			if !header && !r.json {
				r.out("No webhook deliveries yet.")
			}
			return nil
		}
		select {
		case <-r.ctx.Done():
			return nil
		case <-time.After(every):
		}
	}
}

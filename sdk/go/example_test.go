package herald_test

import (
	"context"
	"errors"
	"fmt"
	"log"
	"time"

	herald "github.com/heraldhq/herald/sdk/go"
)

// The quick start of the README (compiled by go test, not run: it needs a server).
func Example() {
	c, err := herald.NewClient(herald.WithBaseURL("http://127.0.0.1:8080"),
		herald.WithAPIKey("key"), herald.WithAPISecret("secret"))
	if err != nil {
		log.Fatal(err)
	}
	ctx := context.Background()
	res, err := c.Send(ctx, herald.SendRequest{
		Notification: &herald.SendRequestNotification{Title: "Welcome", Message: "Glad you are here"},
		SendTo: &herald.SendRequestSendTo{Recipients: []any{"alice",
			herald.Recipient{Identifier: "bob", Email: "bob@example.com"}}},
	})
	var apiErr *herald.APIError
	if errors.As(err, &apiErr) {
		log.Fatal(apiErr.Status, apiErr.Problems)
	}
	fmt.Println("accepted", res.RequestID)
	for n, err := range c.AsUser("alice").Notifications(ctx, herald.ListOptions{}) {
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println(n.ID, n.Title)
	}
}

// A scheduled workflow send to a topic, cancellable by its key.
func ExampleClient_Send() {
	c, _ := herald.NewClient(herald.WithAPIKey("key"), herald.WithAPISecret("secret"))
	ctx := context.Background()
	at := time.Now().Add(time.Hour)
	_, _ = c.Send(ctx, herald.SendRequest{
		Notification: &herald.SendRequestNotification{
			Workflow: &herald.SendRequestNotificationWorkflow{Identifier: "order-shipped", CancellationKey: "order-1234"},
		},
		SendTo:   &herald.SendRequestSendTo{Topics: []string{"team"}},
		Override: &herald.SendRequestOverride{Channels: []herald.Channel{herald.ChannelInApp, herald.ChannelEmail}},
		SendAt:   &at,
	}, herald.WithIdempotencyKey("order-1234-shipped"))
	_, _ = c.CancelWorkflowRuns(ctx, herald.WorkflowCancel{CancellationKey: "order-1234"})
}

// Package herald is the official Go client of Herald's developer API (/v3).
//
// A Client holds the app's credentials (API key and secret) and sends requests in app
// mode: sends, cancellations, schedules, users, categories and topics. Client.AsUser
// returns a UserClient that acts on one user's behalf (inbox, profile, preferences, device
// connect) with the API key, the user id and, in secure mode, a user JWT.
//
//	c, err := herald.NewClient(herald.WithBaseURL("http://localhost:8080"))
//	res, err := c.Send(ctx, herald.SendRequest{
//		Notification: &herald.SendRequestNotification{Title: "Hi", Message: "Welcome"},
//		SendTo:       &herald.SendRequestSendTo{Recipients: herald.Recipients("alice")},
//	})
//
// Every send carries an Idempotency-Key (generated when none is given), so the client
// retries it safely: timeouts, connection errors, 429 (after Retry-After) and 5xx are
// retried with capped exponential backoff and jitter; other 4xx answers are returned as
// *APIError at once. The schema types (SendRequest, Notification, …) are generated from
// api/v3/openapi.json by internal/cmd/typegen.
package herald

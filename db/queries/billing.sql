-- name: GetBillingCustomer :one
SELECT * FROM billing_customers WHERE client_id = @client_id AND provider = @provider;

-- name: InsertBillingCustomer :one
INSERT INTO billing_customers (client_id, provider, customer_id) VALUES (@client_id, @provider, @customer_id)
ON CONFLICT (client_id) DO UPDATE SET client_id = excluded.client_id
RETURNING *;

-- name: ClientOfCustomer :one
SELECT client_id FROM billing_customers WHERE provider = @provider AND customer_id = @customer_id;

-- name: GetSubscription :one
SELECT * FROM subscriptions WHERE client_id = @client_id;

-- name: UpsertSubscription :one
-- Stores the provider's state of a client's subscription unless a newer state is stored.
INSERT INTO subscriptions (client_id, provider, external_id, plan, status, current_period_end, cancel_at_period_end, canceled_at, state_at)
VALUES (@client_id, @provider, @external_id, @plan, @status, @current_period_end, @cancel_at_period_end, @canceled_at, @state_at)
ON CONFLICT (client_id) DO UPDATE
SET provider = excluded.provider, external_id = excluded.external_id, plan = excluded.plan, status = excluded.status,
    current_period_end = excluded.current_period_end, cancel_at_period_end = excluded.cancel_at_period_end,
    canceled_at = excluded.canceled_at, state_at = excluded.state_at, updated_at = now()
WHERE subscriptions.state_at <= excluded.state_at
RETURNING *;

-- name: DeleteSubscription :exec
DELETE FROM subscriptions WHERE client_id = @client_id;

-- name: UpsertInvoice :exec
INSERT INTO invoices (client_id, provider, external_id, number, status, currency, amount_due, amount_paid,
                      period_start, period_end, hosted_url, pdf_url, state_at, created_at)
VALUES (@client_id, @provider, @external_id, @number, @status, @currency, @amount_due, @amount_paid,
        @period_start, @period_end, @hosted_url, @pdf_url, @state_at, @created_at)
ON CONFLICT (provider, external_id) DO UPDATE
SET number = excluded.number, status = excluded.status, currency = excluded.currency,
    amount_due = excluded.amount_due, amount_paid = excluded.amount_paid,
    period_start = excluded.period_start, period_end = excluded.period_end,
    hosted_url = excluded.hosted_url, pdf_url = excluded.pdf_url, state_at = excluded.state_at, updated_at = now()
WHERE invoices.client_id = excluded.client_id AND invoices.state_at <= excluded.state_at;

-- name: ListInvoices :many
SELECT * FROM invoices WHERE client_id = @client_id ORDER BY created_at DESC, id DESC LIMIT @max_rows;

-- name: RecordPaymentEvent :execrows
-- Zero rows when the event was seen before.
INSERT INTO payment_events (provider, event_id, type) VALUES (@provider, @event_id, @type)
ON CONFLICT DO NOTHING;

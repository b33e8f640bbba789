-- +goose Up

-- A client's customer record at the payment provider.
CREATE TABLE billing_customers (
    client_id    bigint      PRIMARY KEY REFERENCES clients (id) ON DELETE CASCADE,
    provider     text        NOT NULL,
    customer_id  text        NOT NULL,
    created_at   timestamptz NOT NULL DEFAULT now(),
    UNIQUE (provider, customer_id)
);

-- A client's paid subscription (at most one). No row means the free plan.
CREATE TABLE subscriptions (
    client_id             bigint      PRIMARY KEY REFERENCES clients (id) ON DELETE CASCADE,
    provider              text        NOT NULL,
    external_id           text        NOT NULL,
    plan                  text        NOT NULL,
    -- The provider's status: incomplete, trialing, active, past_due, canceled, unpaid, …
    status                text        NOT NULL,
    current_period_end    timestamptz,
    cancel_at_period_end  boolean     NOT NULL DEFAULT false,
    canceled_at           timestamptz,
    -- When the provider produced the state stored here; older webhook events are ignored.
    state_at              timestamptz NOT NULL,
    created_at            timestamptz NOT NULL DEFAULT now(),
    updated_at            timestamptz NOT NULL DEFAULT now(),
    UNIQUE (provider, external_id)
);

-- Invoices as the provider's webhooks reported them.
CREATE TABLE invoices (
    id           bigserial   PRIMARY KEY,
    client_id    bigint      NOT NULL REFERENCES clients (id) ON DELETE CASCADE,
    provider     text        NOT NULL,
    external_id  text        NOT NULL,
    number       text        NOT NULL DEFAULT '',
    status       text        NOT NULL,
    currency     text        NOT NULL DEFAULT '',
    amount_due   bigint      NOT NULL DEFAULT 0,
    amount_paid  bigint      NOT NULL DEFAULT 0,
    period_start timestamptz,
    period_end   timestamptz,
    hosted_url   text        NOT NULL DEFAULT '',
    pdf_url      text        NOT NULL DEFAULT '',
    state_at     timestamptz NOT NULL,
    created_at   timestamptz NOT NULL,
    updated_at   timestamptz NOT NULL DEFAULT now(),
    UNIQUE (provider, external_id)
);
CREATE INDEX invoices_client ON invoices (client_id, created_at DESC);

-- Ids of the payment webhook events already applied: a replayed or redelivered event is
-- acknowledged and not applied twice.
CREATE TABLE payment_events (
    provider     text        NOT NULL,
    event_id     text        NOT NULL,
    type         text        NOT NULL,
    received_at  timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (provider, event_id)
);

-- The license of a client on a self-hosted install: a token signed by the licensing
-- server (Ed25519), stored after verification. Only the newest one is kept.
CREATE TABLE licenses (
    client_id    bigint      PRIMARY KEY REFERENCES clients (id) ON DELETE CASCADE,
    license_id   text        NOT NULL,
    token        text        NOT NULL,
    plan         text        NOT NULL,
    limits       jsonb       NOT NULL DEFAULT '{}'::jsonb,
    issued_at    timestamptz NOT NULL,
    expires_at   timestamptz NOT NULL,
    updated_at   timestamptz NOT NULL DEFAULT now()
);

-- +goose Down
DROP TABLE licenses;
DROP TABLE payment_events;
DROP TABLE invoices;
DROP TABLE subscriptions;
DROP TABLE billing_customers;

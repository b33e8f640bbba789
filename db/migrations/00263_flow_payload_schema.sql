-- +goose Up
-- The JSON Schema (draft 2020-12) of the `data` a workflow expects: on the draft, and copied
-- into each version at publish. A send whose data does not match its published version's
-- schema is refused at accept (422). NULL: no schema, any data object is accepted.
ALTER TABLE flows ADD COLUMN payload_schema jsonb;
ALTER TABLE flow_versions ADD COLUMN payload_schema jsonb;

-- +goose Down
ALTER TABLE flow_versions DROP COLUMN payload_schema;
ALTER TABLE flows DROP COLUMN payload_schema;

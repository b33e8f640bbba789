// Retention: how long the app keeps each kind of data, in days (GET/PUT
// /v1/apps/{appId}/retention); admins change them, every problem is shown at its field.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useEffect, useState, type FormEvent } from "react";
import { fieldErrors } from "../../api/client";
import { Button, ErrorState, Field, FormError, Loading, useToast } from "../../ui/kit";
import type { App } from "../queries";
import { keys } from "../../api/keys";
import { settingsApi, useRetention } from "./api";

const kinds: { key: string; label: string; hint: string }[] = [
  { key: "inboxRead", label: "Read inbox items", hint: "in-app notifications the user has read or deleted" },
  { key: "inboxUnread", label: "Unread inbox items", hint: "in-app notifications not read yet" },
  { key: "messageLogs", label: "Message logs", hint: "one row per message per channel (queued messages are kept)" },
  { key: "flowLogs", label: "Workflow logs", hint: "step logs and records of finished workflow runs" },
  { key: "requests", label: "Send requests", hint: "completed or failed send requests with their payloads" },
  { key: "idempotencyKeys", label: "Idempotency keys", hint: "at least 1 day (the 24-hour idempotency window)" },
  { key: "webhookDeliveries", label: "Webhook deliveries", hint: "event webhook deliveries and their attempts (pending ones are kept)" },
];

/** Retention shows and (for admins) edits the app's retention settings. */
export function Retention({ app, mayEdit }: { app: App; mayEdit: boolean }) {
  const qc = useQueryClient();
  const toast = useToast();
  const key = keys.apps.retention(app.id);
  const current = useRetention(app.id!);
  const [form, setForm] = useState<Record<string, string>>({});
  useEffect(() => {
    if (current.data) setForm(Object.fromEntries(kinds.map((k) => [k.key, String((current.data.retention as Record<string, number>)[k.key])])));
  }, [current.data]);
  const save = useMutation({
    mutationFn: (body: Record<string, number | null>) =>
      settingsApi.setRetention(app.id!, body),
    onSuccess: (v) => {
      qc.setQueryData(key, v);
      toast("Retention saved");
    },
  });
  const errs = fieldErrors(save.error, kinds.map((k) => k.key));
  if (current.isPending) return <Loading label="Loading the retention" />;
  if (current.isError) return <ErrorState error={current.error} retry={() => current.refetch()} />;
  const defaults = current.data.defaults as Record<string, number>;
  return (
    <section className="card" aria-labelledby="retention-h">
      <h2 id="retention-h">Data retention</h2>
      <p className="muted">
        Herald deletes each kind of data once it is older than this many days (checked every hour). Leave a field empty to use the
        default.
      </p>
      <form
        noValidate
        aria-label="Data retention"
        onSubmit={(e: FormEvent) => {
          e.preventDefault();
          const body: Record<string, number | null> = {};
          for (const k of kinds) {
            const v = (form[k.key] ?? "").trim();
            body[k.key] = v === "" ? null : Number(v);
          }
          save.mutate(body);
        }}
      >
        <FormError errors={errs[""]} />
        {kinds.map((k) => (
          <Field
            key={k.key}
            label={`${k.label} (days)`}
            name={k.key}
            inputMode="numeric"
            value={form[k.key] ?? ""}
            onChange={(e) => setForm({ ...form, [k.key]: e.target.value })}
            disabled={!mayEdit}
            hint={`${k.hint}; default ${defaults[k.key]} days`}
            errors={errs[k.key]}
          />
        ))}
        {mayEdit && (
          <Button type="submit" busy={save.isPending}>
            Save retention
          </Button>
        )}
      </form>
    </section>
  );
}

// UserData: a user's personal data on the user page: download everything Herald holds about
// them as JSON (a data-subject access request), and delete the user with all their data
// after a confirmation, showing what was erased.
import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { Link } from "react-router-dom";
import type { components } from "../../api/client";
import { Button, FormError } from "../../ui/kit";
import { ConfirmButton } from "../../ui/confirm";
import type { App } from "../queries";
import { keys } from "../../api/keys";
import { usersApi } from "./api";

type Erased = components["schemas"]["ErasureReport"];

const erasedLabels: [keyof Erased, string][] = [
  ["notifications", "inbox items"],
  ["messageLogs", "message log rows"],
  ["preferences", "preferences"],
  ["devices", "devices and browser subscriptions"],
  ["topicSubscriptions", "topic subscriptions"],
  ["flowLogs", "workflow log rows"],
  ["flowRuns", "workflow runs"],
  ["runsCancelled", "running workflow runs cancelled"],
  ["requestsRedacted", "send requests redacted"],
  ["scheduledCancelled", "scheduled sends cancelled"],
  ["othersRedacted", "other users' messages that named them, redacted"],
  ["workflowHistoriesDeleted", "workflow histories deleted"],
];

/** UserData offers the export and the erasure of one user to developers. */
export function UserData({ app, identifier, onErased }: { app: App; identifier: string; onErased: (e: Erased) => void }) {
  const qc = useQueryClient();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const download = async () => {
    setBusy(true);
    setError(null);
    try {
      const out = await usersApi.export(app.id!, identifier);
      const url = URL.createObjectURL(new Blob([JSON.stringify(out, null, 2)], { type: "application/json" }));
      const a = document.createElement("a");
      a.href = url;
      a.download = `${identifier.replace(/[^A-Za-z0-9._-]/g, "_")}-export.json`;
      document.body.appendChild(a);
      a.click();
      a.remove();
      setTimeout(() => URL.revokeObjectURL(url), 1000);
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="card" aria-labelledby="data-h">
      <h2 id="data-h">Personal data</h2>
      <p className="muted">
        Download everything Herald holds about this user as JSON (for a data access request), or delete the user with all their
        data (for a request to be forgotten).
      </p>
      <FormError errors={error ? [error] : undefined} />
      <div className="row">
        <Button variant="secondary" busy={busy} onClick={() => void download()}>
          Download data (JSON)
        </Button>
        <ConfirmButton
          label="Delete user and data"
          title={`Delete ${identifier} and all their data?`}
          action="Delete user and data"
          description={
            <>
              <p>
                This removes the profile, inbox, preferences, devices and topic subscriptions, deletes the user's message and
                workflow logs, takes them out of stored and scheduled sends, cancels their running workflows and deletes the
                workflow histories that carried them. It cannot be undone.
              </p>
              <p>The audit log records the erasure, without the user's identifier.</p>
            </>
          }
          onConfirm={async () => {
            const out = await usersApi.erase(app.id!, identifier);
            // The user's own reads are gone for good (refetching them would answer 404); the
            // lists refetch when they are shown again.
            qc.removeQueries({ queryKey: keys.users.detail(app.id, identifier) });
            await qc.invalidateQueries({ queryKey: keys.users.all(app.id), refetchType: "none" });
            onErased(out.erased!);
          }}
        >
          Delete user and data
        </ConfirmButton>
      </div>
    </section>
  );
}

/** Erased is the summary shown once a user has been erased. */
export function ErasedSummary({ identifier, erased }: { identifier: string; erased: Erased }) {
  return (
    <section className="card" aria-labelledby="erased-h" role="status">
      <h2 id="erased-h">{identifier} was deleted</h2>
      <p className="muted">Everything Herald held about this user is gone. What was erased:</p>
      <ul aria-label="What was erased">
        {erasedLabels.map(([k, label]) => (
          <li key={k}>
            {erased[k] ?? 0} {label}
          </li>
        ))}
      </ul>
      {(erased.workflowHistoriesKept ?? 0) > 0 && (
        <p className="muted small">
          {erased.workflowHistoriesKept} running workflow histories also carry other recipients: they finish, encrypted, and Temporal
          drops them after the namespace's retention period.
        </p>
      )}
      <p>
        <Link to=".." relative="path">
          ← All users
        </Link>
      </p>
    </section>
  );
}

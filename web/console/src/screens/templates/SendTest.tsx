// "Send a test": the saved template sent on one channel to a user of the app found by
// identifier, with the sample data, through the console's test send (POST
// /v1/apps/{appId}/notifications, the body of POST /v3/notifications).
import { useMutation } from "@tanstack/react-query";
import { useEffect, useId, useState, type FormEvent } from "react";
import { Link } from "react-router-dom";
import { useUserSearch } from "../users/api";
import { templatesApi } from "./api";
import { specOf, type Channel } from "../../api/templateForm";
import { Button, Field, FormError } from "../../ui/kit";

export function SendTest({
  appId,
  identifier,
  channel,
  data: sampleData,
  unsaved,
  hasContent,
}: {
  appId: number;
  identifier: string;
  channel: Channel;
  data?: Record<string, unknown>;
  unsaved: boolean;
  hasContent: boolean;
}) {
  const id = useId();
  const [q, setQ] = useState("");
  const [debounced, setDebounced] = useState("");
  const [user, setUser] = useState("");
  useEffect(() => {
    const t = setTimeout(() => setDebounced(q.trim()), 250);
    return () => clearTimeout(t);
  }, [q]);
  const users = useUserSearch(appId, debounced);
  const send = useMutation({
    mutationFn: () =>
      templatesApi.sendTest(appId, {
        notification: { templateIdentifier: identifier },
        sendTo: { recipients: [user] },
        data: sampleData ?? {},
        override: { channels: [channel] },
      }),
  });
  const label = specOf(channel)?.label ?? channel;
  const submit = (e: FormEvent) => {
    e.preventDefault();
    send.mutate();
  };
  const found = users.data?.data ?? [];
  const blocked = unsaved ? "Save first: the test sends the saved content." : !hasContent ? `Save ${label} content first.` : "";
  return (
    <form className="subform" onSubmit={submit} aria-labelledby={`${id}-h`} noValidate>
      <h3 id={`${id}-h`}>Send a test</h3>
      <Field label="Find a user" type="search" value={q} onChange={(e) => setQ(e.target.value)} hint="The start of the user's identifier." autoComplete="off" />
      {users.isError ? (
        <p className="field-error" role="alert">
          {(users.error as Error).message}
        </p>
      ) : debounced && users.isSuccess && found.length === 0 ? (
        <p className="muted">No user matches.</p>
      ) : found.length > 0 ? (
        <fieldset className="user-pick">
          <legend>Recipient</legend>
          {found.map((u) => (
            <label key={u.identifier} className="check-row">
              <input type="radio" name={`${id}-user`} value={u.identifier} checked={user === u.identifier} onChange={() => setUser(u.identifier!)} />
              {u.identifier}
              {typeof u.profile?.["email"] === "string" ? <span className="muted"> · {String(u.profile["email"])}</span> : null}
            </label>
          ))}
        </fieldset>
      ) : null}
      {blocked && <p className="hint">{blocked}</p>}
      <FormError errors={send.isError ? [(send.error as Error).message] : undefined} />
      {send.isSuccess && (
        <p role="status" className="ok-text">
          Sent to {user} by {label}: follow it in <Link to={`/apps/${appId}/logs`}>Message logs</Link>.
        </p>
      )}
      <Button type="submit" variant="secondary" busy={send.isPending} disabled={!user || !!blocked}>
        Send {label} test{user ? ` to ${user}` : ""}
      </Button>
    </form>
  );
}

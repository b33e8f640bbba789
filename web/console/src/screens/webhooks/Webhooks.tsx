// Webhooks: the app's event webhook endpoints (Herald's events posted to the customer's own
// URLs, signed per Standard Webhooks): the list with a notice for endpoints Herald disabled
// after failures, and the form that adds one and shows its signing secret once.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useEffect, useState, type FormEvent } from "react";
import { Link, useOutletContext } from "react-router-dom";
import { fieldErrors } from "../../api/client";
import { keys } from "../../api/keys";
import { Button, Empty, ErrorState, FormError, Loading, useToast } from "../../ui/kit";
import { atLeast, useClients, type App } from "../queries";
import { useEndpoints, webhooksApi } from "./api";
import { bodyOf, emptyDraft, EndpointFields, SecretOnce, when, type EndpointDraft } from "./shared";

/** Webhooks lists the app's endpoints and adds new ones. */
export default function Webhooks() {
  const app = useOutletContext<App>();
  const appId = app.id!;
  const clients = useClients();
  const dev = atLeast(clients.data?.find((c) => c.id === app.clientId)?.role, "developer");
  useEffect(() => {
    document.title = `Webhooks · ${app.name} · Herald`;
  }, [app.name]);
  const list = useEndpoints(appId);
  const failed = (list.data ?? []).filter((e) => e.disabledReason === "failures");

  return (
    <>
      <h1>Webhooks</h1>
      <p className="muted">
        Herald posts its events (messages sent, bounced or opened, inbox items read, workflow runs finished, preferences changed) to your
        endpoints, signed so you can verify them with any Standard Webhooks library.
      </p>
      {failed.length > 0 && (
        <div className="notice" role="alert">
          {failed.map((e) => (
            <p key={e.id}>
              <strong>
                <Link to={String(e.id)}>{e.url}</Link> was disabled
              </strong>{" "}
              {when(e.disabledAt)} after {e.consecutiveFailures} failed attempts in a row. Fix the endpoint, then enable it again; events of
              the time it was disabled are not sent.
            </p>
          ))}
        </div>
      )}
      {dev && <CreateEndpoint appId={appId} />}
      {list.isPending ? (
        <Loading label="Loading the endpoints" />
      ) : list.isError ? (
        <ErrorState error={list.error} retry={() => list.refetch()} />
      ) : list.data.length === 0 ? (
        <Empty title="No endpoints yet">
          <p className="muted">{dev ? "Add one above." : "A developer of this team can add one."}</p>
        </Empty>
      ) : (
        <section className="card" aria-labelledby="endpoints-h">
          <h2 id="endpoints-h">Endpoints</h2>
          <table className="table">
            <thead>
              <tr>
                <th scope="col">URL</th>
                <th scope="col">Events</th>
                <th scope="col">Status</th>
                <th scope="col">Created</th>
              </tr>
            </thead>
            <tbody>
              {list.data.map((e) => (
                <tr key={e.id}>
                  <td>
                    <Link to={String(e.id)}>{e.url}</Link>
                    {e.description && <div className="small muted">{e.description}</div>}
                  </td>
                  <td>{e.eventTypes.length === 1 ? <code>{e.eventTypes[0]}</code> : `${e.eventTypes.length} events`}</td>
                  <td>
                    {e.enabled ? (
                      <span className="badge badge-ok">Enabled</span>
                    ) : (
                      <span className="badge badge-failed">{e.disabledReason === "failures" ? "Disabled after failures" : "Disabled"}</span>
                    )}
                    {e.ordered && <span className="small muted"> · in order</span>}
                  </td>
                  <td>{when(e.createdAt)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      )}
    </>
  );
}

function CreateEndpoint({ appId }: { appId: number }) {
  const qc = useQueryClient();
  const toast = useToast();
  const [draft, setDraft] = useState<EndpointDraft>(emptyDraft);
  const [secret, setSecret] = useState<string | null>(null);
  const m = useMutation({
    mutationFn: () => webhooksApi.create(appId, bodyOf(draft)),
    onSuccess: (e) => {
      qc.invalidateQueries({ queryKey: keys.webhooks.all(appId) });
      toast(`Endpoint ${e.url} added`);
      setSecret(e.secret);
      setDraft(emptyDraft);
    },
  });
  const errs = m.isError ? fieldErrors(m.error, ["url", "description", "eventTypes", "filter.categories", "filter.workflows", "filter.channels"]) : {};
  return (
    <section className="card" aria-labelledby="new-endpoint-h">
      <h2 id="new-endpoint-h">New endpoint</h2>
      {secret ? (
        <SecretOnce secret={secret} onDone={() => setSecret(null)} />
      ) : (
        <form
          noValidate
          onSubmit={(e: FormEvent) => {
            e.preventDefault();
            m.mutate();
          }}
        >
          <FormError errors={errs[""]} />
          <EndpointFields draft={draft} set={setDraft} errs={errs} />
          <Button type="submit" busy={m.isPending}>
            Add endpoint
          </Button>
        </form>
      )}
    </section>
  );
}

// Workflows: the app's workflows (drafts and published versions), a form to create one, and
// per workflow the actions that rename, duplicate, archive and delete it.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { Link, useNavigate, useOutletContext } from "react-router-dom";
import { fieldErrors } from "../../api/client";
import { Checkbox } from "../../ui/confirm";
import { Button, Empty, ErrorState, Field, FormError, Loading } from "../../ui/kit";
import { atLeast, useClients, type App } from "../queries";
import { WorkflowActions } from "./Manage";
import { keys } from "../../api/keys";
import { useWorkflows, workflowsApi } from "./api";

/** WorkflowList lists the app's workflows. */
export default function WorkflowList() {
  const app = useOutletContext<App>();
  useEffect(() => {
    document.title = `Workflows · ${app.name} · Herald`;
  }, [app.name]);
  const clients = useClients();
  const canEdit = atLeast(clients.data?.find((c) => c.id === app.clientId)?.role, "developer");
  // Archived workflows are hidden unless asked for.
  const [archived, setArchived] = useState(false);
  const flows = useWorkflows(app.id!, archived);
  return (
    <>
      <h1>Workflows</h1>
      <p className="muted">A workflow is a graph of steps a send runs once per recipient: channels, delays, digests, branches, waits for a read, fetches and throttles.</p>
      {canEdit && <CreateWorkflow appId={app.id!} />}
      <label className="check-row">
        <Checkbox checked={archived} onChange={setArchived} /> Show archived workflows
      </label>
      {flows.isPending ? (
        <Loading label="Loading the workflows" />
      ) : flows.isError ? (
        <ErrorState error={flows.error} retry={() => flows.refetch()} />
      ) : flows.data.length === 0 ? (
        <Empty title="No workflows yet">
          <p className="muted">Create one above, then design its steps; a send names it with notification.workflow.identifier.</p>
        </Empty>
      ) : (
        <section className="card" aria-label="Workflows">
          <table className="table">
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Identifier</th>
                <th scope="col">Steps</th>
                <th scope="col">Published</th>
                <th scope="col">Updated</th>
                {canEdit && (
                  <th scope="col">
                    <span className="sr-only">Actions</span>
                  </th>
                )}
              </tr>
            </thead>
            <tbody>
              {flows.data.map((f) => (
                <tr key={f.id}>
                  <td>
                    <Link to={encodeURIComponent(f.identifier!)}>{f.name}</Link>
                  </td>
                  <td className="identifier">
                    <code>{f.identifier}</code>
                  </td>
                  <td>{(f.definition as { steps?: unknown[] } | undefined)?.steps?.length ?? 0}</td>
                  <td>
                    {f.publishedVersion ? <span className="badge badge-ok">v{f.publishedVersion}</span> : <span className="badge">draft only</span>}
                    {f.archivedAt && <span className="badge"> archived</span>}
                  </td>
                  <td>{f.updatedAt ? new Date(f.updatedAt).toLocaleString() : ""}</td>
                  {canEdit && (
                    <td className="actions">
                      <WorkflowActions appId={app.id!} flow={{ identifier: f.identifier!, name: f.name!, archivedAt: f.archivedAt, critical: f.critical }} from="list" />
                    </td>
                  )}
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      )}
    </>
  );
}

function CreateWorkflow({ appId }: { appId: number }) {
  const qc = useQueryClient();
  const navigate = useNavigate();
  const [identifier, setIdentifier] = useState("");
  const [name, setName] = useState("");
  const create = useMutation({
    mutationFn: () =>
      // A new workflow starts with one in-app step; the designer takes it from there.
      workflowsApi.create(appId, {
        identifier: identifier.trim(),
        name: name.trim(),
        definition: { steps: [{ id: "inApp-1", type: "inApp", content: { title: name.trim() || "Hello" } }] } as never,
      }),
    onSuccess: (f) => {
      qc.invalidateQueries({ queryKey: keys.workflows.all(appId) });
      navigate(encodeURIComponent(f.identifier!));
    },
  });
  const errs = fieldErrors(create.error, ["identifier", "name", "definition"]);
  return (
    <form
      className="card inline-form"
      aria-label="New workflow"
      onSubmit={(e) => {
        e.preventDefault();
        create.mutate();
      }}
    >
      <Field label="Name" value={name} onChange={(e) => setName(e.target.value)} required errors={errs.name} />
      <Field label="Identifier" value={identifier} onChange={(e) => setIdentifier(e.target.value)} required errors={errs.identifier} hint="what sends name: letters, digits, _ . -" />
      <Button type="submit" busy={create.isPending}>
        Create workflow
      </Button>
      <FormError errors={[...(errs[""] ?? []), ...(errs.definition ?? [])]} />
    </form>
  );
}

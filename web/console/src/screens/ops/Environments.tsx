// Environments: what changed in this app since its last commit, as a readable diff
// (templates, workflows, layouts, translations, categories, provider instances without
// their secrets, routes); commit it with a message; publish a commit to another app of
// the team (development → production) after a preview of what it changes there; the
// history of commits and where each went; roll back by publishing an older commit here.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useEffect, type FormEvent } from "react";
import { useOutletContext } from "react-router-dom";
import { fieldErrors } from "../../api/client";
import { keys } from "../../api/keys";
import { Button, Empty, ErrorState, Field, FormError, Loading, useToast } from "../../ui/kit";
import { useApps, useClients, atLeast, type App } from "../queries";
import { Diff } from "./Diff";
import { Publish } from "./Publish";
import { opsApi, useCommits, useUncommitted } from "./api";

const when = (s?: string | null) => (s ? new Date(s).toLocaleString() : "—");
export default function Environments() {
  const app = useOutletContext<App>();
  const appId = app.id!;
  useEffect(() => {
    document.title = `Environments · ${app.name} · Herald`;
  }, [app.name]);
  const clients = useClients();
  const role = clients.data?.find((c) => c.id === app.clientId)?.role;
  return (
    <>
      <h1>Environments</h1>
      <p className="muted">
        Commit what changed in <strong>{app.name}</strong>, then publish the commit to another app of the team, such as production. Publishing an
        older commit to an app rolls it back.
      </p>
      <Uncommitted appId={appId} canCommit={atLeast(role, "developer")} />
      <History app={app} canPublish={atLeast(role, "admin")} />
    </>
  );
}

function Uncommitted({ appId, canCommit }: { appId: number; canCommit: boolean }) {
  const qc = useQueryClient();
  const toast = useToast();
  const changes = useUncommitted(appId);
  const commit = useMutation({
    mutationFn: (message: string) => opsApi.commit(appId, message),
    onSuccess: (c) => {
      toast(`Committed #${c.id}`);
      qc.invalidateQueries({ queryKey: keys.ops.uncommitted(appId) });
      qc.invalidateQueries({ queryKey: keys.ops.commits(appId) });
    },
  });
  const fe = fieldErrors(commit.error, ["message"]);
  const rows = changes.data?.data ?? [];
  const total = changes.data?.pagination?.totalCount ?? 0;
  return (
    <section className="card" aria-labelledby="unc-h">
      <h2 id="unc-h">Uncommitted changes</h2>
      {changes.isPending ? (
        <Loading label="Loading the changes" />
      ) : changes.isError ? (
        <ErrorState error={changes.error} retry={() => changes.refetch()} />
      ) : rows.length === 0 ? (
        <Empty title="Nothing to commit">
          <p className="muted">Templates, workflows, layouts, translations, categories, providers and routes match the last commit.</p>
        </Empty>
      ) : (
        <>
          <p className="small muted">
            {total} {total === 1 ? "change" : "changes"} since {changes.data.headCommitId ? `commit #${changes.data.headCommitId}` : "the app was created"}
            {total > rows.length ? ` (the first ${rows.length} shown)` : ""}
          </p>
          <Diff changes={rows} label="Uncommitted changes" />
          {canCommit ? (
            <form
              aria-label="Commit the changes"
              className="inline-form"
              onSubmit={(e: FormEvent<HTMLFormElement>) => {
                e.preventDefault();
                commit.mutate(String(new FormData(e.currentTarget).get("message") ?? ""));
                e.currentTarget.reset();
              }}
            >
              <Field label="Commit message" name="message" errors={fe.message} maxLength={500} placeholder="What changed and why" autoComplete="off" />
              <FormError errors={fe[""]} />
              <Button type="submit" busy={commit.isPending}>
                Commit
              </Button>
            </form>
          ) : (
            <p className="muted small">Developers and admins of the team commit changes.</p>
          )}
        </>
      )}
    </section>
  );
}

function History({ app, canPublish }: { app: App; canPublish: boolean }) {
  const appId = app.id!;
  const commits = useCommits(appId);
  const apps = useApps(app.clientId);
  const rows = commits.data?.data ?? [];
  // What each app runs: the commit last published to it (a later publication wins).
  const current = new Map<number, { id: number; at: string }>();
  for (const c of rows)
    for (const p of c.publications ?? []) {
      const had = current.get(p.appId!);
      if (!had || (p.publishedAt ?? "") > had.at) current.set(p.appId!, { id: c.id!, at: p.publishedAt ?? "" });
    }
  // Other apps first (publishing), then this app (rolling it back).
  const targets = [...(apps.data ?? []).filter((a) => a.id !== appId), app];
  return (
    <section className="card" aria-labelledby="hist-h">
      <h2 id="hist-h">History</h2>
      {commits.isPending ? (
        <Loading label="Loading the commits" />
      ) : commits.isError ? (
        <ErrorState error={commits.error} retry={() => commits.refetch()} />
      ) : rows.length === 0 ? (
        <Empty title="No commits yet">
          <p className="muted">Commit the uncommitted changes above; a commit can then be published to another app.</p>
        </Empty>
      ) : (
        <ol className="list" aria-label="Commits">
          {rows.map((c) => (
            <li key={c.id} aria-label={`Commit #${c.id}: ${c.message}`}>
              <div className="row" style={{ justifyContent: "space-between" }}>
                <div>
                  <strong>#{c.id}</strong> {c.message}
                  <div className="small muted">
                    {when(c.createdAt)} by {c.createdByEmail || "someone"} · {c.changes?.length ?? 0} change(s)
                    {c.publications?.length
                      ? ` · published to ${c.publications.map((p) => `${p.appName} (${when(p.publishedAt)})`).join(", ")}`
                      : ""}
                  </div>
                  {[...current].filter(([, v]) => v.id === c.id).length > 0 && (
                    <div className="small">
                      Running in{" "}
                      {[...current]
                        .filter(([, v]) => v.id === c.id)
                        .map(([id]) => targets.find((a) => a.id === id)?.name ?? `app ${id}`)
                        .join(", ")}
                    </div>
                  )}
                </div>
                {canPublish && <Publish app={app} commit={c} targets={targets} current={current} />}
              </div>
              <details>
                <summary className="small">What commit #{c.id} contains</summary>
                <Diff changes={c.changes ?? []} label={`Changes of commit #${c.id}`} />
              </details>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}

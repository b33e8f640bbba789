// Environments: what changed in this app since its last commit, as a readable diff
// (templates, workflows, layouts, translations, categories, provider instances without
// their secrets, routes); commit it with a message; publish a commit to another app of
// the team (development → production) after a preview of what it changes there; the
// history of commits and where each went; roll back by publishing an older commit here.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useId, useState, type FormEvent } from "react";
import { useOutletContext } from "react-router-dom";
import { api, data, fieldErrors, type components } from "../../api/client";
import { Button, Empty, ErrorState, Field, FormError, Loading, useToast } from "../../ui/kit";
import { useApps, useClients, atLeast, type App } from "../queries";
import { Confirm } from "../../ui/confirm";

type Change = components["schemas"]["Change"];
type Commit = components["schemas"]["Commit"];
const when = (s?: string | null) => (s ? new Date(s).toLocaleString() : "—");
const typeName: Record<NonNullable<Change["type"]>, string> = {
  template: "Templates",
  workflow: "Workflows",
  layout: "Layouts",
  translation: "Translations",
  category: "Categories",
  providerInstance: "Provider instances (secrets excluded)",
  route: "Routes",
};
const mark = { created: "+", updated: "~", deleted: "−" } as const;

/** Diff lists changes grouped by kind, each line marked added, changed or removed. */
export function Diff({ changes, label }: { changes: Change[]; label: string }) {
  const groups = new Map<string, Change[]>();
  for (const c of changes) groups.set(c.type ?? "", [...(groups.get(c.type ?? "") ?? []), c]);
  return (
    <div className="diff" aria-label={label} role="group">
      {[...groups].map(([type, cs]) => (
        <section key={type} aria-label={typeName[type as keyof typeof typeName] ?? type}>
          <h3 className="small">{typeName[type as keyof typeof typeName] ?? type}</h3>
          <ul className="diff-lines">
            {cs.map((c) => (
              <li key={`${c.type}/${c.key}`} className={`diff-${c.action}`}>
                <span aria-hidden="true" className="diff-mark">
                  {mark[c.action ?? "updated"]}
                </span>
                <code>{c.key}</code> <span className="muted small">{c.action}</span>
              </li>
            ))}
          </ul>
        </section>
      ))}
    </div>
  );
}

/** Environments is the commit and publish screen of an app. */
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
  const changes = useQuery({
    queryKey: ["apps", appId, "uncommitted"],
    queryFn: () => data(api.GET("/v1/apps/{appId}/uncommited-changes", { params: { path: { appId }, query: { limit: 100 } } })),
  });
  const commit = useMutation({
    mutationFn: (message: string) => data(api.POST("/v1/apps/{appId}/commits", { params: { path: { appId } }, body: { message } })),
    onSuccess: (c) => {
      toast(`Committed #${c.id}`);
      qc.invalidateQueries({ queryKey: ["apps", appId, "uncommitted"] });
      qc.invalidateQueries({ queryKey: ["apps", appId, "commits"] });
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
  const commits = useQuery({
    queryKey: ["apps", appId, "commits"],
    queryFn: () => data(api.GET("/v1/apps/{appId}/commits", { params: { path: { appId }, query: { limit: 50 } } })),
  });
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

function Publish({ app, commit, targets, current }: { app: App; commit: Commit; targets: App[]; current: Map<number, { id: number }> }) {
  const qc = useQueryClient();
  const toast = useToast();
  // The first other app until the user picks one (the apps load after the commits).
  const [picked, setTarget] = useState<number>();
  const target = picked ?? targets[0]?.id;
  const [warnings, setWarnings] = useState<string[]>([]);
  const [open, setOpen] = useState(false);
  const selId = useId();
  const preview = useQuery({
    queryKey: ["apps", app.id, "publish-preview", commit.id, target],
    queryFn: () =>
      data(api.POST("/v1/apps/{appId}/publish/preview", { params: { path: { appId: app.id! } }, body: { commitId: commit.id!, publishTo: target ?? 0 } })),
    enabled: open && target !== undefined,
    staleTime: 0,
  });
  const targetName = targets.find((a) => a.id === target)?.name ?? "";
  const running = target !== undefined ? current.get(target)?.id : undefined;
  const rollback = running !== undefined && running > commit.id!;
  const pub = useMutation({
    mutationFn: () =>
      data(api.POST("/v1/apps/{appId}/publish", { params: { path: { appId: app.id! } }, body: { commitId: commit.id!, publishTo: target ?? 0 } })),
    onSuccess: (r) => {
      setWarnings(r.warnings ?? []);
      toast(rollback ? `Rolled ${targetName} back to #${commit.id}` : `Published #${commit.id} to ${targetName}`);
      qc.invalidateQueries({ queryKey: ["apps"] });
    },
  });
  const fe = fieldErrors(pub.error, ["publishTo", "commitId"]);
  return (
    <>
      <Confirm
        trigger="Publish…"
        triggerLabel={`Publish commit #${commit.id}`}
        title={`Publish commit #${commit.id}`}
        confirm={rollback ? `Roll ${targetName} back` : `Publish to ${targetName || "…"}`}
        variant="primary"
        dismiss="Not now"
        busy={pub.isPending}
        error={[...(fe[""] ?? []), ...(fe.commitId ?? [])]}
        onOpenChange={(o) => (setOpen(o), pub.reset())}
        onConfirm={() => pub.mutateAsync()}
      >
        <div className="field">
          <label htmlFor={selId}>Publish to</label>
          <select id={selId} value={target ?? ""} onChange={(e) => setTarget(Number(e.target.value))} aria-invalid={fe.publishTo ? true : undefined}>
            {targets.map((a) => (
              <option key={a.id} value={a.id}>
                {a.id === app.id ? `${a.name} (this app)` : a.name}
              </option>
            ))}
          </select>
          {fe.publishTo && (
            <p className="field-error" role="alert">
              {fe.publishTo.join(". ")}
            </p>
          )}
        </div>
        <p>
          {rollback
            ? `${targetName} runs commit #${running}: publishing #${commit.id} “${commit.message}” rolls it back.`
            : `${targetName} will match commit #${commit.id} “${commit.message}”${running !== undefined ? ` (it runs #${running} now)` : ""}.`}{" "}
          What changes there:
        </p>
        {preview.isPending ? (
          <Loading label="Comparing with the target" />
        ) : preview.isError ? (
          <ErrorState error={preview.error} retry={() => preview.refetch()} />
        ) : preview.data.changes.length === 0 ? (
          <p role="status">Nothing: {targetName} already matches this commit.</p>
        ) : (
          <Diff changes={preview.data.changes} label="What publishing changes" />
        )}
        <p className="small">Provider instances keep the target's own secrets; an instance new to it waits for its secrets.</p>
      </Confirm>
      {warnings.length > 0 && (
        <div className="notice small" role="status">
          {warnings.join(" ")}
        </div>
      )}
    </>
  );
}

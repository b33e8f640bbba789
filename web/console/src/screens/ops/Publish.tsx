// Publish: publish a commit to another app of the team (development → production) after a
// preview of what it changes there, or roll an app back to an older commit.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useId, useState } from "react";
import { fieldErrors, type components } from "../../api/client";
import { keys } from "../../api/keys";
import { ErrorState, Loading, useToast } from "../../ui/kit";
import type { App } from "../queries";
import { Confirm } from "../../ui/confirm";
import { opsApi, usePublishPreview } from "./api";
import { Diff } from "./Diff";

type Commit = components["schemas"]["Commit"];

/** Publish publishes one commit to an app of the team chosen from targets. */
export function Publish({ app, commit, targets, current }: { app: App; commit: Commit; targets: App[]; current: Map<number, { id: number }> }) {
  const qc = useQueryClient();
  const toast = useToast();
  // The first other app until the user picks one (the apps load after the commits).
  const [picked, setTarget] = useState<number>();
  const target = picked ?? targets[0]?.id;
  const [warnings, setWarnings] = useState<string[]>([]);
  const [open, setOpen] = useState(false);
  const selId = useId();
  const preview = usePublishPreview(app.id!, commit.id!, target, open && target !== undefined);
  const targetName = targets.find((a) => a.id === target)?.name ?? "";
  const running = target !== undefined ? current.get(target)?.id : undefined;
  const rollback = running !== undefined && running > commit.id!;
  const pub = useMutation({
    mutationFn: () => opsApi.publish(app.id!, commit.id!, target ?? 0),
    onSuccess: (r) => {
      setWarnings(r.warnings ?? []);
      toast(rollback ? `Rolled ${targetName} back to #${commit.id}` : `Published #${commit.id} to ${targetName}`);
      qc.invalidateQueries({ queryKey: keys.apps.all() });
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

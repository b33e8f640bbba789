// WorkflowSwitches: a user's switch for each published workflow; a critical workflow's is
// locked, with the server's reason.
import { keys } from "../../api/keys";
import { Checkbox } from "../../ui/confirm";
import { ErrorState, FormError, Loading } from "../../ui/kit";
import { preferencesApi, useWorkflowSwitches } from "./api";
import { errorList } from "./errors";
import { flowNote, withFlow, type FlowPrefs } from "./logic";
import { useOptimisticSwitch } from "./optimistic";

type Flip = { identifier: string; name: string; enabled: boolean };

export function WorkflowSwitches({ appId, identifier, dev }: { appId: number; identifier: string; dev: boolean }) {
  const path = { appId, identifier };
  const key = keys.preferences.workflows(appId, identifier);
  const flows = useWorkflowSwitches(appId, identifier);
  const { toggle, mutation } = useOptimisticSwitch<FlowPrefs, Flip>(
    key,
    (v) => preferencesApi.setWorkflow(path, v.identifier, v.enabled),
    (cached, v) => withFlow(cached, v.identifier, v.enabled),
    (v) => `${v.name}: ${v.enabled ? "on" : "off"}`,
  );
  return (
    <section className="card" aria-labelledby="pref-flows-h">
      <h3 id="pref-flows-h">Workflows</h3>
      <FormError errors={errorList(mutation.error)} />
      {flows.isPending ? (
        <Loading label="Loading the workflow switches" />
      ) : flows.isError ? (
        <ErrorState error={flows.error} retry={() => flows.refetch()} />
      ) : flows.data.length === 0 ? (
        <p className="muted">No published workflows: a workflow gets a switch here once it is published.</p>
      ) : (
        <ul className="switch-list" aria-label="Workflows">
          {flows.data.map((f) => {
            const id = f.workflow.identifier;
            const name = f.workflow.name || id;
            const reasonId = `flow-locked-${id}`;
            const note = flowNote(f.channels as Record<string, boolean | undefined>);
            return (
              <li key={id}>
                <label>
                  <Checkbox
                    role="switch"
                    checked={f.critical ? true : f.enabled}
                    disabled={!dev || f.critical}
                    aria-describedby={f.critical ? reasonId : undefined}
                    aria-busy={(mutation.isPending && mutation.variables?.identifier === id) || undefined}
                    onChange={(on) => toggle({ identifier: id, name, enabled: on })}
                  />{" "}
                  {name}
                </label>{" "}
                <code className="small">{id}</code>
                {f.critical && (
                  <div className="muted small" id={reasonId}>
                    <span className="badge">Critical</span> {f.lockedReason || "Critical notifications ignore opt-outs."}
                  </div>
                )}
                {note && <div className="muted small">{note}</div>}
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}

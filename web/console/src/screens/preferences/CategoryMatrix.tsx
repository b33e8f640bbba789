// CategoryMatrix: a user's category × channel switches; a critical category's switches are
// locked (disabled, with the server's reason shown and read as their description).
import { keys } from "../../api/keys";
import { Checkbox } from "../../ui/confirm";
import { ErrorState, FormError, Loading } from "../../ui/kit";
import { preferencesApi, useMatrix } from "./api";
import { errorList } from "./errors";
import { channelName, matrixChannels, withCell, type Channel, type Prefs } from "./logic";
import { useOptimisticSwitch } from "./optimistic";

type Cell = { categoryId: number; channel: Channel; enabled: boolean };

export function CategoryMatrix({ appId, identifier, dev }: { appId: number; identifier: string; dev: boolean }) {
  const path = { appId, identifier };
  const key = keys.preferences.all(appId, identifier);
  const prefs = useMatrix(appId, identifier);
  const { toggle, mutation: set } = useOptimisticSwitch<Prefs, Cell>(
    key,
    (v) => preferencesApi.setCell(path, v.categoryId, v.channel, v.enabled),
    (cached, v) => withCell(cached, v.categoryId, v.channel, v.enabled),
    (v) => `${v.enabled ? "On" : "Off"}: ${channelName(v.channel)}`,
  );
  const channels = matrixChannels(prefs.data);
  return (
    <section className="card" aria-labelledby="pref-cats-h">
      <h3 id="pref-cats-h">Categories</h3>
      <FormError errors={errorList(set.error)} />
      {prefs.isPending ? (
        <Loading label="Loading the preferences" />
      ) : prefs.isError ? (
        <ErrorState error={prefs.error} retry={() => prefs.refetch()} />
      ) : channels.length === 0 ? (
        <p className="muted">No preferences are recorded for this user.</p>
      ) : (
        <div className="table-scroll">
          <table className="table matrix" aria-label="Preferences by category and channel">
            <thead>
              <tr>
                <th scope="col">Category</th>
                {channels.map((c) => (
                  <th scope="col" key={c}>
                    {channelName(c)}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {prefs.data!.map((r) => {
                const name = r.category ? r.category.name || r.category.identifier! : "Without a category";
                const locked = !!r.critical;
                const reasonId = `locked-${r.category?.id ?? "none"}`;
                return (
                  <tr key={r.category?.id ?? "none"}>
                    <th scope="row">
                      {name}
                      {locked && (
                        <div className="muted small" id={reasonId}>
                          <span className="badge">Critical</span> {r.lockedReason || "Critical notifications ignore opt-outs."}
                        </div>
                      )}
                    </th>
                    {channels.map((c) => {
                      const p = r.channelPreferences?.find((x) => x.channel === c);
                      if (p === undefined) return <td key={c}>—</td>;
                      const busy = set.isPending && set.variables?.categoryId === r.category?.id && set.variables?.channel === c;
                      return (
                        <td key={c}>
                          <Checkbox
                            aria-label={`${name} on ${channelName(c)}`}
                            aria-describedby={locked ? reasonId : undefined}
                            checked={locked ? true : (p.enabled ?? true)}
                            disabled={!dev || !r.category || locked}
                            aria-busy={busy || undefined}
                            title={!r.category ? "Notifications without a category follow the user's channel settings in the inbox widget" : undefined}
                            onChange={(on) => toggle({ categoryId: r.category!.id!, channel: c as Channel, enabled: on })}
                          />
                        </td>
                      );
                    })}
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

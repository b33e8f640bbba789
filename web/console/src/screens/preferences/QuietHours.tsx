// QuietHours: a user's quiet hours and time zone. Non-critical messages on external
// channels that fall inside them are held and sent when they end (docs/preferences.md).
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useEffect, useState, type FormEvent } from "react";
import { keys } from "../../api/keys";
import { ErrorState, FormError, Loading } from "../../ui/kit";
import { preferencesApi, useQuietHours, type QuietHoursBody } from "./api";
import { errorList } from "./errors";

const days = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"] as const;
type Day = (typeof days)[number];
const dayName = (d: Day) => d.charAt(0).toUpperCase() + d.slice(1);

export function QuietHours({ appId, identifier, dev }: { appId: number; identifier: string; dev: boolean }) {
  const path = { appId, identifier };
  const key = keys.preferences.quietHours(appId, identifier);
  const qc = useQueryClient();
  const q = useQuietHours(appId, identifier);
  const [start, setStart] = useState("");
  const [end, setEnd] = useState("");
  const [chosen, setChosen] = useState<Day[]>([]);
  const [zone, setZone] = useState("");
  useEffect(() => {
    if (!q.data) return;
    setStart(q.data.start ?? "");
    setEnd(q.data.end ?? "");
    setChosen(q.data.days as Day[]);
    setZone(q.data.timezone);
  }, [q.data]);
  const save = useMutation({
    mutationFn: (body: QuietHoursBody) => preferencesApi.setQuietHours(path, body),
    onSuccess: (v) => qc.setQueryData(key, v),
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    save.mutate({ start: start || undefined, end: end || undefined, days: chosen, timezone: zone || undefined });
  };
  const status = q.data?.enabled
    ? `Quiet ${q.data.start ? `${q.data.start}–${q.data.end}` : ""}${q.data.start && q.data.days.length ? ", " : ""}${q.data.days.map((d) => dayName(d as Day)).join(", ")} (${q.data.timezone})`
    : "No quiet hours";
  return (
    <section className="card" aria-labelledby="pref-quiet-h">
      <h3 id="pref-quiet-h">Quiet hours</h3>
      <p className="muted small">
        During quiet hours, email, SMS, push and chat messages wait and are sent when they end; in-app notifications
        arrive at once. Critical notifications are never held.
      </p>
      {q.isPending ? (
        <Loading label="Loading the quiet hours" />
      ) : q.isError ? (
        <ErrorState error={q.error} retry={() => q.refetch()} />
      ) : (
        <form onSubmit={submit} aria-label="Quiet hours">
          <p role="status">{status}</p>
          <FormError errors={errorList(save.error)} />
          <p>
          <label>
            From{" "}
            <input type="time" step={1} value={start} disabled={!dev} onChange={(e) => setStart(e.target.value)} />
          </label>{" "}
          <label>
            Until{" "}
            <input type="time" step={1} value={end} disabled={!dev} onChange={(e) => setEnd(e.target.value)} />
          </label>
          </p>
          <fieldset disabled={!dev}>
            <legend>Quiet all day on</legend>
            <ul className="switch-list">
              {days.map((d) => (
                <li key={d}>
                  <label>
                    <input
                      type="checkbox"
                      checked={chosen.includes(d)}
                      onChange={(e) => setChosen(e.target.checked ? [...chosen, d] : chosen.filter((x) => x !== d))}
                    />{" "}
                    {dayName(d)}
                  </label>
                </li>
              ))}
            </ul>
          </fieldset>
          <p>
            <label>
              Time zone (IANA){" "}
              <input value={zone} disabled={!dev} placeholder="Europe/Paris" onChange={(e) => setZone(e.target.value)} />
            </label>
          </p>
          {dev && (
            <>
              <button type="submit" className="btn btn-primary" disabled={save.isPending}>
                Save quiet hours
              </button>{" "}
              {q.data?.enabled && (
                <button type="button" className="btn btn-secondary" disabled={save.isPending} onClick={() => save.mutate({ enabled: false })}>
                  Remove quiet hours
                </button>
              )}
            </>
          )}
        </form>
      )}
    </section>
  );
}

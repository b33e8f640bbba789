// The preference settings beside the category switches (usePreferences): the workflows'
// switches, the channels as a whole, the quiet hours and the time zone, through the /v3
// routes of the headless client. Every setter is optimistic and rolls back when Herald
// refuses (the promise then rejects with Herald's error, whose message lists the problems).
import { useCallback, useState } from "react";
import type { Channel, ChannelSwitches, FlowPreference, HeraldClient, QuietHours, QuietHoursUpdate } from "@heraldhq/inbox/client";

/** What usePreferences adds for workflows, channels, quiet hours and the time zone. */
export interface PreferenceSettings {
  /** Per published workflow: its switch, its channel switches, whether it is critical (locked, with lockedReason). */
  workflows: FlowPreference[] | undefined;
  /** Each channel as a whole ("no SMS, ever"). */
  channels: ChannelSwitches | undefined;
  /** The quiet hours, with the user's time zone (UTC when unset). */
  quietHours: QuietHours | undefined;
  /** Turns a workflow, or some of its channels, on or off. */
  setWorkflow(identifier: string, change: { enabled?: boolean; channels?: Partial<Record<Channel, boolean>> }): Promise<void>;
  /** Turns a channel on or off for every notification (critical ones still arrive). */
  setChannel(channel: Channel, enabled: boolean): Promise<void>;
  /** Replaces the quiet hours ({ enabled: false } removes them). */
  setQuietHours(update: QuietHoursUpdate): Promise<void>;
  /** Sets the user's time zone (an IANA name, e.g. Europe/Paris). */
  setTimezone(timezone: string): Promise<void>;
}

/** useSettings holds the settings of one client; load reads them (a failure leaves them unset). */
export function useSettings(client: HeraldClient | null | undefined): PreferenceSettings & { load(): Promise<void> } {
  const [workflows, setWorkflows] = useState<FlowPreference[] | undefined>(undefined);
  const [channels, setChannels] = useState<ChannelSwitches | undefined>(undefined);
  const [quietHours, setQuiet] = useState<QuietHours | undefined>(undefined);

  const load = useCallback(async () => {
    if (!client) return;
    // Older Herald versions lack these routes: the category switches still work.
    const get = <T>(path: string) => client.request<T>("GET", path).catch(() => undefined);
    const [w, c, q] = await Promise.all([
      get<FlowPreference[]>("/preferences/workflows"),
      get<ChannelSwitches>("/preferences/channels"),
      get<QuietHours>("/preferences/quiet-hours"),
    ]);
    setWorkflows(w);
    setChannels(c);
    setQuiet(q);
  }, [client]);

  /** optimistic applies next at once, calls Herald, and restores before on a refusal. */
  const optimistic = useCallback(
    async <T>(set: (f: (v: T | undefined) => T | undefined) => void, next: (v: T | undefined) => T | undefined, call: (c: HeraldClient) => Promise<T | void>) => {
      if (!client) throw new Error("herald: the inbox is not connected");
      let before: T | undefined;
      set((v) => ((before = v), next(v)));
      try {
        const stored = await call(client);
        if (stored !== undefined) set(() => stored);
      } catch (e) {
        set(() => before);
        throw e;
      }
    },
    [client],
  );

  const setWorkflow = useCallback<PreferenceSettings["setWorkflow"]>(
    (identifier, change) =>
      optimistic<FlowPreference[]>(
        setWorkflows,
        (ws) => ws?.map((w) => (w.workflow.identifier !== identifier ? w : { ...w, enabled: change.enabled ?? w.enabled, channels: { ...w.channels, ...change.channels } })),
        (c) => c.request<FlowPreference[]>("PATCH", "/preferences/workflows", { workflows: [{ identifier, ...change }] }),
      ),
    [optimistic],
  );
  const setChannel = useCallback<PreferenceSettings["setChannel"]>(
    (channel, enabled) =>
      optimistic<ChannelSwitches>(setChannels, (cs) => ({ ...cs, [channel]: enabled }), (c) => c.request<ChannelSwitches>("PUT", "/preferences/channels", { [channel]: enabled })),
    [optimistic],
  );
  const setQuietHours = useCallback<PreferenceSettings["setQuietHours"]>(
    (update) =>
      optimistic<QuietHours>(
        setQuiet,
        (q) => (q ? { ...q, ...update, enabled: update.enabled ?? true, days: update.days ?? [] } : q),
        (c) => c.request<QuietHours>("PUT", "/preferences/quiet-hours", update),
      ),
    [optimistic],
  );
  const setTimezone = useCallback<PreferenceSettings["setTimezone"]>(
    (timezone) =>
      optimistic<QuietHours>(
        setQuiet,
        (q) => (q ? { ...q, timezone } : q),
        async (c) => {
          await c.request("PATCH", "/profile", { timezone });
        },
      ),
    [optimistic],
  );
  return { workflows, channels, quietHours, setWorkflow, setChannel, setQuietHours, setTimezone, load };
}

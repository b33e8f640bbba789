// The user page's preferences: channel names, the order channels are shown in, and the
// optimistic edits of each answer (applied at once, put back when the server refuses).
import type { components } from "../../api/client";
import { channelName, channelNames } from "../../api/channels";

export type Prefs = components["schemas"]["PreferenceList"];
export type Switches = components["schemas"]["ChannelSwitches"];
export type FlowPrefs = components["schemas"]["FlowPreferenceList"];
export type Channel = keyof Switches;

export { channelName };

/** precedence is the delivery rule in one sentence (docs/preferences.md). */
export const precedence =
  "A channel turned off for all notifications wins over everything; otherwise the most specific switch set wins (a workflow's channel, then the workflow, then the category's channel), and critical notifications ignore every opt-out.";

/** switchList lists the channel switches in the shown order, known channels first; unset ones are on. */
export function switchList(sw: Switches | undefined): { channel: Channel; on: boolean }[] {
  const keys = Object.keys(sw ?? {});
  const known = Object.keys(channelNames).filter((c) => keys.includes(c));
  const rest = keys.filter((c) => !(c in channelNames)).sort();
  return [...known, ...rest].map((c) => ({ channel: c as Channel, on: sw?.[c as Channel] !== false }));
}

/** withChannel is sw with one channel switched. */
export function withChannel(sw: Switches | undefined, channel: Channel, on: boolean): Switches {
  return { ...(sw ?? {}), [channel]: on };
}

/** withCell is the matrix with one category × channel switch changed. */
export function withCell(list: Prefs | undefined, categoryId: number, channel: string, enabled: boolean): Prefs | undefined {
  return list?.map((r) =>
    r.category?.id !== categoryId
      ? r
      : { ...r, channelPreferences: r.channelPreferences?.map((c) => (c.channel === channel ? { ...c, enabled } : c)) },
  );
}

/** withFlow is the workflow list with one workflow's whole switch changed. */
export function withFlow(list: FlowPrefs | undefined, identifier: string, enabled: boolean): FlowPrefs | undefined {
  return list?.map((f) => (f.workflow.identifier === identifier ? { ...f, enabled } : f));
}

/** matrixChannels are the channels the matrix has columns for, in the shown order. */
export function matrixChannels(list: Prefs | undefined): string[] {
  const seen = new Set((list ?? []).flatMap((r) => (r.channelPreferences ?? []).map((c) => c.channel!)));
  const known = Object.keys(channelNames).filter((c) => seen.has(c));
  return [...known, ...[...seen].filter((c) => !(c in channelNames)).sort()];
}

/** flowNote says what a workflow's channel switches are, when the user set some. */
export function flowNote(channels: Record<string, boolean | undefined>): string {
  const off = Object.entries(channels).filter(([, v]) => v === false).map(([c]) => channelName(c));
  const on = Object.entries(channels).filter(([, v]) => v === true).map(([c]) => channelName(c));
  const parts = [];
  if (off.length) parts.push(`off on ${off.join(", ")}`);
  if (on.length) parts.push(`on on ${on.join(", ")}`);
  return parts.length ? `Set per channel: ${parts.join("; ")}.` : "";
}

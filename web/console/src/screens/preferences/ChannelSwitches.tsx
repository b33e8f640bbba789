// ChannelSwitches: a user's switch for each channel as a whole ("no SMS, ever").
import { keys } from "../../api/keys";
import { Checkbox } from "../../ui/confirm";
import { ErrorState, FormError, Loading } from "../../ui/kit";
import { preferencesApi, useChannelSwitches } from "./api";
import { errorList } from "./errors";
import { channelName, switchList, withChannel, type Channel, type Switches } from "./logic";
import { useOptimisticSwitch } from "./optimistic";

export function ChannelSwitches({ appId, identifier, dev }: { appId: number; identifier: string; dev: boolean }) {
  const path = { appId, identifier };
  const key = keys.preferences.channels(appId, identifier);
  const sw = useChannelSwitches(appId, identifier);
  const { toggle, mutation } = useOptimisticSwitch<Switches, { channel: Channel; on: boolean }>(
    key,
    (v) => preferencesApi.setChannel(path, v.channel, v.on),
    (cached, v) => withChannel(cached, v.channel, v.on),
    (v) => `${channelName(v.channel)} for all notifications: ${v.on ? "on" : "off"}`,
  );
  const list = switchList(sw.data);
  return (
    <section className="card" aria-labelledby="pref-channels-h">
      <h3 id="pref-channels-h">Channels</h3>
      <p className="muted small">A channel turned off here sends this user nothing on it, except critical notifications.</p>
      <FormError errors={errorList(mutation.error)} />
      {sw.isPending ? (
        <Loading label="Loading the channel switches" />
      ) : sw.isError ? (
        <ErrorState error={sw.error} retry={() => sw.refetch()} />
      ) : list.length === 0 ? (
        <p className="muted">No channels to switch.</p>
      ) : (
        <ul className="switch-list" aria-label="Channels for all notifications">
          {list.map(({ channel, on }) => (
            <li key={channel}>
              <label>
                <Checkbox
                  role="switch"
                  checked={on}
                  disabled={!dev}
                  aria-busy={(mutation.isPending && mutation.variables?.channel === channel) || undefined}
                  onChange={(v) => toggle({ channel, on: v })}
                />{" "}
                {channelName(channel)} for all notifications
              </label>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

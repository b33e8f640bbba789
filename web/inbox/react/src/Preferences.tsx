// The preferences panel of <Inbox/>: per category, a switch per channel.
import type { Strings } from "@heraldhq/inbox/i18n";
import { usePreferences } from "./hooks.js";

export function Preferences({ t }: { t: Strings }) {
  const { preferences, setPreference } = usePreferences();
  const channel = (c: string) => t.channels[c] ?? c;
  return (
    <div className="herald-list herald-prefs">
      <p className="herald-help">{t.prefsHelp}</p>
      {preferences === undefined ? (
        <div className="herald-empty" role="status">
          {t.loading}
        </div>
      ) : preferences.length === 0 ? (
        <div className="herald-empty" role="status">
          {t.noCategories}
        </div>
      ) : (
        preferences.map((p) => (
          <fieldset key={p.category.id}>
            <legend>{p.category.name}</legend>
            {p.channelPreferences.map((c) => (
              <label className="herald-switch" key={c.channel}>
                <span>{channel(c.channel)}</span>
                <input
                  type="checkbox"
                  role="switch"
                  aria-label={`${p.category.name}: ${channel(c.channel)}`}
                  checked={c.enabled}
                  onChange={(e) => void setPreference(p.category.id, c.channel, e.currentTarget.checked).catch(() => {})}
                />
              </label>
            ))}
          </fieldset>
        ))
      )}
    </div>
  );
}

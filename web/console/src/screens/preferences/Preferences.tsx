// Preferences: the user page's preferences — channels as a whole, the category × channel
// matrix, the workflows and the quiet hours — with the rule that decides between them.
import { CategoryMatrix } from "./CategoryMatrix";
import { ChannelSwitches } from "./ChannelSwitches";
import { precedence } from "./logic";
import { QuietHours } from "./QuietHours";
import { WorkflowSwitches } from "./WorkflowSwitches";

export function Preferences({ appId, identifier, dev }: { appId: number; identifier: string; dev: boolean }) {
  return (
    <section className="card" aria-labelledby="prefs-h">
      <h2 id="prefs-h">Preferences</h2>
      <p className="muted small">
        What this user receives; the user changes these from the inbox widget too.
        {dev ? " Changes apply at once." : " Developers and admins can change them."}
      </p>
      <p className="small">{precedence}</p>
      <ChannelSwitches appId={appId} identifier={identifier} dev={dev} />
      <CategoryMatrix appId={appId} identifier={identifier} dev={dev} />
      <WorkflowSwitches appId={appId} identifier={identifier} dev={dev} />
      <QuietHours appId={appId} identifier={identifier} dev={dev} />
    </section>
  );
}

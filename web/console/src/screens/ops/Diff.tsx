// Diff: changes of an app (since its last commit, or a publish would make) grouped by kind.
import type { components } from "../../api/client";

type Change = components["schemas"]["Change"];

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

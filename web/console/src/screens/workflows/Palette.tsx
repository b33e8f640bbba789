// Palette: the step types a workflow can add, one button each.
import { isChannel, stepTypes, type Components } from "./schemaForm";

/** Palette adds a step of each type of the workflow schema, after the selected step. */
export function Palette({ components, onAdd }: { components: Components; onAdd: (type: string) => void }) {
  const types = stepTypes(components);
  return (
    <nav className="palette" aria-label="Add a step">
      <h2 className="small" title="Added after the selected step">
        Add a step
      </h2>
      {["Channels", "Control"].map((group) => (
        <div key={group} role="group" aria-label={group}>
          <h3 className="small muted">{group}</h3>
          {types
            .filter((t) => isChannel(components, t) === (group === "Channels"))
            .map((t) => (
              <button key={t} type="button" className="palette-item" onClick={() => onAdd(t)} aria-label={`Add ${t} step`}>
                {t}
              </button>
            ))}
        </div>
      ))}
    </nav>
  );
}

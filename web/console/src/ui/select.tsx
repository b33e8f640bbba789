// A labelled select with an "Any" choice, for list filters.
import * as Label from "@radix-ui/react-label";
import { useId } from "react";

/** Select is a labelled native select whose first choice, "Any", means no filter. */
export function Select({ label, name, options, value }: { label: string; name: string; options: string[]; value: string }) {
  const id = useId();
  return (
    <div className="field">
      <Label.Root htmlFor={id}>{label}</Label.Root>
      <select id={id} name={name} defaultValue={value}>
        <option value="">Any</option>
        {options.map((o) => (
          <option key={o} value={o}>
            {o}
          </option>
        ))}
      </select>
    </div>
  );
}

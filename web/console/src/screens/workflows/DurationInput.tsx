// A duration field as an amount box and a unit menu (duration.ts); "8s" typed whole works.
import { useEffect, useRef, useState } from "react";
import { splitDuration, typed, units, type Unit } from "./duration";

type Props = {
  /** aria: the amount box's id and ARIA attributes (its label is the field's). */
  aria: { id: string; "aria-invalid"?: boolean; "aria-describedby"?: string };
  value: unknown;
  onChange: (v: string) => void;
};

/** DurationInput edits a WorkflowDuration; a value that is not one number and one unit shows as typed. */
export function DurationInput({ aria, value, onChange }: Props) {
  const str = typeof value === "string" ? value : "";
  const [text, setText] = useState(() => splitDuration(str)?.amount ?? str);
  const [unit, setUnit] = useState<Unit>(() => splitDuration(str)?.unit ?? "m");
  // What this input last wrote: any other value came from elsewhere (undo, the JSON view).
  const wrote = useRef(str);
  useEffect(() => {
    if (str === wrote.current) return;
    wrote.current = str;
    const s = splitDuration(str);
    setText(s?.amount ?? str);
    if (s) setUnit(s.unit);
  }, [str]);
  const write = (t: string, u: Unit) => {
    const v = typed(t, u);
    const s = splitDuration(v);
    setText(s && !/^\s*\d+(\.\d+)?\s*$/.test(t) ? s.amount : t);
    if (s) setUnit(s.unit);
    wrote.current = v;
    onChange(v);
  };
  return (
    <div className="duration-input">
      <input {...aria} inputMode="decimal" value={text} placeholder="e.g. 30, or 8s" onChange={(e) => write(e.target.value, unit)} />
      <select aria-label="Unit" value={unit} onChange={(e) => (setUnit(e.target.value as Unit), text.trim() && write(text, e.target.value as Unit))}>
        {units.map((u) => (
          <option key={u.unit} value={u.unit}>
            {u.label}
          </option>
        ))}
      </select>
    </div>
  );
}

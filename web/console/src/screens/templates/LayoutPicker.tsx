// The email layout picker of the content editors (a template's email content, a workflow
// email step's own content): the app's layouts, "" being the app's default.
import { useId } from "react";
import { useLayouts } from "./api";

export function LayoutPicker({
  appId,
  value,
  onChange,
  errors,
  disabled,
}: {
  appId: number;
  value: string;
  onChange: (identifier: string) => void;
  errors?: string[];
  disabled?: boolean;
}) {
  const id = useId();
  const layouts = useLayouts(appId);
  const known = (layouts.data ?? []).some((l) => l.identifier === value);
  return (
    <div className="field">
      <label htmlFor={id}>Layout</label>
      <select
        id={id}
        value={value}
        disabled={disabled}
        onChange={(e) => onChange(e.target.value)}
        aria-describedby={`${id}-hint${errors?.length ? ` ${id}-err` : ""}`}
        aria-invalid={errors?.length ? true : undefined}
      >
        <option value="">The app's default layout</option>
        {value && !known && layouts.isSuccess && <option value={value}>{value} (not in this app)</option>}
        {(layouts.data ?? []).map((l) => (
          <option key={l.id} value={l.identifier}>
            {l.name || l.identifier}
            {l.default ? " (default)" : ""}
          </option>
        ))}
      </select>
      <p className="hint" id={`${id}-hint`}>
        {layouts.isError ? "The layouts could not be loaded." : "The HTML around the body: its {{{content}}} is the body."}
      </p>
      {errors?.length ? (
        <p className="field-error" id={`${id}-err`} role="alert">
          {errors.join(". ")}
        </p>
      ) : null}
    </div>
  );
}

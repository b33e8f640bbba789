// A labelled code editor field: the label, hint and errors of the kit's Field around the
// CodeMirror editor, which loads in its own chunk the first time an editor shows.
import { lazy, Suspense, useId } from "react";

const CodeEditor = lazy(() => import("./CodeEditor"));

export function CodeField({
  label,
  value,
  onChange,
  lang = "text",
  lines = 1,
  paths,
  errors,
  hint,
  readOnly,
}: {
  label: string;
  value: string;
  onChange: (v: string) => void;
  lang?: "html" | "text";
  lines?: number;
  paths: string[];
  errors?: string[];
  hint?: string;
  readOnly?: boolean;
}) {
  const id = useId();
  const describedBy = [errors?.length ? `${id}-err` : "", hint ? `${id}-hint` : ""].filter(Boolean).join(" ") || undefined;
  return (
    <div className="field">
      <label id={`${id}-label`} onClick={() => (document.querySelector(`[aria-labelledby="${id}-label"]`) as HTMLElement | null)?.focus()}>
        {label}
      </label>
      <Suspense fallback={<div className="code-editor code-loading" role="status">Loading the editor…</div>}>
        <CodeEditor
          value={value}
          onChange={onChange}
          lang={lang}
          lines={lines}
          paths={paths}
          labelId={`${id}-label`}
          describedBy={describedBy}
          invalid={!!errors?.length}
          readOnly={readOnly}
        />
      </Suspense>
      {hint && (
        <p className="hint" id={`${id}-hint`}>
          {hint}
        </p>
      )}
      {errors?.length ? (
        <p className="field-error" id={`${id}-err`} role="alert">
          {errors.join(". ")}
        </p>
      ) : null}
    </div>
  );
}

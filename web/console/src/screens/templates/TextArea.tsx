import * as Label from "@radix-ui/react-label";
import { useId, type TextareaHTMLAttributes } from "react";

/** TextArea is the kit's Field for multi-line text (JSON, plain text). */
export function TextArea({ label, errors, hint, ...rest }: { label: string; errors?: string[]; hint?: string } & TextareaHTMLAttributes<HTMLTextAreaElement>) {
  const id = useId();
  const describedBy = [errors?.length ? `${id}-err` : "", hint ? `${id}-hint` : ""].filter(Boolean).join(" ") || undefined;
  return (
    <div className="field">
      <Label.Root htmlFor={id}>{label}</Label.Root>
      <textarea id={id} className="mono" spellCheck={false} aria-invalid={errors?.length ? true : undefined} aria-describedby={describedBy} {...rest} />
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

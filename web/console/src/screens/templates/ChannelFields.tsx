// One channel's content form, shared by the template editor and the workflow designer's
// step panel: a code editor (Handlebars completion from paths) per field of the channel,
// the layout picker for email, and the errors the API filed under each field.
import { specOf, type Channel, type ChannelForm } from "../../api/templateForm";
import { FormError } from "../../ui/kit";
import { CodeField } from "./CodeField";
import { LayoutPicker } from "./LayoutPicker";

export function ChannelFields({
  appId,
  channel,
  form,
  onChange,
  paths,
  errors = {},
  readOnly,
  legend,
  maxLines,
}: {
  appId: number;
  channel: Channel;
  form: ChannelForm;
  onChange: (form: ChannelForm) => void;
  /** paths: the variables offered after {{ (built-ins, sample data, and any extra source). */
  paths: string[];
  /** errors: messages by field: content.<field>, layout, and "" for the rest. */
  errors?: Record<string, string[]>;
  readOnly?: boolean;
  legend?: string;
  /** maxLines caps the editors' height in lines (a narrow panel); the channel's own otherwise. */
  maxLines?: number;
}) {
  const spec = specOf(channel)!;
  return (
    <fieldset disabled={readOnly} className="channel-fields">
      <legend>{legend ?? `${spec.label} content`}</legend>
      {spec.fields.map((f) => (
        <CodeField
          key={`${channel}.${f.name}`}
          label={f.label}
          value={form.fields[f.name] ?? ""}
          onChange={(v) => onChange({ ...form, fields: { ...form.fields, [f.name]: v } })}
          lang={f.lang}
          lines={maxLines ? Math.min(f.lines, maxLines) : f.lines}
          paths={paths}
          errors={errors[`content.${f.name}`]}
          readOnly={readOnly}
        />
      ))}
      {channel === "email" && (
        <LayoutPicker appId={appId} value={form.layoutIdentifier} onChange={(l) => onChange({ ...form, layoutIdentifier: l })} errors={errors["layout"]} disabled={readOnly} />
      )}
      <FormError errors={errors[""]} />
    </fieldset>
  );
}

/** contentFieldNames are the names fieldErrors files a channel's messages under. */
export const contentFieldNames = (channel: Channel, layoutName = "layout") => [...(specOf(channel)?.fields ?? []).map((f) => `content.${f.name}`), layoutName];

// "Use a template" in a channel step's content: the app's templates in a menu, and the
// chosen one's rendering for the step's channel with the same sample data (the template's
// preview route, the shared LivePreview components).
import { Link } from "react-router-dom";
import { specOf, type Channel } from "../../api/templateForm";
import { MissingVariables, PreviewPane, SampleData, useLivePreview, type Preview, type useSampleData } from "../templates/LivePreview";
import { keys } from "../../api/keys";
import { templatesApi } from "../templates/api";

/** TemplateRef is a template of the app as the menu lists it. */
export type TemplateRef = { id: number; identifier: string };

export function TemplateMode({
  appId,
  channel,
  value,
  templates,
  errors,
  readOnly,
  sample,
  onPick,
}: {
  appId: number;
  channel: Channel;
  value: string;
  templates: TemplateRef[];
  errors: string[];
  readOnly: boolean;
  sample: ReturnType<typeof useSampleData>;
  onPick: (identifier: string) => void;
}) {
  const chosen = templates.find((t) => t.identifier === value);
  const live = useLivePreview(
    [...keys.templates.stepPreview(chosen?.id ?? 0)],
    chosen && sample.parsed.body ? { ...sample.parsed.body, channels: [channel] } : null,
    (body) => templatesApi.preview(chosen!.id!, body) as Promise<Preview>,
  );
  const empty = chosen && live.query.data && !live.query.data.channels?.[channel] && !live.query.data.errors?.[channel];
  return (
    <>
      <div className="field">
        <label htmlFor="step-template">Template</label>
        <select
          id="step-template"
          value={value}
          disabled={readOnly}
          aria-invalid={errors.length ? true : undefined}
          aria-describedby={errors.length ? "step-template-err" : undefined}
          onChange={(e) => onPick(e.target.value)}
        >
          <option value="">Choose a template…</option>
          {value && !chosen && <option value={value}>{value} (not in this app)</option>}
          {templates.map((t) => (
            <option key={t.id} value={t.identifier}>
              {t.identifier}
            </option>
          ))}
        </select>
        {errors.length > 0 && (
          <p className="field-error" id="step-template-err" role="alert">
            {errors.join(". ")}
          </p>
        )}
      </div>
      {chosen && (
        <>
          {empty && (
            <p className="form-error" role="alert">
              {chosen.identifier} has no {specOf(channel)?.label ?? channel} content: the step would be skipped.
            </p>
          )}
          <PreviewPane channel={channel} live={live} />
          <MissingVariables channel={channel} preview={live.query.data} />
          <SampleData sample={sample} rows={5} />
          <p className="small">
            <Link to={`/apps/${appId}/templates?template=${chosen.id}`}>
              Edit {chosen.identifier} in Templates
            </Link>
          </p>
        </>
      )}
    </>
  );
}

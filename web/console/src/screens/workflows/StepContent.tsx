// The content of a channel step in the designer's side panel: one switch between "Use a
// template" (a template of the app) and "Write it here" (the template editor's form for the
// step's channel, its live preview with sample data, and "Save as a template"). The
// server's problems about the content show next to the fields they name.
import { useState } from "react";
import { ApiError, fieldErrors } from "../../api/client";
import { extraFields, modeOf, stepForm, withForm, withTemplate, type ContentStep, type Mode } from "../../api/stepContent";
import { contentBody, specOf, type Channel } from "../../api/templateForm";
import { ChannelFields, contentFieldNames } from "../templates/ChannelFields";
import { MissingVariables, PreviewPane, SampleData, useLivePreview, useSampleData, sampleText, type Preview } from "../templates/LivePreview";
import { SaveAsTemplate } from "./SaveAsTemplate";
import { TemplateMode, type TemplateRef } from "./TemplateMode";
import { keys } from "../../api/keys";
import { workflowsApi } from "./api";

export function StepContent({
  appId,
  workflow,
  step,
  templates,
  problems,
  readOnly,
  extraPaths,
  sampleData,
  onChange,
}: {
  appId: number;
  workflow: string;
  step: ContentStep;
  /** templates: the app's templates. */
  templates: TemplateRef[];
  /** problems: the server's messages about the step's content. */
  problems: string[];
  readOnly: boolean;
  /** extraPaths: more variables to complete after {{ (a payload schema's data paths). */
  extraPaths?: string[];
  /** sampleData: the preview's starting data (made from the payload schema). */
  sampleData?: unknown;
  onChange: (s: ContentStep) => void;
}) {
  const channel = step.type as Channel;
  // The step decides when it names a template or has content (an undo switches back too);
  // a step with neither shows the way last chosen.
  const [chosen, setMode] = useState<Mode>(() => modeOf(step));
  const mode: Mode = modeOf(step) === "template" ? "template" : step.content !== undefined ? "inline" : chosen;
  // What the other way had, to bring it back when the user switches back.
  const [stash, setStash] = useState<ContentStep | null>(null);
  const [convertErr, setConvertErr] = useState<unknown>(undefined);
  const sample = useSampleData(extraPaths, sampleText(sampleData));
  const form = stepForm(step);
  const live = useLivePreview(
    [...keys.workflows.contentPreview(appId)],
    mode === "inline" && sample.parsed.body ? { ...sample.parsed.body, channels: [channel], contents: { [channel]: contentBody(channel, form) } } : null,
    (body) => workflowsApi.contentPreview(appId, body) as Promise<Preview>,
  );
  const switchTo = (m: Mode) => {
    if (m === mode) return;
    setMode(m);
    setStash(step);
    setConvertErr(undefined);
    if (m === "template") onChange(stash && modeOf(stash) === "template" ? withTemplate(step, String(stash.template)) : withTemplate(step, ""));
    else onChange(stash && stash.content !== undefined ? withForm(withTemplate(step, ""), stepForm(stash)) : withForm(step, form));
  };
  const server = problems.length ? fieldErrors(new ApiError(400, problems), [...contentFieldNames(channel), "template"]) : {};
  const converted = convertErr ? fieldErrors(convertErr, contentFieldNames(channel, "layoutIdentifier")) : {};
  const { layoutIdentifier: convertedLayout, ...convertedFields } = converted;
  const errors: Record<string, string[]> = { ...server };
  for (const [k, v] of Object.entries({ ...convertedFields, ...(convertedLayout ? { layout: convertedLayout } : {}) })) errors[k] = [...(errors[k] ?? []), ...v];
  const extra = extraFields(step);
  if (extra.length) errors[""] = [...(errors[""] ?? []), `content has fields ${specOf(channel)?.label ?? channel} content does not take: ${extra.join(", ")}`];
  const templateErrs = errors["template"];

  return (
    <div className="step-content">
      <fieldset className="mode-switch" disabled={readOnly}>
        <legend>Content</legend>
        {(
          [
            ["template", "Use a template"],
            ["inline", "Write it here"],
          ] as const
        ).map(([m, label]) => (
          <label key={m} className="radio">
            <input type="radio" name={`content-mode-${step.id}`} value={m} checked={mode === m} onChange={() => switchTo(m)} />
            {label}
          </label>
        ))}
      </fieldset>
      {mode === "template" ? (
        <TemplateMode
          appId={appId}
          channel={channel}
          value={typeof step.template === "string" ? step.template : ""}
          templates={templates}
          errors={[...(templateErrs ?? []), ...(errors[""] ?? [])]}
          readOnly={readOnly}
          sample={sample}
          onPick={(t) => onChange(withTemplate(step, t))}
        />
      ) : (
        <>
          <ChannelFields
            appId={appId}
            channel={channel}
            form={form}
            onChange={(f) => onChange(withForm(step, f))}
            paths={sample.paths}
            errors={errors}
            readOnly={readOnly}
            legend={`${specOf(channel)?.label ?? channel} content`}
            maxLines={6}
          />
          <PreviewPane channel={channel} live={live} />
          <MissingVariables channel={channel} preview={live.query.data} />
          <SampleData sample={sample} rows={5} />
          {!readOnly && (
            <SaveAsTemplate
              appId={appId}
              workflow={workflow}
              stepId={step.id}
              channel={channel}
              form={form}
              onContentErrors={setConvertErr}
              onCreated={(id) => {
                setMode("template");
                setStash(step);
                onChange(withTemplate(step, id));
              }}
            />
          )}
        </>
      )}
    </div>
  );
}

// A template's editor: one tab per channel with a code editor per content field, the live
// preview of the unsaved text beside it (rendered by the API with the sample data the user
// edits, the variables that data lacks listed), save, and a test send to a chosen user.
import * as Tabs from "@radix-ui/react-tabs";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useMemo, useState, type FormEvent } from "react";
import { api, data, fieldErrors, type components } from "../../api/client";
import {
  changedChannels,
  channelSpecs,
  completionPaths,
  contentBody,
  contentFields,
  isEmpty,
  parseSample,
  previewContents,
  specOf,
  type Channel,
  type Edited,
} from "../../api/templateForm";
import { Button, ErrorState, FormError, Loading, useToast } from "../../ui/kit";
import type { App } from "../queries";
import { CodeField } from "./CodeField";
import { ChannelPreview } from "./Preview";
import { SendTest } from "./SendTest";
import { TextArea } from "./TextArea";
import { Assistant, useAssistant } from "./Assistant";
import { applyDraft, type Draft } from "../../api/assistantDraft";
import { sampleFromSchema, schemaPaths, type JsonSchema } from "../workflows/payloadSchema";

type Preview = components["schemas"]["TemplatePreview"];

const sampleDefault = JSON.stringify({ data: {}, user: { identifier: "user-1", profile: { firstName: "Ada" } } }, null, 2);

/**
 * Editor edits a template's contents. payloadSchema (a workflow's, when the editor serves a
 * workflow step) adds its data paths to the {{…}} completion and makes the preview's sample data.
 */
export function Editor({
  app,
  templateId,
  identifier,
  dev,
  payloadSchema,
}: {
  app: App;
  templateId: number;
  identifier?: string;
  dev: boolean;
  payloadSchema?: JsonSchema | null;
}) {
  const qc = useQueryClient();
  const toast = useToast();
  const appId = app.id!;
  const tpl = useQuery({
    queryKey: ["templates", templateId],
    queryFn: () => data(api.GET("/v1/templates/{templateId}", { params: { path: { templateId } } })),
  });
  const layouts = useQuery({
    queryKey: ["apps", appId, "layouts"],
    queryFn: () => data(api.GET("/v1/apps/{appId}/layouts", { params: { path: { appId } } })),
  });
  const saved = useMemo(() => (tpl.data ? contentFields(tpl.data.contents ?? []) : null), [tpl.data]);
  const [edited, setEdited] = useState<Edited | null>(null);
  const [channel, setChannel] = useState<Channel>("email");
  const [sample, setSample] = useState(() =>
    payloadSchema ? JSON.stringify({ ...JSON.parse(sampleDefault), data: sampleFromSchema(payloadSchema) }, null, 2) : sampleDefault,
  );
  const ai = useAssistant();
  const parsed = useMemo(() => parseSample(sample), [sample]);
  const paths = useMemo(() => [...new Set([...completionPaths(parsed.body), ...schemaPaths(payloadSchema)])], [parsed, payloadSchema]);

  useEffect(() => {
    if (saved && !edited) {
      setEdited(saved);
      const first = channelSpecs.find((s) => !isEmpty(saved[s.channel]));
      if (first) setChannel(first.channel);
    }
  }, [saved, edited]);

  // The preview follows the text as typed, 300 ms after the last change.
  const request = edited && parsed.body ? JSON.stringify({ ...parsed.body, channels: [channel], contents: previewContents(edited, [channel]) }) : null;
  const [debounced, setDebounced] = useState<string | null>(null);
  useEffect(() => {
    const t = setTimeout(() => setDebounced(request), 300);
    return () => clearTimeout(t);
  }, [request]);
  const preview = useQuery({
    // Not under ["templates", id]: a save refetches the template, not the preview.
    queryKey: ["preview", templateId, debounced],
    enabled: !!debounced,
    placeholderData: (prev) => prev,
    queryFn: () => data(api.POST("/v1/templates/{templateId}/preview", { params: { path: { templateId } }, body: JSON.parse(debounced!) })) as Promise<Preview>,
  });

  const save = useMutation({
    mutationFn: async (e: Edited) => {
      const errs: { channel: Channel; err: unknown }[] = [];
      for (const ch of changedChannels(saved!, e)) {
        try {
          if (isEmpty(e[ch])) await data(api.DELETE("/v1/templates/{templateId}/contents/{channel}", { params: { path: { templateId, channel: ch } } }));
          else await data(api.PUT("/v1/templates/{templateId}/contents/{channel}", { params: { path: { templateId, channel: ch } }, body: contentBody(ch, e[ch]) }));
        } catch (err) {
          errs.push({ channel: ch, err });
        }
      }
      if (errs.length) throw new SaveError(errs);
    },
    onSettled: async () => {
      await qc.invalidateQueries({ queryKey: ["templates", templateId] });
    },
    onSuccess: () => toast(`${tpl.data?.name} is saved`),
  });
  // Saved: the form takes the stored content (what the API kept) once it is read again.
  useEffect(() => {
    if (save.isSuccess && saved) setEdited(saved);
  }, [saved]); // eslint-disable-line react-hooks/exhaustive-deps

  if (tpl.isPending || (tpl.data && !edited)) return <Loading label="Loading the template" />;
  if (tpl.isError) return <ErrorState error={tpl.error} retry={() => tpl.refetch()} />;
  if (!edited || !saved) return null;

  const spec = specOf(channel)!;
  const names = [...spec.fields.map((f) => `content.${f.name}`), "layoutIdentifier"];
  const saveErr = save.error instanceof SaveError ? save.error.errors.find((x) => x.channel === channel) : undefined;
  const errs = saveErr ? fieldErrors(saveErr.err, names) : {};
  const otherErrs = save.error instanceof SaveError ? save.error.errors.filter((x) => x.channel !== channel) : [];
  const changed = changedChannels(saved, edited);
  const set = (field: string) => (v: string) => setEdited((s) => (s ? { ...s, [channel]: { ...s[channel], fields: { ...s[channel].fields, [field]: v } } } : s));
  const warnings = (preview.data?.warnings ?? []).filter((w) => w.channel === channel);
  const fieldLabel = (field: string) => spec.fields.find((f) => f.name === field)?.label ?? (field.startsWith("layout.") ? `Layout ${field.slice(7)}` : field);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    save.mutate(edited);
  };
  const stale = preview.isFetching || debounced !== request;
  const canDraft = dev && !!ai.data?.configured && (ai.data.channels ?? []).includes(channel);
  const takeDraft = (d: Draft) => {
    setEdited((s) => (s ? { ...s, [channel]: applyDraft(channel, s[channel], d) } : s));
    toast(`The draft is in the ${spec.label} fields; save to keep it`);
  };

  return (
    <section className="card" aria-labelledby="editor-h">
      <h2 id="editor-h">Edit {tpl.data.name}</h2>
      <Tabs.Root value={channel} onValueChange={(v) => setChannel(v as Channel)} className="tabs">
        <Tabs.List aria-label="Channels" className="tab-list channel-tabs">
          {channelSpecs.map((s) => (
            <Tabs.Trigger key={s.channel} value={s.channel} className="tab">
              {s.label}
              {changed.includes(s.channel) ? <span aria-label=" (unsaved)"> •</span> : !isEmpty(saved[s.channel]) ? <span className="sr-only"> (has content)</span> : null}
            </Tabs.Trigger>
          ))}
        </Tabs.List>
      <Tabs.Content value={channel} className="tab-panel">
      {canDraft && <Assistant key={channel} channel={channel} onUse={takeDraft} />}
      <div className="editor-grid">
        <form onSubmit={submit} noValidate aria-labelledby="editor-h">
          <fieldset disabled={!dev}>
            <legend>{spec.label} content</legend>
            {spec.fields.map((f) => (
              <CodeField
                key={`${channel}.${f.name}`}
                label={f.label}
                value={edited[channel].fields[f.name] ?? ""}
                onChange={set(f.name)}
                lang={f.lang}
                lines={f.lines}
                paths={paths}
                errors={errs[`content.${f.name}`]}
                readOnly={!dev}
              />
            ))}
            {channel === "email" && (
              <div className="field">
                <label htmlFor="email-layout">Layout</label>
                <select
                  id="email-layout"
                  value={edited.email.layoutIdentifier}
                  onChange={(e) => setEdited((s) => (s ? { ...s, email: { ...s.email, layoutIdentifier: e.target.value } } : s))}
                  aria-describedby="email-layout-hint"
                  aria-invalid={errs["layoutIdentifier"] ? true : undefined}
                >
                  <option value="">The app's default layout</option>
                  {(layouts.data ?? []).map((l) => (
                    <option key={l.id} value={l.identifier}>
                      {l.name || l.identifier}
                      {l.default ? " (default)" : ""}
                    </option>
                  ))}
                </select>
                <p className="hint" id="email-layout-hint">
                  {layouts.isError ? "The layouts could not be loaded." : "The HTML around the body: its {{{content}}} is the body."}
                </p>
                {errs["layoutIdentifier"] && (
                  <p className="field-error" role="alert">
                    {errs["layoutIdentifier"].join(". ")}
                  </p>
                )}
              </div>
            )}
            <FormError errors={errs[""]} />
          </fieldset>
          {otherErrs.map((x) => (
            <p key={x.channel} className="form-error" role="alert">
              {specOf(x.channel)?.label}: {(x.err as Error).message}
            </p>
          ))}
          <section aria-labelledby="warnings-h" className="warnings">
            <h3 id="warnings-h">Missing variables</h3>
            {warnings.length === 0 ? (
              <p className="muted">The sample data holds every variable the {spec.label} content uses.</p>
            ) : (
              <ul aria-labelledby="warnings-h">
                {warnings.map((w) => (
                  <li key={`${w.field}.${w.variable}.${w.translation ?? ""}`}>
                    {fieldLabel(w.field)}, line {w.line}: {w.message}
                    {w.translation ? ` (translation ${w.translation})` : ""}
                  </li>
                ))}
              </ul>
            )}
          </section>
          {dev && (
            <div className="row">
              <Button type="submit" busy={save.isPending} disabled={changed.length === 0}>
                Save
              </Button>
              {changed.length > 0 && (
                <>
                  <span className="muted small">Unsaved: {changed.map((c) => specOf(c)?.label).join(", ")}</span>
                  <Button type="button" variant="ghost" onClick={() => setEdited(saved)}>
                    Discard changes
                  </Button>
                </>
              )}
            </div>
          )}
        </form>
        <div className="preview">
          <section aria-labelledby="preview-h" aria-busy={stale || undefined}>
            <h3 id="preview-h">Live preview</h3>
            {preview.isError ? (
              <p className="field-error" role="alert">
                {(preview.error as Error).message}
              </p>
            ) : null}
            {preview.data?.errors?.[channel] ? (
              <p className="field-error" role="alert">
                {preview.data.errors[channel]}
              </p>
            ) : null}
            {preview.isPending && !!debounced ? <Loading label="Rendering" /> : <ChannelPreview channel={channel} content={preview.data?.channels?.[channel]} />}
          </section>
          <TextArea
            label="Sample data (JSON)"
            value={sample}
            onChange={(e) => setSample(e.target.value)}
            errors={parsed.error ? [parsed.error] : undefined}
            hint="The preview's data, and user {identifier, profile}; its paths are offered after {{ in the editor."
            rows={8}
          />
          {dev && identifier && (
            <SendTest appId={appId} identifier={identifier} channel={channel} data={parsed.body?.data} unsaved={changed.length > 0} hasContent={!isEmpty(saved[channel])} />
          )}
        </div>
      </div>
      </Tabs.Content>
      </Tabs.Root>
    </section>
  );
}

/** SaveError holds the error of each channel whose content did not save. */
class SaveError extends Error {
  constructor(public errors: { channel: Channel; err: unknown }[]) {
    super(errors.map((e) => (e.err as Error).message).join("; "));
  }
}

// A template's editor: one tab per channel with the channel's content form, the live
// preview of the unsaved text beside it (rendered by the API with the sample data the user
// edits, the variables that data lacks listed), save, and a test send to a chosen user.
// The form and the preview are the shared content components (ChannelFields, LivePreview)
// the workflow designer's step panel uses too.
import * as Tabs from "@radix-ui/react-tabs";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useEffect, useMemo, useState, type FormEvent } from "react";
import { fieldErrors } from "../../api/client";
import { keys } from "../../api/keys";
import { templatesApi, useTemplate } from "./api";
import { changedChannels, channelSpecs, contentBody, contentFields, isEmpty, previewContents, specOf, type Channel, type Edited } from "../../api/templateForm";
import { Button, ErrorState, Loading, useToast } from "../../ui/kit";
import type { App } from "../queries";
import { ChannelFields, contentFieldNames } from "./ChannelFields";
import { MissingVariables, PreviewPane, SampleData, useLivePreview, useSampleData, type Preview } from "./LivePreview";
import { SendTest } from "./SendTest";
import { Assistant, useAssistant } from "./Assistant";
import { applyDraft, type Draft } from "../../api/assistantDraft";

export function Editor({ app, templateId, identifier, dev, extraPaths }: { app: App; templateId: number; identifier?: string; dev: boolean; extraPaths?: string[] }) {
  const qc = useQueryClient();
  const toast = useToast();
  const appId = app.id!;
  const tpl = useTemplate(templateId);
  const saved = useMemo(() => (tpl.data ? contentFields(tpl.data.contents ?? []) : null), [tpl.data]);
  const [edited, setEdited] = useState<Edited | null>(null);
  const [channel, setChannel] = useState<Channel>("email");
  const sample = useSampleData(extraPaths);
  const ai = useAssistant();

  useEffect(() => {
    if (saved && !edited) {
      setEdited(saved);
      const first = channelSpecs.find((s) => !isEmpty(saved[s.channel]));
      if (first) setChannel(first.channel);
    }
  }, [saved, edited]);

  // The preview follows the text as typed. Not under ["templates", id]: a save refetches
  // the template, not the preview.
  const live = useLivePreview(
    [...keys.templates.preview(templateId)],
    edited && sample.parsed.body ? { ...sample.parsed.body, channels: [channel], contents: previewContents(edited, [channel]) } : null,
    (body) => templatesApi.preview(templateId, body) as Promise<Preview>,
  );

  const save = useMutation({
    mutationFn: async (e: Edited) => {
      const errs: { channel: Channel; err: unknown }[] = [];
      for (const ch of changedChannels(saved!, e)) {
        try {
          if (isEmpty(e[ch])) await templatesApi.deleteContent(templateId, ch);
          else await templatesApi.putContent(templateId, ch, contentBody(ch, e[ch]));
        } catch (err) {
          errs.push({ channel: ch, err });
        }
      }
      if (errs.length) throw new SaveError(errs);
    },
    onSettled: async () => {
      await qc.invalidateQueries({ queryKey: keys.templates.detail(templateId) });
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
  const saveErr = save.error instanceof SaveError ? save.error.errors.find((x) => x.channel === channel) : undefined;
  const raw = saveErr ? fieldErrors(saveErr.err, contentFieldNames(channel, "layoutIdentifier")) : {};
  const { layoutIdentifier: layoutErrs, ...errs } = raw;
  const otherErrs = save.error instanceof SaveError ? save.error.errors.filter((x) => x.channel !== channel) : [];
  const changed = changedChannels(saved, edited);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    save.mutate(edited);
  };
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
              <ChannelFields
                appId={appId}
                channel={channel}
                form={edited[channel]}
                onChange={(f) => setEdited((s) => (s ? { ...s, [channel]: f } : s))}
                paths={sample.paths}
                errors={layoutErrs ? { ...errs, layout: layoutErrs } : errs}
                readOnly={!dev}
              />
              {otherErrs.map((x) => (
                <p key={x.channel} className="form-error" role="alert">
                  {specOf(x.channel)?.label}: {(x.err as Error).message}
                </p>
              ))}
              <MissingVariables channel={channel} preview={live.query.data} />
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
              <PreviewPane channel={channel} live={live} />
              <SampleData sample={sample} />
              {dev && identifier && (
                <SendTest appId={appId} identifier={identifier} channel={channel} data={sample.parsed.body?.data} unsaved={changed.length > 0} hasContent={!isEmpty(saved[channel])} />
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

// "Save as a template": the content written in a step becomes a new template of the app
// (POST /v1/apps/{appId}/templates, then PUT its content for the step's channel) and the
// step uses it. A content the API refuses deletes the template just created, so nothing
// half-made is left; its problems go to the step's fields, the identifier's next to it.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { fieldErrors } from "../../api/client";
import { suggestedIdentifier, templateBody } from "../../api/stepContent";
import { contentBody, type Channel, type ChannelForm } from "../../api/templateForm";
import { Button, Field, FormError, useToast } from "../../ui/kit";
import { keys } from "../../api/keys";
import { templatesApi } from "../templates/api";

/** ContentRefused is the API's refusal of the content: its problems belong to the step's fields. */
export class ContentRefused extends Error {
  constructor(public cause: unknown) {
    super(cause instanceof Error ? cause.message : String(cause));
  }
}

export function SaveAsTemplate({
  appId,
  workflow,
  stepId,
  channel,
  form,
  onCreated,
  onContentErrors,
}: {
  appId: number;
  workflow: string;
  stepId: string;
  channel: Channel;
  form: ChannelForm;
  /** onCreated: the template exists with the content; the step should use it. */
  onCreated: (identifier: string) => void;
  /** onContentErrors: the API's problems with the content (undefined clears them). */
  onContentErrors: (err: unknown) => void;
}) {
  const qc = useQueryClient();
  const toast = useToast();
  const [open, setOpen] = useState(false);
  const [identifier, setIdentifier] = useState(() => suggestedIdentifier(workflow, stepId));
  const [name, setName] = useState("");
  const create = useMutation({
    mutationFn: async () => {
      onContentErrors(undefined);
      const tpl = await templatesApi.create(appId, templateBody(identifier, name));
      const templateId = tpl.id!;
      try {
        await templatesApi.putContent(templateId, channel, contentBody(channel, form));
      } catch (err) {
        await templatesApi.remove(templateId).catch(() => undefined);
        throw new ContentRefused(err);
      }
      return tpl.identifier!;
    },
    onSuccess: async (id) => {
      await qc.invalidateQueries({ queryKey: keys.templates.all(appId) });
      toast(`Template ${id} is created; the step uses it`);
      setOpen(false);
      onCreated(id);
    },
    onError: (err) => {
      if (err instanceof ContentRefused) onContentErrors(err.cause);
    },
  });
  if (!open)
    return (
      <Button type="button" variant="secondary" onClick={() => setOpen(true)}>
        Save as a template…
      </Button>
    );
  const errs = create.error && !(create.error instanceof ContentRefused) ? fieldErrors(create.error, ["identifier", "name"]) : {};
  const submit = (e: FormEvent) => {
    e.preventDefault();
    e.stopPropagation();
    create.mutate();
  };
  return (
    <fieldset className="subform" aria-label="Save as a template">
      <legend>Save as a template</legend>
      <p className="hint">A new template of the app gets this content; the step then uses it.</p>
      <Field label="Template identifier" value={identifier} onChange={(e) => setIdentifier(e.target.value)} errors={errs["identifier"]} required />
      <Field label="Template name" value={name} onChange={(e) => setName(e.target.value)} errors={errs["name"]} hint="The identifier when empty." />
      <FormError errors={errs[""]} />
      {create.error instanceof ContentRefused && (
        <p className="form-error" role="alert">
          The content was not saved as a template: see the fields above.
        </p>
      )}
      <div className="row">
        <Button type="button" busy={create.isPending} disabled={!identifier.trim()} onClick={submit}>
          Create the template and use it
        </Button>
        <Button type="button" variant="ghost" onClick={() => setOpen(false)}>
          Cancel
        </Button>
      </div>
    </fieldset>
  );
}

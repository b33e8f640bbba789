// "Draft with the assistant": the user describes the message, the API's assistant (POST
// /v1/ai) drafts the open channel's content, the draft is shown, and "Use this draft" fills
// the editor's fields (unsaved until Save). Shown only when GET /v1/ai says the assistant
// is configured and drafts for the channel.
import { useMutation } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { fieldErrors } from "../../api/client";
import { templatesApi, useAssistantStatus } from "./api";
import { draftFields, type Draft } from "../../api/assistantDraft";
import { specOf, type Channel } from "../../api/templateForm";
import { Button, FormError } from "../../ui/kit";
import { TextArea } from "./TextArea";

/** useAssistant reads whether the assistant is configured (an error counts as not). */
export function useAssistant() {
  return useAssistantStatus();
}

export function Assistant({ channel, onUse }: { channel: Channel; onUse: (d: Draft) => void }) {
  const spec = specOf(channel)!;
  const [open, setOpen] = useState(false);
  const [prompt, setPrompt] = useState("");
  const ask = useMutation({
    mutationFn: (p: string) => templatesApi.draft({ prompt: p, channel }) as Promise<Draft>,
  });
  const errs = ask.error ? fieldErrors(ask.error, ["prompt", "channel"]) : {};
  const submit = (e: FormEvent) => {
    e.preventDefault();
    ask.mutate(prompt);
  };
  const fields = ask.data ? draftFields(ask.data) : [];

  if (!open)
    return (
      <div className="row">
        <Button type="button" variant="secondary" onClick={() => setOpen(true)}>
          Draft with the assistant
        </Button>
      </div>
    );
  return (
    <section className="card assistant" aria-labelledby="assistant-h">
      <h3 id="assistant-h">Draft with the assistant</h3>
      <form onSubmit={submit} noValidate aria-labelledby="assistant-h">
        <TextArea
          label={`What should the ${spec.label} message say?`}
          value={prompt}
          onChange={(e) => setPrompt(e.target.value)}
          rows={3}
          maxLength={4000}
          autoFocus
          errors={errs["prompt"]}
          hint="The assistant drafts this channel's fields; use {{…}} names such as {{firstName}} to ask for variables."
        />
        <FormError errors={[...(errs["channel"] ?? []), ...(errs[""] ?? [])]} />
        <div className="row">
          <Button type="submit" variant={ask.data ? "secondary" : "primary"} busy={ask.isPending} disabled={prompt.trim() === ""}>
            {ask.isPending ? "Drafting…" : "Draft"}
          </Button>
          <Button type="button" variant="ghost" onClick={() => setOpen(false)}>
            Close
          </Button>
        </div>
      </form>
      {ask.isPending && (
        <p className="muted" role="status">
          The assistant is drafting the {spec.label} content…
        </p>
      )}
      {ask.data && !ask.isPending && (
        <section aria-labelledby="draft-h">
          <h4 id="draft-h">
            Draft for {spec.label}
            {ask.data.model ? <span className="muted small"> ({ask.data.model})</span> : null}
          </h4>
          <dl className="draft">
            {fields.map((f) => (
              <div key={f.name}>
                <dt>{f.label}</dt>
                <dd>
                  <pre className="mono">{f.value}</pre>
                </dd>
              </div>
            ))}
          </dl>
          <div className="row">
            <Button
              type="button"
              onClick={() => {
                onUse(ask.data!);
                ask.reset();
                setOpen(false);
              }}
            >
              Use this draft
            </Button>
            <Button type="button" variant="ghost" onClick={() => ask.reset()}>
              Discard draft
            </Button>
          </div>
        </section>
      )}
    </section>
  );
}

// Templates: the app's templates (list and create) and an editor for a template's in-app
// and email content, with a preview of the saved content rendered by the API with sample
// data the user edits as JSON, and the variables that data lacks listed beside the editor.
import * as Label from "@radix-ui/react-label";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useId, useState, type FormEvent, type TextareaHTMLAttributes } from "react";
import { useOutletContext, useSearchParams } from "react-router-dom";
import { api, data, fieldErrors, type components } from "../api/client";
import { contentFields, parseSample, type EditedChannel } from "../api/templateForm";
import { Button, Empty, ErrorState, Field, FormError, Loading, useToast } from "../ui/kit";
import { atLeast, useClients, type App } from "./queries";

type Template = components["schemas"]["NotificationTemplateEntity"];
type Preview = components["schemas"]["TemplatePreview"];

export default function Templates() {
  const app = useOutletContext<App>();
  const appId = app.id!;
  const clients = useClients();
  const dev = atLeast(clients.data?.find((c) => c.id === app.clientId)?.role, "developer");
  const [params, setParams] = useSearchParams();
  const selected = Number(params.get("template")) || null;
  const select = (id: number | null) => setParams(id ? { template: String(id) } : {});
  const [creating, setCreating] = useState(false);
  useEffect(() => {
    document.title = "Templates · Herald";
  }, []);
  const list = useQuery({
    queryKey: ["apps", appId, "templates"],
    queryFn: () => data(api.GET("/v1/apps/{appId}/templates", { params: { path: { appId } } })),
  });

  if (list.isPending || clients.isPending) return <Loading label="Loading templates" />;
  if (list.isError) return <ErrorState error={list.error} retry={() => list.refetch()} />;

  return (
    <>
      <h1>Templates</h1>
      <section className="card" aria-labelledby="templates-h">
        <div className="row">
          <h2 id="templates-h">Templates of {app.name}</h2>
          {dev && !creating && (
            <Button variant="secondary" onClick={() => setCreating(true)}>
              New template
            </Button>
          )}
        </div>
        {creating && (
          <CreateForm
            appId={appId}
            onDone={(t) => {
              setCreating(false);
              if (t) select(t.id!);
            }}
          />
        )}
        {list.data.length === 0 ? (
          <Empty title="No template yet">
            <p className="muted">A template holds what each channel sends: create one, then write its in-app and email content.</p>
          </Empty>
        ) : (
          <table className="table">
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Identifier</th>
                <th scope="col">
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {list.data.map((t) => (
                <tr key={t.id} aria-current={t.id === selected || undefined}>
                  <td>{t.name}</td>
                  <td>
                    <code>{t.identifier}</code>
                  </td>
                  <td className="actions">
                    <Button variant="ghost" aria-label={`${dev ? "Edit" : "View"} ${t.name}`} onClick={() => select(t.id!)}>
                      {dev ? "Edit" : "View"}
                    </Button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
      {selected && <Editor key={selected} templateId={selected} dev={dev} />}
    </>
  );
}

function CreateForm({ appId, onDone }: { appId: number; onDone: (t?: Template) => void }) {
  const qc = useQueryClient();
  const toast = useToast();
  const [name, setName] = useState("");
  const [identifier, setIdentifier] = useState("");
  const create = useMutation({
    mutationFn: () =>
      data(api.POST("/v1/apps/{appId}/templates", { params: { path: { appId } }, body: { name: name.trim(), identifier: identifier.trim() || undefined } })),
    onSuccess: (t) => {
      qc.invalidateQueries({ queryKey: ["apps", appId, "templates"] });
      toast(`${t.name} is created`);
      onDone(t);
    },
  });
  const errs = create.isError ? fieldErrors(create.error, ["name", "identifier", "description"]) : {};
  const submit = (e: FormEvent) => {
    e.preventDefault();
    create.mutate();
  };
  return (
    <form onSubmit={submit} noValidate aria-labelledby="create-h" className="subform">
      <h3 id="create-h">New template</h3>
      <Field label="Name" value={name} onChange={(e) => setName(e.target.value)} errors={errs["name"]} maxLength={100} hint="Empty takes the identifier." autoFocus />
      <Field
        label="Identifier"
        value={identifier}
        onChange={(e) => setIdentifier(e.target.value)}
        errors={errs["identifier"]}
        hint="Required: letters, digits, _ . -; fixed once created."
        autoComplete="off"
        aria-required
      />
      <FormError errors={errs[""] ?? errs["description"]} />
      <div className="row">
        <Button type="submit" busy={create.isPending}>
          Create
        </Button>
        <Button type="button" variant="ghost" onClick={() => onDone()}>
          Cancel
        </Button>
      </div>
    </form>
  );
}

const sampleDefault = JSON.stringify({ data: {}, user: { identifier: "user-1", profile: { firstName: "Ada" } } }, null, 2);

function Editor({ templateId, dev }: { templateId: number; dev: boolean }) {
  const qc = useQueryClient();
  const toast = useToast();
  const tpl = useQuery({
    queryKey: ["templates", templateId],
    queryFn: () => data(api.GET("/v1/templates/{templateId}", { params: { path: { templateId } } })),
  });
  const [edited, setEdited] = useState<EditedChannel | null>(null);
  const [sample, setSample] = useState(sampleDefault);
  const [previewKey, setPreviewKey] = useState(0);
  const parsed = parseSample(sample);
  const [debounced, setDebounced] = useState(parsed);
  useEffect(() => {
    const t = setTimeout(() => setDebounced(parsed), 300);
    return () => clearTimeout(t);
  }, [sample]); // eslint-disable-line react-hooks/exhaustive-deps
  useEffect(() => {
    if (tpl.data && !edited) setEdited(contentFields(tpl.data.contents ?? []));
  }, [tpl.data, edited]);
  const preview = useQuery({
    queryKey: ["templates", templateId, "preview", previewKey, JSON.stringify(debounced.body ?? null)],
    enabled: !!debounced.body && !!tpl.data,
    placeholderData: (prev) => prev,
    queryFn: () =>
      data(api.POST("/v1/templates/{templateId}/preview", { params: { path: { templateId } }, body: { ...debounced.body, channels: ["inApp", "email"] } })) as Promise<Preview>,
  });
  const save = useMutation({
    mutationFn: async (e: EditedChannel) => {
      const errs: { channel: string; err: unknown }[] = [];
      for (const channel of ["email", "inApp"] as const) {
        const content = Object.fromEntries(Object.entries(e[channel]).filter(([, v]) => v !== ""));
        if (Object.keys(content).length === 0) continue;
        try {
          await data(api.PUT("/v1/templates/{templateId}/contents/{channel}", { params: { path: { templateId, channel } }, body: { content } }));
        } catch (err) {
          errs.push({ channel, err });
        }
      }
      if (errs.length) throw new SaveError(errs);
    },
    onSettled: () => {
      qc.invalidateQueries({ queryKey: ["templates", templateId] });
      setPreviewKey((k) => k + 1);
    },
    onSuccess: () => toast(`${tpl.data?.name} is saved`),
  });

  if (tpl.isPending || !edited) return <Loading label="Loading the template" />;
  if (tpl.isError) return <ErrorState error={tpl.error} retry={() => tpl.refetch()} />;

  const names = ["content.subject", "content.html", "content.title", "content.message"];
  const errs = (channel: "email" | "inApp") => {
    const e = save.error instanceof SaveError ? save.error.errors.find((x) => x.channel === channel) : undefined;
    return e ? fieldErrors(e.err, names) : {};
  };
  const emailErrs = errs("email");
  const inAppErrs = errs("inApp");
  const set = (channel: "email" | "inApp", field: string) => (v: string) =>
    setEdited((s) => (s ? { ...s, [channel]: { ...s[channel], [field]: v } } : s));
  const warnings = preview.data?.warnings ?? [];
  const submit = (e: FormEvent) => {
    e.preventDefault();
    save.mutate(edited);
  };
  const email = preview.data?.channels?.["email"];
  const inApp = preview.data?.channels?.["inApp"];

  return (
    <section className="card" aria-labelledby="editor-h">
      <h2 id="editor-h">Edit {tpl.data.name}</h2>
      <div className="editor-grid">
        <form onSubmit={submit} noValidate aria-labelledby="editor-h">
          <fieldset disabled={!dev}>
            <legend>Email</legend>
            <Field label="Email subject" value={edited.email.subject} onChange={(e) => set("email", "subject")(e.target.value)} errors={emailErrs["content.subject"]} className="mono" />
            <TextArea label="Email HTML body" value={edited.email.html} onChange={(e) => set("email", "html")(e.target.value)} errors={emailErrs["content.html"]} rows={8} />
            <FormError errors={emailErrs[""]} />
          </fieldset>
          <fieldset disabled={!dev}>
            <legend>In-app</legend>
            <Field label="In-app title" value={edited.inApp.title} onChange={(e) => set("inApp", "title")(e.target.value)} errors={inAppErrs["content.title"]} className="mono" />
            <TextArea label="In-app message" value={edited.inApp.message} onChange={(e) => set("inApp", "message")(e.target.value)} errors={inAppErrs["content.message"]} rows={4} />
            <FormError errors={inAppErrs[""]} />
          </fieldset>
          <section aria-labelledby="warnings-h" className="warnings">
            <h3 id="warnings-h">Missing variables</h3>
            {warnings.length === 0 ? (
              <p className="muted">The sample data holds every variable the saved content uses.</p>
            ) : (
              <ul aria-labelledby="warnings-h">
                {warnings.map((w) => (
                  <li key={`${w.channel}.${w.field}.${w.variable}`}>
                    {w.channel === "email" ? "Email" : w.channel === "inApp" ? "In-app" : w.channel} {w.field}, line {w.line}: {w.message}
                  </li>
                ))}
              </ul>
            )}
          </section>
          {dev && (
            <div className="row">
              <Button type="submit" busy={save.isPending}>
                Save
              </Button>
            </div>
          )}
        </form>
        <div className="preview">
          <TextArea
            label="Sample data (JSON)"
            value={sample}
            onChange={(e) => setSample(e.target.value)}
            errors={parsed.error ? [parsed.error] : undefined}
            hint="The preview request: data, and user {identifier, profile}."
            rows={8}
          />
          <section aria-labelledby="preview-h" aria-busy={preview.isFetching || undefined}>
            <h3 id="preview-h">Preview of the saved content</h3>
            {preview.isError ? (
              <p className="field-error" role="alert">
                {(preview.error as Error).message}
              </p>
            ) : null}
            {Object.entries(preview.data?.errors ?? {}).map(([ch, m]) => (
              <p key={ch} className="field-error" role="alert">
                {ch}: {m}
              </p>
            ))}
            <h4 id="preview-inapp-h">In-app</h4>
            {inApp ? (
              <article className="inapp-card" aria-labelledby="preview-inapp-h">
                <strong>{inApp.title}</strong>
                <p>{inApp.message}</p>
              </article>
            ) : (
              <p className="muted">No in-app content saved.</p>
            )}
            <h4>Email</h4>
            {email ? (
              <>
                <p>
                  <span className="muted">Subject: </span>
                  <span data-testid="preview-subject">{email.subject}</span>
                </p>
                <iframe title="Email preview" sandbox="" srcDoc={email.html ?? ""} className="email-frame" />
              </>
            ) : (
              <p className="muted">No email content saved.</p>
            )}
          </section>
        </div>
      </div>
    </section>
  );
}

/** SaveError holds the error of each channel whose content did not save. */
class SaveError extends Error {
  constructor(public errors: { channel: string; err: unknown }[]) {
    super(errors.map((e) => (e.err as Error).message).join("; "));
  }
}

function TextArea({
  label,
  errors,
  hint,
  ...rest
}: { label: string; errors?: string[]; hint?: string } & TextareaHTMLAttributes<HTMLTextAreaElement>) {
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

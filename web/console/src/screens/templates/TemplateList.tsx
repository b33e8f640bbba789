// The app's templates: the list, the create form, and the editor of the one selected
// (?template=<id>).
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { useSearchParams } from "react-router-dom";
import { fieldErrors, type components } from "../../api/client";
import { keys } from "../../api/keys";
import { templatesApi, useTemplates } from "./api";
import { Button, Empty, ErrorState, Field, FormError, Loading, useToast } from "../../ui/kit";
import type { App } from "../queries";
import { Editor } from "./Editor";

type Template = components["schemas"]["NotificationTemplateEntity"];

export function TemplateList({ app, dev }: { app: App; dev: boolean }) {
  const appId = app.id!;
  const [params, setParams] = useSearchParams();
  const selected = Number(params.get("template")) || null;
  const select = (id: number | null) => setParams(id ? { template: String(id) } : {});
  const [creating, setCreating] = useState(false);
  const list = useTemplates(appId);

  if (list.isPending) return <Loading label="Loading templates" />;
  if (list.isError) return <ErrorState error={list.error} retry={() => list.refetch()} />;
  const current = list.data.find((t) => t.id === selected);

  return (
    <>
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
            <p className="muted">A template holds what each channel sends: create one, then write its email, in-app, SMS, push, chat or webhook content.</p>
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
      {selected && <Editor key={selected} app={app} templateId={selected} identifier={current?.identifier} dev={dev} />}
    </>
  );
}

function CreateForm({ appId, onDone }: { appId: number; onDone: (t?: Template) => void }) {
  const qc = useQueryClient();
  const toast = useToast();
  const [name, setName] = useState("");
  const [identifier, setIdentifier] = useState("");
  const create = useMutation({
    mutationFn: () => templatesApi.create(appId, { name: name.trim(), identifier: identifier.trim() || undefined }),
    onSuccess: (t) => {
      qc.invalidateQueries({ queryKey: keys.templates.all(appId) });
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

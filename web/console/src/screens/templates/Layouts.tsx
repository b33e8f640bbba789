// The app's email layouts: the HTML (and text) around an email's body, which goes where
// the layout writes {{{content}}}. List, create, edit, make default, delete.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { fieldErrors, type components } from "../../api/client";
import { keys } from "../../api/keys";
import { templatesApi, useLayouts } from "./api";
import { completionPaths } from "../../api/templateForm";
import { Button, Empty, ErrorState, Field, FormError, Loading, useToast } from "../../ui/kit";
import type { App } from "../queries";
import { CodeField } from "./CodeField";

type Layout = components["schemas"]["LayoutEntity"];

const starter = `<!doctype html>
<html>
  <body style="font-family: sans-serif; background: #f4f4f7; padding: 24px">
    <main style="background: #fff; padding: 24px; border-radius: 8px">
      {{{content}}}
    </main>
    <footer style="color: #666; font-size: 12px">Sent by {{app.name}}</footer>
  </body>
</html>`;

export function Layouts({ app, dev }: { app: App; dev: boolean }) {
  const appId = app.id!;
  const qc = useQueryClient();
  const toast = useToast();
  const [editing, setEditing] = useState<Layout | "new" | null>(null);
  const [confirm, setConfirm] = useState<number | null>(null);
  const list = useLayouts(appId);
  const remove = useMutation({
    mutationFn: (l: Layout) => templatesApi.deleteLayout(appId, l.id!),
    onSuccess: (_, l) => {
      setConfirm(null);
      toast(`${l.name || l.identifier} is deleted`);
      qc.invalidateQueries({ queryKey: keys.templates.layouts(appId) });
    },
  });
  if (list.isPending) return <Loading label="Loading layouts" />;
  if (list.isError) return <ErrorState error={list.error} retry={() => list.refetch()} />;
  return (
    <>
      <section className="card" aria-labelledby="layouts-h">
        <div className="row">
          <h2 id="layouts-h">Email layouts</h2>
          {dev && editing === null && (
            <Button variant="secondary" onClick={() => setEditing("new")}>
              New layout
            </Button>
          )}
        </div>
        {list.data.length === 0 ? (
          <Empty title="No layout yet">
            <p className="muted">A layout wraps every email body in your brand's HTML. Without one, emails are sent as written.</p>
          </Empty>
        ) : (
          <table className="table">
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Identifier</th>
                <th scope="col">Default</th>
                <th scope="col">
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {list.data.map((l) => (
                <tr key={l.id}>
                  <td>{l.name || l.identifier}</td>
                  <td>
                    <code>{l.identifier}</code>
                  </td>
                  <td>{l.default ? "Default" : ""}</td>
                  <td className="actions">
                    {dev && (
                      <>
                        <Button variant="ghost" aria-label={`Edit layout ${l.identifier}`} onClick={() => setEditing(l)}>
                          Edit
                        </Button>
                        {confirm === l.id ? (
                          <>
                            <Button variant="danger" busy={remove.isPending} aria-label={`Confirm deleting layout ${l.identifier}`} onClick={() => remove.mutate(l)}>
                              Delete for good
                            </Button>
                            <Button variant="ghost" onClick={() => setConfirm(null)}>
                              Keep
                            </Button>
                          </>
                        ) : (
                          <Button variant="ghost" aria-label={`Delete layout ${l.identifier}`} onClick={() => setConfirm(l.id!)}>
                            Delete
                          </Button>
                        )}
                      </>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        {remove.isError && <FormError errors={[(remove.error as Error).message]} />}
      </section>
      {editing !== null && <LayoutForm key={editing === "new" ? "new" : editing.id} appId={appId} layout={editing === "new" ? undefined : editing} onDone={() => setEditing(null)} />}
    </>
  );
}

function LayoutForm({ appId, layout, onDone }: { appId: number; layout?: Layout; onDone: () => void }) {
  const qc = useQueryClient();
  const toast = useToast();
  const [identifier, setIdentifier] = useState("");
  const [name, setName] = useState(layout?.name ?? "");
  const [html, setHtml] = useState(layout?.html ?? starter);
  const [text, setText] = useState(layout?.text ?? "{{{content}}}");
  const [isDefault, setDefault] = useState(layout?.default ?? false);
  const save = useMutation({
    mutationFn: () =>
      layout
        ? templatesApi.updateLayout(appId, layout.id!, { name, html, text, default: isDefault })
        : templatesApi.createLayout(appId, { identifier: identifier.trim(), name, html, text, default: isDefault }),
    onSuccess: (l) => {
      toast(`${l.name || l.identifier} is saved`);
      qc.invalidateQueries({ queryKey: keys.templates.layouts(appId) });
      onDone();
    },
  });
  const errs = save.isError ? fieldErrors(save.error, ["identifier", "name", "html", "text", "default"]) : {};
  const paths = completionPaths(undefined);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    save.mutate();
  };
  const title = layout ? `Edit layout ${layout.identifier}` : "New layout";
  const sample = html.replace(/\{\{\{\s*content\s*\}\}\}/g, "<h1>Your email's body</h1><p>goes here.</p>");
  return (
    <section className="card" aria-labelledby="layout-form-h">
      <h2 id="layout-form-h">{title}</h2>
      <div className="editor-grid">
        <form onSubmit={submit} noValidate aria-labelledby="layout-form-h">
          {!layout && (
            <Field label="Identifier" value={identifier} onChange={(e) => setIdentifier(e.target.value)} errors={errs["identifier"]} hint="Letters, digits, _ . -; fixed once created." autoComplete="off" aria-required />
          )}
          <Field label="Layout name" value={name} onChange={(e) => setName(e.target.value)} errors={errs["name"]} />
          <CodeField label="Layout HTML" value={html} onChange={setHtml} lang="html" lines={12} paths={paths} errors={errs["html"]} hint="Must contain {{{content}}}: the email's body goes there." />
          <CodeField label="Layout plain text" value={text} onChange={setText} lines={3} paths={paths} errors={errs["text"]} />
          <label className="check-row">
            <input type="checkbox" checked={isDefault} onChange={(e) => setDefault(e.target.checked)} /> The app's default layout
          </label>
          <FormError errors={errs[""] ?? errs["default"]} />
          <div className="row">
            <Button type="submit" busy={save.isPending}>
              Save layout
            </Button>
            <Button type="button" variant="ghost" onClick={onDone}>
              Cancel
            </Button>
          </div>
        </form>
        <div className="preview">
          <h3 id="layout-preview-h">Layout preview</h3>
          <p className="muted small">A placeholder body in place of {"{{{content}}}"}; variables show as written.</p>
          <iframe title="Layout preview" sandbox="" srcDoc={sample} className="email-frame" />
        </div>
      </div>
    </section>
  );
}

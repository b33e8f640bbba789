// The app's translations: per locale, the strings templates print with {{t "key"}} (and
// inapp.* keys that translate the inbox). The recipient's profile locale picks one; the
// default locale fills in for the others.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { fieldErrors, type components } from "../../api/client";
import { keys } from "../../api/keys";
import { templatesApi, useTranslations } from "./api";
import { translationEntries, type EntryRow } from "../../api/templateForm";
import { Button, Empty, ErrorState, Field, FormError, Loading, useToast } from "../../ui/kit";
import type { App } from "../queries";

type Translation = components["schemas"]["TranslationEntity"];

export function Translations({ app, dev }: { app: App; dev: boolean }) {
  const appId = app.id!;
  const [editing, setEditing] = useState<Translation | "new" | null>(null);
  const list = useTranslations(appId);
  if (list.isPending) return <Loading label="Loading translations" />;
  if (list.isError) return <ErrorState error={list.error} retry={() => list.refetch()} />;
  const rows = list.data.data ?? [];
  return (
    <>
      <section className="card" aria-labelledby="translations-h">
        <div className="row">
          <h2 id="translations-h">Translations</h2>
          {dev && editing === null && (
            <Button variant="secondary" onClick={() => setEditing("new")}>
              New locale
            </Button>
          )}
        </div>
        <p className="muted">
          Templates print a locale's string with <code>{'{{t "key"}}'}</code>; the recipient's profile locale picks the locale.
        </p>
        {rows.length === 0 ? (
          <Empty title="No translation yet" />
        ) : (
          <table className="table">
            <thead>
              <tr>
                <th scope="col">Locale</th>
                <th scope="col">Strings</th>
                <th scope="col">Default</th>
                <th scope="col">
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {rows.map((t) => (
                <tr key={t.locale}>
                  <td>
                    <code>{t.locale}</code>
                  </td>
                  <td>{Object.keys(t.entries ?? {}).length}</td>
                  <td>{t.default ? "Default" : ""}</td>
                  <td className="actions">
                    <Button variant="ghost" aria-label={`${dev ? "Edit" : "View"} locale ${t.locale}`} onClick={() => setEditing(t)}>
                      {dev ? "Edit" : "View"}
                    </Button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
      {editing !== null && (
        <TranslationForm key={editing === "new" ? "new" : editing.locale} appId={appId} dev={dev} translation={editing === "new" ? undefined : editing} onDone={() => setEditing(null)} />
      )}
    </>
  );
}

function TranslationForm({ appId, dev, translation, onDone }: { appId: number; dev: boolean; translation?: Translation; onDone: () => void }) {
  const qc = useQueryClient();
  const toast = useToast();
  const [locale, setLocale] = useState(translation?.locale ?? "");
  const [isDefault, setDefault] = useState(translation?.default ?? false);
  const [rows, setRows] = useState<EntryRow[]>(() => {
    const r = Object.entries(translation?.entries ?? {}).map(([key, text]) => ({ key, text }));
    return r.length ? r : [{ key: "", text: "" }];
  });
  const [problems, setProblems] = useState<string[]>([]);
  const save = useMutation({
    mutationFn: (entries: Record<string, string>) => templatesApi.saveTranslation(appId, { locale: locale.trim(), entries, default: isDefault }),
    onSuccess: (t) => {
      toast(`${t.locale} is saved`);
      qc.invalidateQueries({ queryKey: keys.templates.translations(appId) });
      onDone();
    },
  });
  const errs = save.isError ? fieldErrors(save.error, ["locale", "entries", "default"]) : {};
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const { entries, problems } = translationEntries(rows);
    setProblems(problems);
    if (problems.length === 0) save.mutate(entries);
  };
  // Any change of the rows clears the problems found at the last save.
  const edit = (f: (rs: EntryRow[]) => EntryRow[]) => {
    setRows(f);
    setProblems([]);
  };
  const setRow = (i: number, r: Partial<EntryRow>) => edit((rs) => rs.map((x, j) => (j === i ? { ...x, ...r } : x)));
  const title = translation ? `Locale ${translation.locale}` : "New locale";
  return (
    <section className="card" aria-labelledby="translation-form-h">
      <h2 id="translation-form-h">{title}</h2>
      <form onSubmit={submit} noValidate aria-labelledby="translation-form-h">
        <fieldset disabled={!dev} className="plain">
          {!translation && <Field label="Locale" value={locale} onChange={(e) => setLocale(e.target.value)} errors={errs["locale"]} hint="A language tag: en, pt-BR." autoComplete="off" aria-required />}
          <table className="table entries">
            <thead>
              <tr>
                <th scope="col">Key</th>
                <th scope="col">Text</th>
                <th scope="col">
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {rows.map((r, i) => (
                <tr key={i}>
                  <td>
                    <input aria-label={`Key ${i + 1}`} className="mono" value={r.key} onChange={(e) => setRow(i, { key: e.target.value })} />
                  </td>
                  <td>
                    <input aria-label={`Text ${i + 1}`} value={r.text} onChange={(e) => setRow(i, { text: e.target.value })} />
                  </td>
                  <td className="actions">
                    <Button type="button" variant="ghost" aria-label={`Remove string ${i + 1}`} onClick={() => edit((rs) => rs.filter((_, j) => j !== i))}>
                      Remove
                    </Button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          <Button type="button" variant="ghost" onClick={() => edit((rs) => [...rs, { key: "", text: "" }])}>
            Add a string
          </Button>
          <label className="check-row">
            <input type="checkbox" checked={isDefault} onChange={(e) => setDefault(e.target.checked)} /> The default locale
          </label>
          <FormError errors={problems.length ? problems : (errs[""] ?? errs["entries"] ?? errs["default"])} />
        </fieldset>
        <div className="row">
          {dev && (
            <Button type="submit" busy={save.isPending}>
              Save locale
            </Button>
          )}
          <Button type="button" variant="ghost" onClick={onDone}>
            {dev ? "Cancel" : "Close"}
          </Button>
        </div>
      </form>
    </section>
  );
}

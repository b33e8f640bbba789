// App settings: the API key, the API secret (revealed to admins and owners), the origins
// allowed to embed the inbox widget, secure mode and the data retention.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useEffect, useState, type FormEvent } from "react";
import { useOutletContext } from "react-router-dom";
import { fieldErrors } from "../../api/client";
import { Button, CopyButton, ErrorState, Field, FormError, Loading, useToast } from "../../ui/kit";
import { atLeast, useClients, type App } from "../queries";
import { Retention } from "./Retention";
import { SecureMode } from "./SecureMode";
import { keys } from "../../api/keys";
import { settingsApi, useSecret } from "./api";

export default function Settings() {
  const app = useOutletContext<App>();
  const clients = useClients();
  const role = clients.data?.find((c) => c.id === app.clientId)?.role;
  useEffect(() => {
    document.title = `Settings · ${app.name} · Herald`;
  }, [app.name]);
  if (clients.isPending) return <Loading />;
  if (clients.isError) return <ErrorState error={clients.error} retry={() => clients.refetch()} />;
  return (
    <>
      <h1>Settings</h1>
      <Credentials app={app} mayReveal={atLeast(role, "admin")} />
      <Origins app={app} mayEdit={atLeast(role, "admin")} />
      <SecureMode app={app} role={role} />
      <Retention app={app} mayEdit={atLeast(role, "admin")} />
    </>
  );
}

function Credentials({ app, mayReveal }: { app: App; mayReveal: boolean }) {
  const [shown, setShown] = useState(false);
  const secret = useSecret(app.id!, shown && mayReveal);
  return (
    <section className="card" aria-labelledby="cred-h">
      <h2 id="cred-h">API credentials</h2>
      <dl className="kv">
        <dt>App ID</dt>
        <dd>
          <code>{app.id}</code>
        </dd>
        <dt>API key</dt>
        <dd className="row">
          <code aria-label="API key">{app.apiKey}</code>
          <CopyButton text={app.apiKey ?? ""} what="API key" />
        </dd>
        <dt>API secret</dt>
        <dd className="row">
          {!mayReveal ? (
            <span className="muted">Only admins and owners of the team can see the secret.</span>
          ) : !shown ? (
            <>
              <code aria-label="API secret (hidden)">••••••••••••••••</code>
              <Button variant="secondary" onClick={() => setShown(true)}>
                Reveal secret
              </Button>
            </>
          ) : secret.isPending ? (
            <Loading label="Revealing" />
          ) : secret.isError ? (
            <ErrorState error={secret.error} retry={() => secret.refetch()} />
          ) : (
            <>
              <code aria-label="API secret">{secret.data.apiSecret}</code>
              <CopyButton text={secret.data.apiSecret ?? ""} what="API secret" />
              <Button variant="ghost" onClick={() => setShown(false)}>
                Hide
              </Button>
            </>
          )}
        </dd>
      </dl>
      <p className="muted">Keep the secret on your servers: it sends notifications as this app. The key alone is safe in a browser.</p>
    </section>
  );
}

function Origins({ app, mayEdit }: { app: App; mayEdit: boolean }) {
  const qc = useQueryClient();
  const toast = useToast();
  const [text, setText] = useState((app.allowedOrigins ?? []).join(", "));
  const save = useMutation({
    mutationFn: (origins: string[]) =>
      settingsApi.setAllowedOrigins(app.id!, origins),
    onSuccess: (a) => {
      qc.setQueryData(keys.apps.detail(app.id), a);
      toast("Allowed origins saved");
    },
  });
  const errs = fieldErrors(save.error, ["allowedOrigins"]);
  return (
    <section className="card" aria-labelledby="origins-h">
      <h2 id="origins-h">Inbox widget</h2>
      <p className="muted">
        Web pages on these origins may show the <code>&lt;herald-inbox&gt;</code> widget for this app's users.
      </p>
      <form
        onSubmit={(e: FormEvent) => {
          e.preventDefault();
          save.mutate(
            text
              .split(/[\s,]+/)
              .map((s) => s.trim())
              .filter(Boolean),
          );
        }}
        noValidate
      >
        <FormError errors={errs[""]} />
        <Field
          label="Allowed origins"
          name="allowedOrigins"
          value={text}
          onChange={(e) => setText(e.target.value)}
          disabled={!mayEdit}
          placeholder={mayEdit ? "https://app.example.com, http://localhost:3000" : "none"}
          hint="Separate origins with commas. An empty list allows none; * allows any."
          errors={errs.allowedOrigins}
        />
        {mayEdit && (
          <Button type="submit" busy={save.isPending}>
            Save origins
          </Button>
        )}
      </form>
    </section>
  );
}

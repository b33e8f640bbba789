// "Send your first notification": a curl command and Go, Node.js and Python programs on
// Herald's SDKs, with the app's real key (and its secret for those allowed to see it), the
// install and run commands, copy buttons, and a check that turns green when the first send
// arrives (integration status, polled).
import * as Tabs from "@radix-ui/react-tabs";
import { useEffect } from "react";
import { useOutletContext } from "react-router-dom";
import { CopyButton, ErrorState, Loading } from "../../ui/kit";
import { atLeast, useClients, type App } from "../queries";
import { snippetLanguages, snippets, type Snippet } from "../snippets";
import { useIntegrationStatus, useSecret } from "./api";

export default function GetStarted() {
  const app = useOutletContext<App>();
  const clients = useClients();
  const role = clients.data?.find((c) => c.id === app.clientId)?.role;
  const mayReveal = atLeast(role, "admin");
  useEffect(() => {
    document.title = `Get started · ${app.name} · Herald`;
  }, [app.name]);
  const secret = useSecret(app.id!, mayReveal);
  const status = useIntegrationStatus(app.id!);
  if (clients.isPending || (mayReveal && secret.isPending)) return <Loading label="Loading your key" />;
  if (clients.isError) return <ErrorState error={clients.error} retry={() => clients.refetch()} />;
  const secretText = secret.data?.apiSecret ?? "$HERALD_API_SECRET";
  const all = snippets(window.location.origin, app.apiKey ?? "", secretText);
  const sent = status.data?.integrationStatus?.hasSent === true;

  return (
    <>
      <h1>Send your first notification</h1>
      <p className="muted">
        Pick your language and run the snippet. It sends an in-app notification to the user <code>first-user</code> of{" "}
        <strong>{app.name}</strong>; Herald creates the user on the fly.
      </p>
      {!mayReveal && (
        <p className="notice" role="note">
          Your role cannot see this app's API secret: ask an admin of the team for it and set <code>HERALD_API_SECRET</code>.
        </p>
      )}
      {secret.isError && <ErrorState error={secret.error} retry={() => secret.refetch()} />}
      <Tabs.Root defaultValue="curl" className="tabs">
        <Tabs.List aria-label="Snippet language" className="tab-list">
          {snippetLanguages.map((lang) => (
            <Tabs.Trigger key={lang} value={lang} className="tab">
              {all[lang].label}
            </Tabs.Trigger>
          ))}
        </Tabs.List>
        {snippetLanguages.map((lang) => (
          <Tabs.Content key={lang} value={lang} className="tab-panel">
            <SnippetPanel snippet={all[lang]} />
          </Tabs.Content>
        ))}
      </Tabs.Root>
      <section className={`check ${sent ? "check-ok" : ""}`} aria-live="polite" aria-labelledby="check-h">
        <span className="check-dot" aria-hidden="true" />
        <div>
          <h2 id="check-h">{sent ? "First notification received" : "Waiting for your first notification…"}</h2>
          <p className="muted">
            {status.isError
              ? "Could not check: " + (status.error as Error).message
              : sent
                ? "Herald accepted a send for this app. Next, configure a channel such as email."
                : "This turns green as soon as Herald receives a send for this app."}
          </p>
        </div>
      </section>
    </>
  );
}

/** SnippetPanel is one language's tab: the SDK's install command, the program (or curl's
 * command) and how to run it, each copyable. */
function SnippetPanel({ snippet }: { snippet: Snippet }) {
  const what = snippet.file ? `${snippet.label} snippet` : `${snippet.label} command`;
  return (
    <>
      {snippet.install && (
        <>
          <div className="code-head">
            <span>Install the SDK</span>
            <CopyButton text={snippet.install} what={`${snippet.label} install command`} />
          </div>
          <pre className="code code-line" aria-label={`${snippet.label} install command`} tabIndex={0}>
            {snippet.install}
          </pre>
        </>
      )}
      <div className="code-head">
        <span>{snippet.file ? `Save as ${snippet.file}` : "Terminal"}</span>
        <CopyButton text={snippet.code} what={what} />
      </div>
      <pre className="code" aria-label={what} tabIndex={0}>
        {snippet.code}
      </pre>
      {snippet.run && (
        <p className="muted snippet-run">
          {snippet.file ? "In the same folder, run" : "Run"} <code>{snippet.run}</code>
        </p>
      )}
    </>
  );
}

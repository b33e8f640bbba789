// Secure mode of an app: the RS256 signing key (generated here, its private key shown
// once), turning secure mode on and off, and a test token for one of the app's users.
import * as Dialog from "@radix-ui/react-dialog";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { fieldErrors } from "../../api/client";
import { Button, CopyButton, Field, FormError } from "../../ui/kit";
import { atLeast, type App, type Role } from "../queries";
import { isInsecure, NotSecureBadge } from "../../ui/insecure";
import { keys } from "../../api/keys";
import { settingsApi } from "./api";

export function SecureMode({ app, role }: { app: App; role: Role | undefined }) {
  const qc = useQueryClient();
  const admin = atLeast(role, "admin");
  const [privateKey, setPrivateKey] = useState<string | null>(null);
  const [confirm, setConfirm] = useState(false);
  const hasKey = Boolean(app.publicKey);
  const generate = useMutation({
    mutationFn: () => settingsApi.generateRsaKey(app.id!),
    onSuccess: (a) => {
      setConfirm(false);
      setPrivateKey(a.privateKey ?? null);
      const { privateKey: _drop, ...rest } = a;
      qc.setQueryData(keys.apps.detail(app.id), { ...app, ...rest });
    },
  });
  const toggle = useMutation({
    mutationFn: () => settingsApi.toggleSecureAuth(app.id!),
    onSuccess: (a) => qc.setQueryData(keys.apps.detail(app.id), { ...app, ...a }),
  });
  return (
    <section className="card" aria-labelledby="secure-h">
      <h2 id="secure-h">Secure mode</h2>
      <p className="muted">
        In secure mode the inbox of a user opens only with a token your server signs for that user (RS256), so nobody can read
        another user's inbox by knowing their identifier.
      </p>
      <p role="status">
        Secure mode is <strong>{app.secureAuth ? "on" : "off"}</strong>. {hasKey ? "A signing key is set." : "No signing key yet."}
        <NotSecureBadge app={app} />
      </p>
      {isInsecure(app) && (
        <div className="insecure-steps" role="region" aria-label="What turning on secure mode takes">
          <p>
            <strong>This app is not secure.</strong> Anyone with its API key, which is public in your pages, can read any user's
            inbox and change their delivery addresses and preferences by sending their user id. Turning on secure mode takes:
          </p>
          <ol>
            <li>Generate the signing key pair below, and keep the private key on your backend only.</li>
            <li>
              Sign a JWT for each signed-in user on your backend: RS256 with the private key, <code>sub</code> the user id,{" "}
              <code>apiKey</code> this app's API key, and an <code>exp</code> (tokens without one are refused).
            </li>
            <li>
              Pass the token to the inbox widget (<code>user-token</code>, with <code>refreshUserToken</code> to renew it), and
              to your own calls as <code>Authorization: Bearer</code>.
            </li>
            <li>Turn secure mode on: calls with only the API key and a user id are then refused.</li>
          </ol>
        </div>
      )}
      {admin && (
        <div className="row">
          {hasKey ? (
            <Dialog.Root open={confirm} onOpenChange={(o) => (setConfirm(o), generate.reset())}>
              <Dialog.Trigger asChild>
                <Button variant="secondary">Generate a new signing key</Button>
              </Dialog.Trigger>
              <Dialog.Portal>
                <Dialog.Overlay className="overlay" />
                <Dialog.Content className="dialog">
                  <Dialog.Title>Replace the signing key?</Dialog.Title>
                  <Dialog.Description className="muted">
                    Tokens signed with the current private key stop working at once; update your server with the new key.
                  </Dialog.Description>
                  <FormError errors={generate.error ? fieldErrors(generate.error, [])[""] : undefined} />
                  <div className="dialog-actions">
                    <Dialog.Close asChild>
                      <Button variant="secondary">Cancel</Button>
                    </Dialog.Close>
                    <Button variant="danger" busy={generate.isPending} onClick={() => generate.mutate()}>
                      Replace the key
                    </Button>
                  </div>
                </Dialog.Content>
              </Dialog.Portal>
            </Dialog.Root>
          ) : (
            <Button variant="secondary" busy={generate.isPending} onClick={() => generate.mutate()}>
              Generate a signing key
            </Button>
          )}
          <Button busy={toggle.isPending} disabled={!hasKey && !app.secureAuth} aria-describedby={hasKey ? undefined : "secure-needs-key"} onClick={() => toggle.mutate()}>
            {app.secureAuth ? "Turn secure mode off" : "Turn secure mode on"}
          </Button>
          {!hasKey && (
            <span id="secure-needs-key" className="hint">
              Generate a signing key first.
            </span>
          )}
        </div>
      )}
      <FormError errors={toggle.error ? fieldErrors(toggle.error, [])[""] : generate.error && !confirm ? fieldErrors(generate.error, [])[""] : undefined} />
      {privateKey && (
        <div className="secret-once" role="region" aria-label="New private key">
          <p>
            <strong>Copy the private key now:</strong> Herald keeps it to sign test tokens but never shows it again. Your server
            signs your users' tokens with it.
          </p>
          <pre className="code" aria-label="Private key" tabIndex={0}>
            {privateKey}
          </pre>
          <div className="row">
            <CopyButton text={privateKey} what="private key" />
            <Button variant="ghost" onClick={() => setPrivateKey(null)}>
              Done
            </Button>
          </div>
        </div>
      )}
      {hasKey && atLeast(role, "developer") && <TestToken app={app} />}
    </section>
  );
}

function TestToken({ app }: { app: App }) {
  const mint = useMutation({
    mutationFn: (user: string) => settingsApi.testToken(app.id!, user),
  });
  const errs = fieldErrors(mint.error, ["userIdentifier"]);
  return (
    <form
      className="inline-form"
      aria-label="Create a test token"
      onSubmit={(e: FormEvent<HTMLFormElement>) => {
        e.preventDefault();
        mint.mutate(String(new FormData(e.currentTarget).get("user") ?? "").trim());
      }}
      noValidate
    >
      <FormError errors={errs[""]} />
      <Field label="User for a test token" name="user" placeholder="user identifier (default: your email)" errors={errs.userIdentifier} />
      <Button type="submit" variant="secondary" busy={mint.isPending}>
        Create test token
      </Button>
      {mint.data && (
        <div className="token">
          <p className="muted">
            For <strong>{mint.data.identifier}</strong>, valid until {new Date(mint.data.expiresAt ?? "").toLocaleString()}:
          </p>
          <div className="row">
            <code aria-label="Test token" className="small">
              {mint.data.token}
            </code>
            <CopyButton text={mint.data.token ?? ""} what="test token" />
          </div>
        </div>
      )}
    </form>
  );
}

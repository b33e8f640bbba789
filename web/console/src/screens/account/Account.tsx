// The account page: who is signed in, and two-factor authentication: set-up with the QR
// code, the recovery codes (shown once), and turning it off with a code.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useEffect, useState, type FormEvent } from "react";
import { fieldErrors } from "../../api/client";
import { Button, CopyButton, ErrorState, Field, FormError, Loading } from "../../ui/kit";
import { keys } from "../../api/keys";
import { accountApi, useMe, useTwoFactorSetup } from "./api";

export default function Account() {
  const qc = useQueryClient();
  useEffect(() => {
    document.title = "Account · Herald";
  }, []);
  const me = useMe();
  const [setup, setSetup] = useState(false);
  const [codes, setCodes] = useState<string[] | null>(null);
  if (me.isPending) return <Loading label="Loading your account" />;
  if (me.isError) return <ErrorState error={me.error} retry={() => me.refetch()} />;
  const enabled = me.data.twoFactorEnabled === true;
  const done = (next: string[] | null) => {
    setSetup(false);
    setCodes(next);
    qc.invalidateQueries({ queryKey: keys.me() });
  };
  return (
    <main className="page narrow">
      <h1>Your account</h1>
      <section className="card" aria-labelledby="me-h">
        <h2 id="me-h">Profile</h2>
        <dl className="kv">
          <dt>Name</dt>
          <dd>{me.data.name || "—"}</dd>
          <dt>Email</dt>
          <dd>{me.data.email}</dd>
        </dl>
      </section>
      <section className="card" aria-labelledby="tfa-h">
        <h2 id="tfa-h">Two-factor authentication</h2>
        {codes ? (
          <RecoveryCodes codes={codes} onDone={() => setCodes(null)} />
        ) : enabled ? (
          <Disable onDone={() => done(null)} />
        ) : setup ? (
          <Setup onDone={(c) => done(c)} onCancel={() => setSetup(false)} />
        ) : (
          <>
            <p className="muted">Off. Add a code from an authenticator app to every sign-in.</p>
            <Button onClick={() => setSetup(true)}>Set up two-factor authentication</Button>
          </>
        )}
      </section>
    </main>
  );
}

function Setup({ onDone, onCancel }: { onDone: (codes: string[]) => void; onCancel: () => void }) {
  const secret = useTwoFactorSetup();
  const enable = useMutation({
    mutationFn: (code: string) => accountApi.enableTwoFactor(code),
    onSuccess: (r) => onDone(r.recoveryCodes ?? []),
  });
  if (secret.isPending) return <Loading label="Creating your secret" />;
  if (secret.isError) return <ErrorState error={secret.error} retry={() => secret.refetch()} />;
  const errs = fieldErrors(enable.error, ["code"]);
  return (
    <>
      <p>Scan this QR code with your authenticator app, or type the key in, then enter the code it shows.</p>
      <img className="qr" src={secret.data.qrCode} alt="QR code of your two-factor secret" width="180" height="180" />
      <p className="row">
        Key: <code aria-label="Two-factor key">{secret.data.secret}</code>
        <CopyButton text={secret.data.secret ?? ""} what="two-factor key" />
      </p>
      <form
        onSubmit={(e: FormEvent<HTMLFormElement>) => {
          e.preventDefault();
          enable.mutate(String(new FormData(e.currentTarget).get("code") ?? "").trim());
        }}
        noValidate
      >
        <FormError errors={errs[""]} />
        <Field label="Code from the app" name="code" inputMode="numeric" autoComplete="one-time-code" required errors={errs.code} />
        <div className="row">
          <Button type="submit" busy={enable.isPending}>
            Turn on
          </Button>
          <Button type="button" variant="secondary" onClick={onCancel}>
            Cancel
          </Button>
        </div>
      </form>
    </>
  );
}

function RecoveryCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  return (
    <>
      <p role="status">
        Two-factor authentication is on. Save these recovery codes somewhere safe: each signs you in once if you lose your
        authenticator. They are shown only now.
      </p>
      <ul className="codes" aria-label="Recovery codes">
        {codes.map((c) => (
          <li key={c}>
            <code>{c}</code>
          </li>
        ))}
      </ul>
      <div className="row">
        <CopyButton text={codes.join("\n")} what="recovery codes" />
        <Button onClick={onDone}>I saved them</Button>
      </div>
    </>
  );
}

function Disable({ onDone }: { onDone: () => void }) {
  const disable = useMutation({
    mutationFn: (code: string) => accountApi.disableTwoFactor(code),
    onSuccess: onDone,
  });
  const errs = fieldErrors(disable.error, ["code"]);
  return (
    <>
      <p>
        <strong>On.</strong> Every sign-in asks for a code from your authenticator app.
      </p>
      <form
        onSubmit={(e: FormEvent<HTMLFormElement>) => {
          e.preventDefault();
          disable.mutate(String(new FormData(e.currentTarget).get("code") ?? "").trim());
        }}
        noValidate
      >
        <FormError errors={errs[""]} />
        <Field label="Code to turn it off" name="code" autoComplete="one-time-code" required hint="A code from the app or a recovery code." errors={errs.code} />
        <Button type="submit" variant="danger" busy={disable.isPending}>
          Turn off two-factor authentication
        </Button>
      </form>
    </>
  );
}

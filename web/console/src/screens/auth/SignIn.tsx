// Sign in: with a password or a code host, then the two-factor challenge when the account has one.
import { useMutation } from "@tanstack/react-query";
import { useEffect, useRef, useState } from "react";
import { Link, Navigate, useLocation, useNavigate, useSearchParams } from "react-router-dom";
import { fieldErrors } from "../../api/client";
import { codeHostLabel } from "../../api/codehost";
import { useSession, type User } from "../../auth/session";
import { Button, Field, FormError, Loading } from "../../ui/kit";
import { authApi, useCodeHostOptions } from "./api";
import { AuthPage, useAfterSignIn, values } from "./shared";

type SignInAnswer = { accessToken?: string; user?: User; twoFactorRequired?: boolean; challengeToken?: string };

export function SignIn() {
  const { state, signedIn } = useSession();
  const navigate = useNavigate();
  const target = useAfterSignIn();
  const [params] = useSearchParams();
  const m = useMutation({
    mutationFn: (v: Record<string, string>) =>
      authApi.signIn(v.email ?? "", v.password ?? ""),
    onSuccess: (r: SignInAnswer) => {
      if (r.twoFactorRequired && r.challengeToken) {
        navigate(`/two-factor?next=${encodeURIComponent(target)}`, { state: { challengeToken: r.challengeToken } });
      } else if (r.accessToken && r.user) {
        signedIn(r.accessToken, r.user);
        navigate(target, { replace: true });
      }
    },
  });
  if (state.status === "signedIn" && !m.isSuccess) return <Navigate to={target} replace />;
  const errs = fieldErrors(m.error, ["email", "password"]);
  return (
    <AuthPage
      title="Sign in to Herald"
      footer={
        <>
          New here? <Link to="/signup">Create an account</Link>
        </>
      }
    >
      <form onSubmit={(e) => m.mutate(values(e))} noValidate>
        <FormError errors={errs[""]} />
        <Field label="Email" name="email" type="email" autoComplete="email" required defaultValue={params.get("email") ?? ""} errors={errs.email} />
        <Field label="Password" name="password" type="password" autoComplete="current-password" required errors={errs.password} />
        <Button type="submit" busy={m.isPending}>
          Sign in
        </Button>
      </form>
      <CodeHostButtons target={target} />
      <p className="muted">
        <Link to="/forgot-password">Forgot your password?</Link>
      </p>
    </AuthPage>
  );
}

/** CodeHostButtons offers "Sign in with <code host>" when code-host sign-in is configured. */
function CodeHostButtons({ target }: { target: string }) {
  const options = useCodeHostOptions();
  const start = useMutation({
    mutationFn: () => authApi.codeHostStart(target),
    onSuccess: (r) => {
      if (r.url) window.location.assign(r.url);
    },
  });
  const hosts = options.data?.codeHosts ?? [];
  if (hosts.length === 0) return null;
  return (
    <div className="codehost" role="group" aria-label="Other ways to sign in">
      <p className="muted small">or</p>
      {hosts.map((h) => (
        <Button key={h.name} variant="secondary" type="button" busy={start.isPending} onClick={() => start.mutate()}>
          Sign in with {codeHostLabel(h.name)}
        </Button>
      ))}
      <FormError errors={start.error ? [(start.error as Error).message] : undefined} />
    </div>
  );
}

/** CodeHostCallback is where the code host sends the browser back: it completes the sign-in
 * with the code and state, then goes to the page the sign-in started from. */
export function CodeHostCallback() {
  const { signedIn } = useSession();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const code = params.get("code") ?? "";
  const state = params.get("state") ?? "";
  const denied = params.get("error_description") ?? params.get("error");
  const sent = useRef(false);
  const m = useMutation({
    mutationFn: () => authApi.codeHostFinish(code, state),
    onSuccess: (r: SignInAnswer & { redirect?: string }) => {
      const next = r.redirect && r.redirect.startsWith("/") && !r.redirect.startsWith("//") ? r.redirect : "/";
      if (r.twoFactorRequired && r.challengeToken) {
        navigate(`/two-factor?next=${encodeURIComponent(next)}`, { state: { challengeToken: r.challengeToken }, replace: true });
      } else if (r.accessToken && r.user) {
        signedIn(r.accessToken, r.user);
        navigate(next, { replace: true });
      }
    },
  });
  useEffect(() => {
    if (sent.current || denied || !code || !state) return;
    sent.current = true;
    m.mutate();
  }, [code, state, denied, m]);
  const failed = denied ? denied : !code || !state ? "The code host sent no authorization code." : m.isError ? (m.error as Error).message : null;
  return (
    <AuthPage title="Signing in">
      {failed ? (
        <>
          <FormError errors={[failed]} />
          <p>
            <Link to="/signin">Back to sign in</Link>
          </p>
        </>
      ) : (
        <Loading label="Completing the sign-in" />
      )}
    </AuthPage>
  );
}

export function TwoFactor() {
  const { signedIn } = useSession();
  const navigate = useNavigate();
  const loc = useLocation();
  const target = useAfterSignIn();
  const challenge = (loc.state as { challengeToken?: string } | null)?.challengeToken;
  const [recovery, setRecovery] = useState(false);
  const m = useMutation({
    mutationFn: (code: string) => (recovery ? authApi.twoFactorRecovery(challenge, code) : authApi.twoFactorValidate(challenge, code)),
    onSuccess: (r: SignInAnswer) => {
      if (r.accessToken && r.user) {
        signedIn(r.accessToken, r.user);
        navigate(target, { replace: true });
      }
    },
  });
  if (!challenge) return <Navigate to="/signin" replace />;
  const errs = fieldErrors(m.error, recovery ? ["recoveryCode"] : ["code"]);
  return (
    <AuthPage title="Two-factor authentication">
      <form onSubmit={(e) => m.mutate(values(e).code ?? "")} noValidate>
        <p className="muted">
          {recovery ? "Enter one of the recovery codes you saved when you set up two-factor authentication." : "Enter the 6-digit code from your authenticator app."}
        </p>
        <FormError errors={errs[""]} />
        <Field
          key={recovery ? "r" : "t"}
          label={recovery ? "Recovery code" : "Authentication code"}
          name="code"
          autoComplete="one-time-code"
          inputMode={recovery ? "text" : "numeric"}
          required
          autoFocus
          errors={errs.code ?? errs.recoveryCode}
        />
        <Button type="submit" busy={m.isPending}>
          Verify
        </Button>
      </form>
      <Button variant="ghost" type="button" onClick={() => (m.reset(), setRecovery(!recovery))}>
        {recovery ? "Use an authentication code instead" : "Use a recovery code instead"}
      </Button>
    </AuthPage>
  );
}

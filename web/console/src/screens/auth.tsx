// The account screens: sign up, verify, sign in, two-factor challenge, password reset.
import { useMutation, useQuery } from "@tanstack/react-query";
import { useEffect, useRef, useState, type FormEvent, type ReactNode } from "react";
import { Link, Navigate, useLocation, useNavigate, useParams, useSearchParams } from "react-router-dom";
import { api, data, fieldErrors } from "../api/client";
import { codeHostLabel } from "../api/codehost";
import { useSession, type User } from "../auth/session";
import { Button, ErrorState, Field, FormError, Loading } from "../ui/kit";
import { ThemeToggle } from "../ui/theme";

function AuthPage({ title, children, footer }: { title: string; children: ReactNode; footer?: ReactNode }) {
  useEffect(() => {
    document.title = `${title} · Herald`;
  }, [title]);
  return (
    <div className="auth">
      <div className="auth-top">
        <span className="brand">
          <img src="/favicon.svg" alt="" width="24" height="24" /> Herald
        </span>
        <ThemeToggle />
      </div>
      <main className="auth-card">
        <h1>{title}</h1>
        {children}
      </main>
      {footer && <p className="auth-footer">{footer}</p>}
    </div>
  );
}

function values(e: FormEvent<HTMLFormElement>): Record<string, string> {
  e.preventDefault();
  return Object.fromEntries([...new FormData(e.currentTarget).entries()].map(([k, v]) => [k, String(v)]));
}

/** afterSignIn is where a sign-in lands: the page the user was sent away from, or home. */
function useAfterSignIn() {
  const loc = useLocation();
  const next = new URLSearchParams(loc.search).get("next");
  return next && next.startsWith("/") && !next.startsWith("//") ? next : "/";
}

type SignInAnswer = { accessToken?: string; user?: User; twoFactorRequired?: boolean; challengeToken?: string };

export function SignIn() {
  const { state, signedIn } = useSession();
  const navigate = useNavigate();
  const target = useAfterSignIn();
  const [params] = useSearchParams();
  const m = useMutation({
    mutationFn: (v: Record<string, string>) =>
      data(api.POST("/v1/auth", { params: { query: { redirect: "/" } }, body: { email: v.email ?? "", password: v.password ?? "" } })),
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
  const options = useQuery({
    queryKey: ["codehost", "options"],
    queryFn: () => data(api.GET("/v1/ee/auth/codehost/options")),
    staleTime: Infinity,
  });
  const start = useMutation({
    mutationFn: () => data(api.GET("/v1/ee/auth/codehost", { params: { query: { redirect: target } } })),
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
    mutationFn: () => data(api.POST("/v1/ee/auth/codehost", { body: { code, state } })),
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
    mutationFn: (code: string) => {
      const headers = { Authorization: `Bearer ${challenge}` };
      return recovery
        ? data(api.POST("/v1/ee/auth/2fa/recovery", { headers, body: { recoveryCode: code } }))
        : data(api.POST("/v1/ee/auth/2fa/validate", { headers, body: { code } }));
    },
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

export function SignUp() {
  const { state } = useSession();
  const navigate = useNavigate();
  const m = useMutation({
    mutationFn: (v: Record<string, string>) =>
      data(
        api.POST("/v1/auth/signup", {
          params: { query: { redirect: "/verify" } },
          body: { name: v.name ?? "", email: v.email ?? "", password: v.password ?? "" },
        }),
      ),
    onSuccess: (_r, v) => navigate(`/verify?email=${encodeURIComponent(v.email ?? "")}`),
  });
  if (state.status === "signedIn") return <Navigate to="/" replace />;
  const errs = fieldErrors(m.error, ["name", "email", "password"]);
  return (
    <AuthPage
      title="Create your Herald account"
      footer={
        <>
          Already have an account? <Link to="/signin">Sign in</Link>
        </>
      }
    >
      <form onSubmit={(e) => m.mutate(values(e))} noValidate>
        <FormError errors={errs[""]} />
        <Field label="Name" name="name" autoComplete="name" errors={errs.name} />
        <Field label="Email" name="email" type="email" autoComplete="email" required errors={errs.email} />
        <Field label="Password" name="password" type="password" autoComplete="new-password" required hint="At least 8 characters." errors={errs.password} />
        <Button type="submit" busy={m.isPending}>
          Create account
        </Button>
      </form>
    </AuthPage>
  );
}

export function Verify() {
  const [params] = useSearchParams();
  const email = params.get("email") ?? "";
  const linked = params.get("verificationCode");
  // The password is chosen again in this step: whoever opens the link proved the address,
  // not that they chose the password given at sign-up (docs/console-api.md).
  const m = useMutation({
    mutationFn: ({ code, password }: { code: string; password: string }) =>
      data(api.POST("/v1/auth/verify/{verificationCode}", { params: { path: { verificationCode: code } }, body: { password } })),
  });
  const resend = useMutation({
    mutationFn: () => data(api.POST("/v1/auth/resendVerificationEmail", { params: { query: { redirect: "/verify" } }, body: { email } })),
  });
  if (m.isSuccess) {
    const to = m.data && "email" in m.data && m.data.email ? `/signin?email=${encodeURIComponent(m.data.email)}` : "/signin";
    return (
      <AuthPage title="Email verified">
        <p role="status">Your email address is confirmed. You can sign in now.</p>
        <Link className="btn btn-primary" to={to}>
          Continue to sign in
        </Link>
      </AuthPage>
    );
  }
  const errs = fieldErrors(m.error, ["password"]);
  const err = m.error && (m.error as { status?: number }).status === 404 ? ["This code is wrong, expired or already used."] : errs[""];
  return (
    <AuthPage title="Check your email">
      <p className="muted">
        {email ? (
          <>
            We sent a verification code to <strong>{email}</strong>.
          </>
        ) : (
          "We sent you a verification code."
        )}{" "}
        Open the link in the email, or enter the code here, and confirm your password.
      </p>
      <form
        onSubmit={(e) => {
          const v = values(e);
          m.mutate({ code: (v.code ?? "").trim(), password: v.password ?? "" });
        }}
        noValidate
      >
        <Field label="Verification code" name="code" autoComplete="one-time-code" required errors={err} defaultValue={linked ?? ""} />
        <Field
          label="Password"
          name="password"
          type="password"
          autoComplete="new-password"
          required
          hint="The password you signed up with, or a new one: it is your password from now on."
          errors={errs.password}
        />
        <Button type="submit" busy={m.isPending}>
          Verify email
        </Button>
      </form>
      {email && (
        <p className="muted">
          No email?{" "}
          <Button variant="ghost" type="button" busy={resend.isPending} onClick={() => resend.mutate()}>
            Send it again
          </Button>
          {resend.isSuccess && <span role="status"> Sent.</span>}
        </p>
      )}
    </AuthPage>
  );
}

export function ForgotPassword() {
  const [params] = useSearchParams();
  const m = useMutation({
    mutationFn: (email: string) =>
      data(api.POST("/v1/auth/passwordResetRequests", { params: { query: { redirect: "/reset-password" } }, body: { email } })),
  });
  const errs = fieldErrors(m.error, ["email"]);
  return (
    <AuthPage
      title="Reset your password"
      footer={
        <>
          Remembered it? <Link to="/signin">Sign in</Link>
        </>
      }
    >
      {m.isSuccess ? (
        <p role="status">If an account uses this address, we emailed it a link to choose a new password.</p>
      ) : (
        <form onSubmit={(e) => m.mutate(values(e).email ?? "")} noValidate>
          <FormError errors={errs[""]} />
          <Field label="Email" name="email" type="email" autoComplete="email" required defaultValue={params.get("email") ?? ""} errors={errs.email} />
          <Button type="submit" busy={m.isPending}>
            Email me a reset link
          </Button>
        </form>
      )}
    </AuthPage>
  );
}

export function ResetPassword() {
  const [params] = useSearchParams();
  const m = useMutation({
    mutationFn: (v: Record<string, string>) => data(api.POST("/v1/auth/resetPassword", { body: { code: v.code ?? "", password: v.password ?? "" } })),
  });
  const errs = fieldErrors(m.error, ["code", "password"]);
  if (m.error && (m.error as { status?: number }).status === 404) errs.code = ["This reset code is wrong, expired or already used."];
  return (
    <AuthPage title="Choose a new password">
      {m.isSuccess ? (
        <>
          <p role="status">Your password is changed and every session was signed out.</p>
          <Link className="btn btn-primary" to="/signin">
            Sign in
          </Link>
        </>
      ) : (
        <form onSubmit={(e) => m.mutate(values(e))} noValidate>
          <FormError errors={errs[""]} />
          <Field label="Reset code" name="code" required defaultValue={params.get("resetCode") ?? ""} errors={errs.code} />
          <Field label="New password" name="password" type="password" autoComplete="new-password" required hint="At least 8 characters." errors={errs.password} />
          <Button type="submit" busy={m.isPending}>
            Set password
          </Button>
        </form>
      )}
    </AuthPage>
  );
}

/** Invitation: /invitations/:code, the link of an invitation email. */
export function Invitation() {
  const { code = "" } = useParams();
  const { state } = useSession();
  const navigate = useNavigate();
  const view = useQuery({
    queryKey: ["invitation", code],
    queryFn: () => data(api.GET("/v1/invitations/{code}", { params: { path: { code } } })),
    retry: false,
  });
  const accept = useMutation({
    mutationFn: () => data(api.GET("/v1/invitations/{code}/accept", { params: { path: { code } } })),
    onSuccess: (inv) => navigate(`/clients/${inv.clientId}`, { replace: true }),
  });
  if (view.isPending || state.status === "loading") {
    return (
      <AuthPage title="Invitation">
        <Loading label="Loading the invitation" />
      </AuthPage>
    );
  }
  if (view.isError) {
    return (
      <AuthPage title="Invitation">
        <ErrorState error={view.error} />
        <Link to="/">Go to the console</Link>
      </AuthPage>
    );
  }
  const inv = view.data;
  const here = `/invitations/${encodeURIComponent(code)}`;
  return (
    <AuthPage title={`Join ${inv.clientName ?? "the team"}`}>
      <p>
        <strong>{inv.email}</strong> is invited to join <strong>{inv.clientName}</strong> on Herald as <strong>{inv.role}</strong>.
      </p>
      {inv.status !== "open" ? (
        <p role="status">This invitation was {inv.status === "accepted" ? "already accepted" : "not accepted in time and has expired"}.</p>
      ) : state.status === "signedIn" ? (
        <>
          {state.user.email?.toLowerCase() !== inv.email?.toLowerCase() && (
            <p className="notice" role="note">
              You are signed in as {state.user.email}; the invitation is for {inv.email}.
            </p>
          )}
          <FormError errors={accept.error ? fieldErrors(accept.error, [])[""] : undefined} />
          <Button busy={accept.isPending} onClick={() => accept.mutate()}>
            Accept invitation
          </Button>
        </>
      ) : (
        <div className="row">
          <Link className="btn btn-primary" to={`/signin?next=${encodeURIComponent(here)}&email=${encodeURIComponent(inv.email ?? "")}`}>
            Sign in to accept
          </Link>
          <Link className="btn btn-secondary" to="/signup">
            Create an account
          </Link>
        </div>
      )}
    </AuthPage>
  );
}

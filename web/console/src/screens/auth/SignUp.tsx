// Sign up and verify: an account created, its email address proved by the emailed link.
import { useMutation } from "@tanstack/react-query";
import { Link, Navigate, useNavigate, useSearchParams } from "react-router-dom";
import { fieldErrors } from "../../api/client";
import { useSession } from "../../auth/session";
import { Button, Field, FormError } from "../../ui/kit";
import { authApi } from "./api";
import { AuthPage, values } from "./shared";

export function SignUp() {
  const { state } = useSession();
  const navigate = useNavigate();
  const m = useMutation({
    mutationFn: (v: Record<string, string>) =>
      authApi.signUp(v.name ?? "", v.email ?? "", v.password ?? ""),
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
      authApi.verify(code, password),
  });
  const resend = useMutation({
    mutationFn: () => authApi.resendVerification(email),
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

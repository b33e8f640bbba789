// Password reset: ask for the emailed link, then choose a new password with it.
import { useMutation } from "@tanstack/react-query";
import { Link, useSearchParams } from "react-router-dom";
import { fieldErrors } from "../../api/client";
import { Button, Field, FormError } from "../../ui/kit";
import { authApi } from "./api";
import { AuthPage, values } from "./shared";

export function ForgotPassword() {
  const [params] = useSearchParams();
  const m = useMutation({
    mutationFn: (email: string) =>
      authApi.requestPasswordReset(email),
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
    mutationFn: (v: Record<string, string>) => authApi.resetPassword(v.code ?? "", v.password ?? ""),
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

// The sign-in feature's API module: sign in (password, code host, second factor), sign up,
// verify, password reset and invitations, typed calls and their queries keyed by
// src/api/keys.ts.
import { useQuery } from "@tanstack/react-query";
import { api, data } from "../../api/client";
import { keys } from "../../api/keys";

/** authApi are the typed calls of the sign-in screens. */
export const authApi = {
  signIn: (email: string, password: string) => data(api.POST("/v1/auth", { params: { query: { redirect: "/" } }, body: { email, password } })),
  codeHostOptions: () => data(api.GET("/v1/ee/auth/codehost/options")),
  codeHostStart: (redirect: string) => data(api.GET("/v1/ee/auth/codehost", { params: { query: { redirect } } })),
  codeHostFinish: (code: string, state: string) => data(api.POST("/v1/ee/auth/codehost", { body: { code, state } })),
  twoFactorRecovery: (challenge: string | undefined, recoveryCode: string) =>
    data(api.POST("/v1/ee/auth/2fa/recovery", { headers: { Authorization: `Bearer ${challenge}` }, body: { recoveryCode } })),
  twoFactorValidate: (challenge: string | undefined, code: string) =>
    data(api.POST("/v1/ee/auth/2fa/validate", { headers: { Authorization: `Bearer ${challenge}` }, body: { code } })),
  signUp: (name: string, email: string, password: string) =>
    data(api.POST("/v1/auth/signup", { params: { query: { redirect: "/verify" } }, body: { name, email, password } })),
  verify: (verificationCode: string, password: string) =>
    data(api.POST("/v1/auth/verify/{verificationCode}", { params: { path: { verificationCode } }, body: { password } })),
  resendVerification: (email: string) => data(api.POST("/v1/auth/resendVerificationEmail", { params: { query: { redirect: "/verify" } }, body: { email } })),
  requestPasswordReset: (email: string) =>
    data(api.POST("/v1/auth/passwordResetRequests", { params: { query: { redirect: "/reset-password" } }, body: { email } })),
  resetPassword: (code: string, password: string) => data(api.POST("/v1/auth/resetPassword", { body: { code, password } })),
  invitation: (code: string) => data(api.GET("/v1/invitations/{code}", { params: { path: { code } } })),
  acceptInvitation: (code: string) => data(api.GET("/v1/invitations/{code}/accept", { params: { path: { code } } })),
};

/** useCodeHostOptions reads which code hosts can sign people in. */
export const useCodeHostOptions = () => useQuery({ queryKey: keys.codehostOptions(), queryFn: () => authApi.codeHostOptions(), staleTime: Infinity });

/** useInvitation reads an invitation by its code (not retried: a bad code is an answer). */
export const useInvitation = (code: string) => useQuery({ queryKey: keys.invitation(code), queryFn: () => authApi.invitation(code), retry: false });

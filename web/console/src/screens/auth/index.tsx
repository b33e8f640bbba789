// The sign-in screens (lazily loaded together by main.tsx): sign up, verify, sign in, the
// two-factor challenge, code-host sign-in, password reset and invitations.
export { CodeHostCallback, SignIn, TwoFactor } from "./SignIn";
export { SignUp, Verify } from "./SignUp";
export { ForgotPassword, ResetPassword } from "./Password";
export { Invitation } from "./Invitation";

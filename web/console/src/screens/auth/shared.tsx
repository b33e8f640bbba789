// The sign-in screens' frame and helpers: the page around a form, a form's values, where to
// go after signing in.
import { useEffect, type FormEvent, type ReactNode } from "react";
import { useLocation } from "react-router-dom";
import { ThemeToggle } from "../../ui/theme";

export function AuthPage({ title, children, footer }: { title: string; children: ReactNode; footer?: ReactNode }) {
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

export function values(e: FormEvent<HTMLFormElement>): Record<string, string> {
  e.preventDefault();
  return Object.fromEntries([...new FormData(e.currentTarget).entries()].map(([k, v]) => [k, String(v)]));
}

/** afterSignIn is where a sign-in lands: the page the user was sent away from, or home. */
export function useAfterSignIn() {
  const loc = useLocation();
  const next = new URLSearchParams(loc.search).get("next");
  return next && next.startsWith("/") && !next.startsWith("//") ? next : "/";
}

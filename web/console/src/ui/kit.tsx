// Small building blocks over the component kit (Radix primitives): labelled fields, buttons,
// the loading / empty / error states every screen shows, copy buttons and toasts.
import * as Label from "@radix-ui/react-label";
import * as Toast from "@radix-ui/react-toast";
import {
  createContext,
  useCallback,
  useContext,
  useId,
  useState,
  type ButtonHTMLAttributes,
  type InputHTMLAttributes,
  type ReactNode,
} from "react";
import { ApiError } from "../api/client";

export function Field({
  label,
  errors,
  hint,
  ...input
}: { label: string; errors?: string[]; hint?: ReactNode } & InputHTMLAttributes<HTMLInputElement>) {
  const id = useId();
  const errId = `${id}-err`;
  const hintId = `${id}-hint`;
  const describedBy = [errors?.length ? errId : "", hint ? hintId : ""].filter(Boolean).join(" ") || undefined;
  return (
    <div className="field">
      <Label.Root htmlFor={id}>{label}</Label.Root>
      <input id={id} aria-invalid={errors?.length ? true : undefined} aria-describedby={describedBy} {...input} />
      {hint && (
        <p className="hint" id={hintId}>
          {hint}
        </p>
      )}
      {errors?.length ? (
        <p className="field-error" id={errId} role="alert">
          {errors.join(". ")}
        </p>
      ) : null}
    </div>
  );
}

export function Button({
  variant = "primary",
  busy,
  children,
  ...rest
}: { variant?: "primary" | "secondary" | "ghost" | "danger"; busy?: boolean } & ButtonHTMLAttributes<HTMLButtonElement>) {
  return (
    <button className={`btn btn-${variant}`} {...rest} aria-busy={busy || undefined} disabled={busy || rest.disabled}>
      {children}
    </button>
  );
}

export function Loading({ label = "Loading" }: { label?: string }) {
  return (
    <div className="state" role="status" aria-live="polite">
      <span className="spinner" aria-hidden="true" />
      {label}…
    </div>
  );
}

export function ErrorState({ error, retry }: { error: unknown; retry?: () => void }) {
  const msg =
    error instanceof ApiError
      ? error.status === 403
        ? "You do not have access to this."
        : error.status === 404
          ? "Not found: it may have been deleted, or it belongs to another team."
          : error.message
      : error instanceof Error
        ? error.message
        : "Something went wrong.";
  return (
    <div className="state state-error" role="alert">
      <p>{msg}</p>
      {retry && (
        <Button variant="secondary" onClick={retry}>
          Try again
        </Button>
      )}
    </div>
  );
}

export function Empty({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className="state state-empty">
      <p className="state-title">{title}</p>
      {children}
    </div>
  );
}

export function FormError({ errors }: { errors?: string[] }) {
  if (!errors?.length) return null;
  return (
    <div className="form-error" role="alert">
      {errors.join(". ")}
    </div>
  );
}

type ToastMsg = { id: number; text: string };
const ToastCtx = createContext<(text: string) => void>(() => {});

/** Toaster shows short confirmations ("Copied", "Saved") as Radix toasts. */
export function Toaster({ children }: { children: ReactNode }) {
  const [toasts, setToasts] = useState<ToastMsg[]>([]);
  const show = useCallback((text: string) => setToasts((t) => [...t, { id: Date.now() + Math.random(), text }]), []);
  return (
    <ToastCtx.Provider value={show}>
      <Toast.Provider swipeDirection="right" duration={2500}>
        {children}
        {toasts.map((t) => (
          <Toast.Root
            key={t.id}
            className="toast"
            onOpenChange={(open) => !open && setToasts((all) => all.filter((x) => x.id !== t.id))}
          >
            <Toast.Description>{t.text}</Toast.Description>
          </Toast.Root>
        ))}
        <Toast.Viewport className="toast-viewport" />
      </Toast.Provider>
    </ToastCtx.Provider>
  );
}

export const useToast = () => useContext(ToastCtx);

/** CopyButton copies text to the clipboard; its accessible name says what it copies. */
export function CopyButton({ text, what }: { text: string; what: string }) {
  const toast = useToast();
  return (
    <Button
      variant="secondary"
      type="button"
      aria-label={`Copy ${what}`}
      onClick={async () => {
        try {
          await navigator.clipboard.writeText(text);
          toast(`Copied ${what}`);
        } catch {
          toast(`Could not copy: select the ${what} and copy it`);
        }
      }}
    >
      Copy
    </Button>
  );
}

/** Pager moves through numbered pages (Previous, "Page n of m", Next); nothing for one page. */
export function Pager({ label, page, pages, onPage }: { label: string; page: number; pages: number; onPage: (page: number) => void }) {
  if (pages <= 1) return null;
  return (
    <nav className="pager" aria-label={label}>
      <Button variant="secondary" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        Previous page
      </Button>
      <span aria-live="polite">
        Page {page} of {pages}
      </span>
      <Button variant="secondary" disabled={page >= pages} onClick={() => onPage(page + 1)}>
        Next page
      </Button>
    </nav>
  );
}

// ConfirmButton: a button that asks before an action that cannot be undone (a Radix dialog
// with the action's consequences, Cancel, and the action; the API's error shown in it).
// Checkbox: a switch that moves at once while its change is saved.
import * as Dialog from "@radix-ui/react-dialog";
import { useEffect, useState, type InputHTMLAttributes, type ReactNode } from "react";
import { Button, FormError } from "./kit";

export function ConfirmButton({
  label,
  children,
  title,
  description,
  action,
  onConfirm,
}: {
  /** the trigger's accessible name ("Revoke the token CI") */
  label: string;
  /** the trigger's visible text */
  children: ReactNode;
  title: string;
  description: ReactNode;
  /** the confirming button's text */
  action: string;
  onConfirm: () => Promise<unknown>;
}) {
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  return (
    <Dialog.Root
      open={open}
      onOpenChange={(o) => {
        setOpen(o);
        setError(null);
      }}
    >
      <Dialog.Trigger asChild>
        <Button variant="ghost" aria-label={label}>
          {children}
        </Button>
      </Dialog.Trigger>
      <Dialog.Portal>
        <Dialog.Overlay className="overlay" />
        <Dialog.Content className="dialog">
          <Dialog.Title>{title}</Dialog.Title>
          <Dialog.Description className="muted">{description}</Dialog.Description>
          <FormError errors={error ? [error] : undefined} />
          <div className="dialog-actions">
            <Dialog.Close asChild>
              <Button variant="secondary">Cancel</Button>
            </Dialog.Close>
            <Button
              variant="danger"
              busy={busy}
              onClick={async () => {
                setBusy(true);
                try {
                  await onConfirm();
                  setOpen(false);
                } catch (e) {
                  setError((e as Error).message);
                } finally {
                  setBusy(false);
                }
              }}
            >
              {action}
            </Button>
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

/**
 * Checkbox is a controlled checkbox that shows a click at once: its owner's state may
 * arrive a moment later (a query cache notifies its screens after the event), and a plain
 * controlled input would jump back meanwhile.
 */
export function Checkbox({
  checked,
  onChange,
  ...rest
}: { checked: boolean; onChange: (checked: boolean) => void } & Omit<InputHTMLAttributes<HTMLInputElement>, "checked" | "onChange" | "type">) {
  const [shown, setShown] = useState(checked);
  useEffect(() => setShown(checked), [checked]);
  return (
    <input
      type="checkbox"
      checked={shown}
      onChange={(e) => {
        setShown(e.target.checked);
        onChange(e.target.checked);
      }}
      {...rest}
    />
  );
}

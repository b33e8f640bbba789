// Confirm: a button that asks before a destructive or far-reaching action (a Radix dialog
// with its consequences, a dismiss button and the action). ConfirmButton: Confirm that keeps
// its own busy state and shows the API's error in the dialog.
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
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  return (
    <Confirm
      trigger={children}
      triggerLabel={label}
      triggerVariant="ghost"
      title={title}
      confirm={action}
      dismiss="Cancel"
      busy={busy}
      error={error ? [error] : undefined}
      onOpenChange={() => setError(null)}
      onConfirm={async () => {
        setBusy(true);
        try {
          await onConfirm();
        } catch (e) {
          setError((e as Error).message);
          throw e;
        } finally {
          setBusy(false);
        }
      }}
    >
      {description}
    </Confirm>
  );
}

/**
 * Confirm is a button that opens a confirmation dialog (Radix) before a destructive or
 * far-reaching action; its owner keeps the action's busy state and errors.
 */
export function Confirm({
  trigger,
  triggerLabel,
  title,
  children,
  confirm,
  variant = "danger",
  onConfirm,
  busy,
  error,
  onOpenChange,
  dismiss = "Keep it",
  triggerVariant = "secondary",
}: {
  trigger: ReactNode;
  triggerLabel: string;
  title: string;
  children?: ReactNode;
  confirm: string;
  variant?: "danger" | "primary";
  onConfirm: () => Promise<unknown>;
  busy?: boolean;
  error?: string[];
  onOpenChange?: (open: boolean) => void;
  /** dismiss names the button that closes without acting. */
  dismiss?: string;
  triggerVariant?: "secondary" | "ghost";
}) {
  const [open, setOpen] = useState(false);
  const change = (o: boolean) => {
    setOpen(o);
    onOpenChange?.(o);
  };
  return (
    <Dialog.Root open={open} onOpenChange={change}>
      <Dialog.Trigger asChild>
        <Button variant={triggerVariant} aria-label={triggerLabel}>
          {trigger}
        </Button>
      </Dialog.Trigger>
      <Dialog.Portal>
        <Dialog.Overlay className="overlay" />
        <Dialog.Content className="dialog">
          <Dialog.Title>{title}</Dialog.Title>
          <Dialog.Description asChild>
            <div className="muted">{children}</div>
          </Dialog.Description>
          <FormError errors={error} />
          <div className="dialog-actions">
            <Dialog.Close asChild>
              <Button variant="secondary">{dismiss}</Button>
            </Dialog.Close>
            <Button variant={variant} busy={busy} onClick={() => onConfirm().then(() => change(false), () => {})}>
              {confirm}
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

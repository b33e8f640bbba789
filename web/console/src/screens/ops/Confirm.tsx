// A confirmation dialog (Radix) for the destructive or far-reaching actions of the ops
// screens: cancel a send, delete a schedule, publish a commit.
import * as Dialog from "@radix-ui/react-dialog";
import { useState, type ReactNode } from "react";
import { Button, FormError } from "../../ui/kit";

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
}) {
  const [open, setOpen] = useState(false);
  const change = (o: boolean) => {
    setOpen(o);
    onOpenChange?.(o);
  };
  return (
    <Dialog.Root open={open} onOpenChange={change}>
      <Dialog.Trigger asChild>
        <Button variant="secondary" aria-label={triggerLabel}>
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

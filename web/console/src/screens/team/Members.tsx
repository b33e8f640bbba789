// Members: the role picker, the invitation form and the removal of a member of the team.
import * as Dialog from "@radix-ui/react-dialog";
import * as Label from "@radix-ui/react-label";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useId, useState, type FormEvent } from "react";
import { fieldErrors } from "../../api/client";
import { Button, Field, FormError, useToast } from "../../ui/kit";
import type { Role } from "../queries";
import { keys } from "../../api/keys";
import { teamApi } from "./api";

const roles: Role[] = ["viewer", "developer", "admin", "owner"];

export function RoleSelect({ label, value, onChange, visible }: { label: string; value: Role; onChange: (r: Role) => void; visible?: boolean }) {
  const id = useId();
  return (
    <>
      <Label.Root htmlFor={id} className={visible ? undefined : "sr-only"}>
        {label}
      </Label.Root>
      <select id={id} value={value} onChange={(e) => onChange(e.target.value as Role)}>
        {roles.map((r) => (
          <option key={r} value={r}>
            {r}
          </option>
        ))}
      </select>
    </>
  );
}

export function Invite({ clientId }: { clientId: number }) {
  const qc = useQueryClient();
  const toast = useToast();
  const [role, setRole] = useState<Role>("developer");
  const m = useMutation({
    mutationFn: (emails: string[]) =>
      teamApi.invite(clientId, role, emails),
    onSuccess: (_d, emails) => {
      qc.invalidateQueries({ queryKey: keys.clients.invitations(clientId) });
      toast(`Invited ${emails.join(", ")}`);
    },
  });
  const errs = fieldErrors(m.error, ["email", "emails", "role"]);
  return (
    <form
      className="inline-form"
      onSubmit={(e: FormEvent<HTMLFormElement>) => {
        e.preventDefault();
        const emails = String(new FormData(e.currentTarget).get("emails") ?? "")
          .split(/[\s,]+/)
          .filter(Boolean);
        m.mutate(emails, { onSuccess: () => (e.target as HTMLFormElement).reset() });
      }}
      noValidate
    >
      <FormError errors={[...(errs[""] ?? []), ...(errs.email ?? []), ...(errs.emails ?? [])]} />
      <Field label="Email addresses" name="emails" placeholder="ana@example.com, li@example.com" required />
      <div className="field">
        <RoleSelect label="Role" value={role} onChange={setRole} visible />
      </div>
      <Button type="submit" busy={m.isPending}>
        Send invitations
      </Button>
    </form>
  );
}

export function RemoveMember({ clientId, user }: { clientId: number; user: { id?: number; email?: string } }) {
  const qc = useQueryClient();
  const [open, setOpen] = useState(false);
  const m = useMutation({
    mutationFn: () => teamApi.removeMember(clientId, user.id!),
    onSuccess: () => {
      setOpen(false);
      qc.invalidateQueries({ queryKey: keys.clients.members(clientId) });
    },
  });
  return (
    <Dialog.Root open={open} onOpenChange={(o) => (setOpen(o), m.reset())}>
      <Dialog.Trigger asChild>
        <Button variant="ghost" aria-label={`Remove ${user.email}`}>
          Remove
        </Button>
      </Dialog.Trigger>
      <Dialog.Portal>
        <Dialog.Overlay className="overlay" />
        <Dialog.Content className="dialog">
          <Dialog.Title>Remove {user.email}?</Dialog.Title>
          <Dialog.Description className="muted">They lose access to every app of this team at once.</Dialog.Description>
          <FormError errors={m.error ? [(m.error as Error).message] : undefined} />
          <div className="dialog-actions">
            <Dialog.Close asChild>
              <Button variant="secondary">Cancel</Button>
            </Dialog.Close>
            <Button variant="danger" busy={m.isPending} onClick={() => m.mutate()}>
              Remove member
            </Button>
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

// CliTokens: the team's CLI tokens: create one (shown once, its role limited), list and revoke.
import * as Label from "@radix-ui/react-label";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useId, useState, type FormEvent } from "react";
import { fieldErrors } from "../../api/client";
import { Button, CopyButton, Empty, ErrorState, Field, FormError, Loading, useToast } from "../../ui/kit";
import { ConfirmButton } from "../../ui/confirm";
import { atLeast, type Role } from "../queries";
import { keys } from "../../api/keys";
import { teamApi, useCliTokens } from "./api";

const roles: Role[] = ["viewer", "developer", "admin", "owner"];

/** CliTokens: create a token (shown once, with a copy button), list and revoke them. */
export function CliTokens({ clientId, admin, me, role }: { clientId: number; admin: boolean; me?: number; role?: Role }) {
  const qc = useQueryClient();
  const toast = useToast();
  const [name, setName] = useState("");
  const [limit, setLimit] = useState<Role | "">("");
  const roleId = useId();
  const [fresh, setFresh] = useState<{ name: string; token: string } | null>(null);
  const tokens = useCliTokens(clientId);
  const create = useMutation({
    mutationFn: () => teamApi.createCliToken(clientId, { name: name.trim(), ...(limit ? { role: limit } : {}) }),
    onSuccess: (t) => {
      setFresh({ name: t.name ?? "", token: t.token ?? "" });
      setName("");
      qc.invalidateQueries({ queryKey: keys.clients.cliTokens(clientId) });
    },
  });
  const revoke = useMutation({
    mutationFn: (id: number) => teamApi.revokeCliToken(clientId, id),
    onSuccess: () => {
      qc.invalidateQueries({ queryKey: keys.clients.cliTokens(clientId) });
      toast("Token revoked");
    },
  });
  const errs = create.isError ? fieldErrors(create.error, ["name", "role"]) : {};
  const live = (tokens.data ?? []).filter((t) => !t.revokedAt);
  return (
    <section className="card" aria-labelledby="tokens-h">
      <h2 id="tokens-h">CLI tokens</h2>
      <p className="muted small">
        A token lets the Herald CLI and scripts call the management API as you, with your role in this team or a lower one you choose.{" "}
        {admin ? "You see every member's tokens." : "You see your own tokens."}
      </p>
      <form
        className="inline-form"
        noValidate
        onSubmit={(e: FormEvent) => {
          e.preventDefault();
          create.mutate();
        }}
      >
        <FormError errors={errs[""]} />
        <Field label="Token name" value={name} onChange={(e) => setName(e.target.value)} errors={errs.name} placeholder="CI deploys" />
        <div className="field">
          <Label.Root htmlFor={roleId}>Token role</Label.Root>
          <select
            id={roleId}
            value={limit}
            aria-invalid={errs.role ? true : undefined}
            aria-describedby={errs.role ? `${roleId}-err` : undefined}
            onChange={(e) => setLimit(e.target.value as Role | "")}
          >
            <option value="">Same as mine{role ? ` (${role})` : ""}</option>
            {roles
              .filter((r) => atLeast(role, r))
              .map((r) => (
                <option key={r} value={r}>
                  {r}
                </option>
              ))}
          </select>
          {errs.role && (
            <p className="field-error" id={`${roleId}-err`} role="alert">
              {errs.role.join(". ")}
            </p>
          )}
        </div>
        <Button type="submit" busy={create.isPending}>
          Create token
        </Button>
      </form>
      {fresh && (
        <div className="notice" role="status" aria-labelledby="fresh-h">
          <p id="fresh-h">
            <strong>{fresh.name}</strong>: copy the token now, it is not shown again.
          </p>
          <div className="token-once">
            <code aria-label="New CLI token">{fresh.token}</code>
            <CopyButton text={fresh.token} what="CLI token" />
            <Button variant="ghost" onClick={() => setFresh(null)}>
              Done
            </Button>
          </div>
        </div>
      )}
      {tokens.isPending ? (
        <Loading label="Loading the tokens" />
      ) : tokens.isError ? (
        <ErrorState error={tokens.error} retry={() => tokens.refetch()} />
      ) : live.length === 0 ? (
        <Empty title="No CLI tokens" />
      ) : (
        <table className="table" aria-label="CLI tokens">
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Token</th>
              <th scope="col">Role</th>
              <th scope="col">Created by</th>
              <th scope="col">Last used</th>
              <th scope="col">
                <span className="sr-only">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {live.map((t) => (
              <tr key={t.id}>
                <td>{t.name}</td>
                <td>
                  <code>{t.prefix}…</code>
                </td>
                <td>{t.role ?? "creator's"}</td>
                <td>{t.creatorEmail}</td>
                <td>{t.lastUsedAt ? new Date(t.lastUsedAt).toLocaleString() : "never"}</td>
                <td>
                  {(admin || t.createdBy === me) && (
                    <ConfirmButton
                      label={`Revoke the token ${t.name}`}
                      title={`Revoke ${t.name}?`}
                      description="Scripts and CLIs using it are refused from now on. This cannot be undone."
                      action="Revoke token"
                      onConfirm={() => revoke.mutateAsync(t.id!)}
                    >
                      Revoke
                    </ConfirmButton>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

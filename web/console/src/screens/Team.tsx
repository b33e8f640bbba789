// Team: the members of the app's client with their roles, pending invitations, and an
// invitation form (admins and owners); CLI tokens (each member's own, admins see all); the
// team's usage this month against its plan's quota.
import * as Dialog from "@radix-ui/react-dialog";
import * as Label from "@radix-ui/react-label";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useId, useState, type FormEvent } from "react";
import { useOutletContext } from "react-router-dom";
import { api, data, fieldErrors } from "../api/client";
import { useSession } from "../auth/session";
import { Button, CopyButton, Empty, ErrorState, Field, FormError, Loading, useToast } from "../ui/kit";
import { ConfirmButton } from "../ui/confirm";
import { atLeast, useClients, type App, type Role } from "./queries";

const roles: Role[] = ["viewer", "developer", "admin", "owner"];

export default function Team() {
  const app = useOutletContext<App>();
  const clientId = app.clientId!;
  const clients = useClients();
  const role = clients.data?.find((c) => c.id === clientId)?.role;
  const admin = atLeast(role, "admin");
  const { state } = useSession();
  const me = state.status === "signedIn" ? state.user.id : undefined;
  const qc = useQueryClient();
  const toast = useToast();
  useEffect(() => {
    document.title = "Team · Herald";
  }, []);
  const members = useQuery({
    queryKey: ["clients", clientId, "members"],
    queryFn: () => data(api.GET("/v1/clients/{clientId}/clientUsers", { params: { path: { clientId } } })),
  });
  const invitations = useQuery({
    queryKey: ["clients", clientId, "invitations"],
    queryFn: () => data(api.GET("/v1/clients/{clientId}/clientUserInvitations", { params: { path: { clientId } } })),
    enabled: admin,
  });
  const setRole = useMutation({
    mutationFn: (v: { user: number; role: Role }) =>
      data(api.PUT("/v1/clients/{clientId}/clientUsers/{clientUserId}", { params: { path: { clientId, clientUserId: v.user } }, body: { role: v.role } })),
    onSuccess: () => {
      qc.invalidateQueries({ queryKey: ["clients", clientId, "members"] });
      toast("Role changed");
    },
    onError: (e) => toast((e as Error).message),
  });
  const revoke = useMutation({
    mutationFn: (id: number) =>
      data(api.DELETE("/v1/clients/{clientId}/clientUserInvitations/{invitationId}", { params: { path: { clientId, invitationId: id } } })),
    onSuccess: () => qc.invalidateQueries({ queryKey: ["clients", clientId, "invitations"] }),
  });

  if (members.isPending || clients.isPending) return <Loading label="Loading the team" />;
  if (members.isError) return <ErrorState error={members.error} retry={() => members.refetch()} />;

  return (
    <>
      <h1>Team</h1>
      <section className="card" aria-labelledby="members-h">
        <h2 id="members-h">Members</h2>
        <table className="table">
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Email</th>
              <th scope="col">Role</th>
              {admin && <th scope="col"><span className="sr-only">Actions</span></th>}
            </tr>
          </thead>
          <tbody>
            {members.data.map((m) => (
              <tr key={m.id}>
                <td>{m.clientUser?.name || "—"}</td>
                <td>{m.clientUser?.email}</td>
                <td>
                  {admin && m.clientUser?.id !== me ? (
                    <RoleSelect
                      label={`Role of ${m.clientUser?.email}`}
                      value={m.role!}
                      onChange={(r) => setRole.mutate({ user: m.clientUser!.id!, role: r })}
                    />
                  ) : (
                    m.role
                  )}
                </td>
                {admin && <td>{m.clientUser?.id !== me && <RemoveMember clientId={clientId} user={m.clientUser!} />}</td>}
              </tr>
            ))}
          </tbody>
        </table>
      </section>
      <Usage clientId={clientId} />
      <CliTokens clientId={clientId} admin={admin} me={me} role={role} />
      {admin && (
        <section className="card" aria-labelledby="inv-h">
          <h2 id="inv-h">Invitations</h2>
          <Invite clientId={clientId} />
          {invitations.isPending ? (
            <Loading label="Loading invitations" />
          ) : invitations.isError ? (
            <ErrorState error={invitations.error} retry={() => invitations.refetch()} />
          ) : invitations.data.length === 0 ? (
            <Empty title="No pending invitations" />
          ) : (
            <ul className="list">
              {invitations.data.map((i) => (
                <li key={i.id} className="row">
                  <span>
                    {i.email} <span className="muted">as {i.role}</span>
                  </span>
                  <Button variant="ghost" aria-label={`Revoke the invitation of ${i.email}`} onClick={() => revoke.mutate(i.id!)}>
                    Revoke
                  </Button>
                </li>
              ))}
            </ul>
          )}
        </section>
      )}
    </>
  );
}

function RoleSelect({ label, value, onChange, visible }: { label: string; value: Role; onChange: (r: Role) => void; visible?: boolean }) {
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

function Invite({ clientId }: { clientId: number }) {
  const qc = useQueryClient();
  const toast = useToast();
  const [role, setRole] = useState<Role>("developer");
  const m = useMutation({
    mutationFn: (emails: string[]) =>
      data(api.POST("/v1/clients/{clientId}/invite-users", { params: { path: { clientId }, query: { role } }, body: emails })),
    onSuccess: (_d, emails) => {
      qc.invalidateQueries({ queryKey: ["clients", clientId, "invitations"] });
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

function RemoveMember({ clientId, user }: { clientId: number; user: { id?: number; email?: string } }) {
  const qc = useQueryClient();
  const [open, setOpen] = useState(false);
  const m = useMutation({
    mutationFn: () => data(api.DELETE("/v1/clients/{clientId}/clientUsers/{clientUserId}", { params: { path: { clientId, clientUserId: user.id! } } })),
    onSuccess: () => {
      setOpen(false);
      qc.invalidateQueries({ queryKey: ["clients", clientId, "members"] });
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

const num = (n?: number | null) => (n ?? 0).toLocaleString();

/** Usage: this month's notifications of the team against its plan's quota, per app. */
function Usage({ clientId }: { clientId: number }) {
  const usage = useQuery({
    queryKey: ["clients", clientId, "usage"],
    queryFn: () => data(api.GET("/v1/clients/{clientId}/usage", { params: { path: { clientId } } })),
  });
  const u = usage.data;
  const quota = u?.quota ?? null;
  return (
    <section className="card" aria-labelledby="usage-h">
      <h2 id="usage-h">Usage</h2>
      {usage.isPending ? (
        <Loading label="Loading the usage" />
      ) : usage.isError ? (
        <ErrorState error={usage.error} retry={() => usage.refetch()} />
      ) : (
        <>
          <p>
            <strong>{num(u!.notifications)}</strong> notifications to <strong>{num(u!.recipients)}</strong> recipients in {u!.month} (UTC)
            {quota !== null ? (
              <>
                {" "}
                of <strong>{num(quota)}</strong> on the {u!.planName || u!.plan} plan; {num(u!.remaining)} left
              </>
            ) : (
              <> on the {u!.planName || u!.plan || "current"} plan, without a monthly quota</>
            )}
            .
          </p>
          {quota !== null && (
            <meter className="meter" aria-label="Share of the monthly quota used" min={0} max={quota} value={Math.min(u!.notifications ?? 0, quota)} high={quota * 0.8} optimum={0} />
          )}
          {u!.overQuota && (
            <p className="form-error" role="alert">
              {u!.enforcement === "enforce"
                ? "The quota is used up: new sends are refused until it resets."
                : "The quota is used up; sends still go through while enforcement is off."}
            </p>
          )}
          {u!.resetsAt && <p className="muted small">Resets on {new Date(u!.resetsAt).toLocaleDateString()}.</p>}
          {(u!.apps ?? []).length > 0 && (
            <table className="table" aria-label="Usage per app this month">
              <thead>
                <tr>
                  <th scope="col">App</th>
                  <th scope="col">Notifications</th>
                  <th scope="col">Recipients</th>
                </tr>
              </thead>
              <tbody>
                {u!.apps!.map((a) => (
                  <tr key={a.appId}>
                    <td>{a.name}</td>
                    <td>{num(a.notifications)}</td>
                    <td>{num(a.recipients)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </>
      )}
    </section>
  );
}

/** CliTokens: create a token (shown once, with a copy button), list and revoke them. */
function CliTokens({ clientId, admin, me, role }: { clientId: number; admin: boolean; me?: number; role?: Role }) {
  const qc = useQueryClient();
  const toast = useToast();
  const [name, setName] = useState("");
  const [limit, setLimit] = useState<Role | "">("");
  const roleId = useId();
  const [fresh, setFresh] = useState<{ name: string; token: string } | null>(null);
  const tokens = useQuery({
    queryKey: ["clients", clientId, "cli-tokens"],
    queryFn: () => data(api.GET("/v1/clients/{clientId}/cli-token", { params: { path: { clientId } } })),
  });
  const create = useMutation({
    mutationFn: () => data(api.POST("/v1/clients/{clientId}/cli-token", { params: { path: { clientId } }, body: { name: name.trim(), ...(limit ? { role: limit } : {}) } })),
    onSuccess: (t) => {
      setFresh({ name: t.name ?? "", token: t.token ?? "" });
      setName("");
      qc.invalidateQueries({ queryKey: ["clients", clientId, "cli-tokens"] });
    },
  });
  const revoke = useMutation({
    mutationFn: (id: number) => data(api.DELETE("/v1/clients/{clientId}/cli-token/{tokenId}", { params: { path: { clientId, tokenId: id } } })),
    onSuccess: () => {
      qc.invalidateQueries({ queryKey: ["clients", clientId, "cli-tokens"] });
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

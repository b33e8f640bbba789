// Team: the members of the app's client with their roles, pending invitations, and an
// invitation form (admins and owners); CLI tokens (each member's own, admins see all); the
// team's usage this month against its plan's quota.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import { useOutletContext } from "react-router-dom";
import { useSession } from "../../auth/session";
import { Button, Empty, ErrorState, Loading, useToast } from "../../ui/kit";
import { atLeast, useClients, type App, type Role } from "../queries";
import { keys } from "../../api/keys";
import { teamApi, useInvitations, useMembers } from "./api";
import { Invite, RemoveMember, RoleSelect } from "./Members";
import { Usage } from "./TeamUsage";
import { CliTokens } from "./CliTokens";

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
  const members = useMembers(clientId);
  const invitations = useInvitations(clientId, admin);
  const setRole = useMutation({
    mutationFn: (v: { user: number; role: Role }) =>
      teamApi.setRole(clientId, v.user, v.role),
    onSuccess: () => {
      qc.invalidateQueries({ queryKey: keys.clients.members(clientId) });
      toast("Role changed");
    },
    onError: (e) => toast((e as Error).message),
  });
  const revoke = useMutation({
    mutationFn: (id: number) =>
      teamApi.revokeInvitation(clientId, id),
    onSuccess: () => qc.invalidateQueries({ queryKey: keys.clients.invitations(clientId) }),
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

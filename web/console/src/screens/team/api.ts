// The team feature's API module: a team's members and their roles, invitations and CLI
// tokens, typed calls and their queries keyed by src/api/keys.ts (its usage is ops/api.ts's).
import { useQuery } from "@tanstack/react-query";
import type { Body } from "../../api/body";
import { api, data } from "../../api/client";
import { keys } from "../../api/keys";
import type { Role } from "../queries";

/** teamApi are the typed calls of the team screen. */
export const teamApi = {
  members: (clientId: number) => data(api.GET("/v1/clients/{clientId}/clientUsers", { params: { path: { clientId } } })),
  setRole: (clientId: number, clientUserId: number, role: Role) =>
    data(api.PUT("/v1/clients/{clientId}/clientUsers/{clientUserId}", { params: { path: { clientId, clientUserId } }, body: { role } })),
  removeMember: (clientId: number, clientUserId: number) =>
    data(api.DELETE("/v1/clients/{clientId}/clientUsers/{clientUserId}", { params: { path: { clientId, clientUserId } } })),
  invitations: (clientId: number) => data(api.GET("/v1/clients/{clientId}/clientUserInvitations", { params: { path: { clientId } } })),
  invite: (clientId: number, role: Role, emails: string[]) =>
    data(api.POST("/v1/clients/{clientId}/invite-users", { params: { path: { clientId }, query: { role } }, body: emails })),
  revokeInvitation: (clientId: number, invitationId: number) =>
    data(api.DELETE("/v1/clients/{clientId}/clientUserInvitations/{invitationId}", { params: { path: { clientId, invitationId } } })),
  cliTokens: (clientId: number) => data(api.GET("/v1/clients/{clientId}/cli-token", { params: { path: { clientId } } })),
  createCliToken: (clientId: number, body: Body<"/v1/clients/{clientId}/cli-token", "post">) =>
    data(api.POST("/v1/clients/{clientId}/cli-token", { params: { path: { clientId } }, body })),
  revokeCliToken: (clientId: number, tokenId: number) =>
    data(api.DELETE("/v1/clients/{clientId}/cli-token/{tokenId}", { params: { path: { clientId, tokenId } } })),
};

/** useMembers reads the team's members. */
export const useMembers = (clientId: number) => useQuery({ queryKey: keys.clients.members(clientId), queryFn: () => teamApi.members(clientId) });

/** useInvitations reads the team's pending invitations. */
export const useInvitations = (clientId: number, enabled: boolean) =>
  useQuery({ queryKey: keys.clients.invitations(clientId), queryFn: () => teamApi.invitations(clientId), enabled });

/** useCliTokens reads the team's CLI tokens. */
export const useCliTokens = (clientId: number) => useQuery({ queryKey: keys.clients.cliTokens(clientId), queryFn: () => teamApi.cliTokens(clientId) });

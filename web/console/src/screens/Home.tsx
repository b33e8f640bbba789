// "/": sends the user to their first app, or to onboarding when they have none.
import { useQuery } from "@tanstack/react-query";
import { Navigate } from "react-router-dom";
import { api, data } from "../api/client";
import { ErrorState, Loading } from "../ui/kit";
import { useClients } from "./queries";

export default function Home() {
  const clients = useClients();
  const first = clients.data?.[0]?.id;
  const apps = useQuery({
    queryKey: ["clients", first, "apps"],
    queryFn: () => data(api.GET("/v1/clients/{clientId}/apps", { params: { path: { clientId: first! } } })),
    enabled: first !== undefined,
  });
  if (clients.isError) return <ErrorState error={clients.error} retry={() => clients.refetch()} />;
  if (clients.data && clients.data.length === 0) return <Navigate to="/onboarding" replace />;
  if (apps.isError) return <ErrorState error={apps.error} retry={() => apps.refetch()} />;
  if (apps.data) {
    const app = apps.data[0];
    return <Navigate to={app ? `/apps/${app.id}/get-started` : `/onboarding?client=${first}`} replace />;
  }
  return <Loading label="Loading your apps" />;
}

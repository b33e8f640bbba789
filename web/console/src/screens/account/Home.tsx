// "/": sends the user to their first app, or to onboarding when they have none.
import { Navigate } from "react-router-dom";
import { ErrorState, Loading } from "../../ui/kit";
import { useApps, useClients } from "../queries";

export default function Home() {
  const clients = useClients();
  const first = clients.data?.[0]?.id;
  const apps = useApps(first);
  if (clients.isError) return <ErrorState error={clients.error} retry={() => clients.refetch()} />;
  if (clients.data && clients.data.length === 0) return <Navigate to="/onboarding" replace />;
  if (apps.isError) return <ErrorState error={apps.error} retry={() => apps.refetch()} />;
  if (apps.data) {
    const app = apps.data[0];
    return <Navigate to={app ? `/apps/${app.id}/get-started` : `/onboarding?client=${first}`} replace />;
  }
  return <Loading label="Loading your apps" />;
}

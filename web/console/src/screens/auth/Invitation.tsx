// Invitation: /invitations/:code, the link of an invitation email.
import { useMutation } from "@tanstack/react-query";
import { Link, useNavigate, useParams } from "react-router-dom";
import { fieldErrors } from "../../api/client";
import { useSession } from "../../auth/session";
import { Button, ErrorState, FormError, Loading } from "../../ui/kit";
import { authApi, useInvitation } from "./api";
import { AuthPage } from "./shared";

/** Invitation: /invitations/:code, the link of an invitation email. */
export function Invitation() {
  const { code = "" } = useParams();
  const { state } = useSession();
  const navigate = useNavigate();
  const view = useInvitation(code);
  const accept = useMutation({
    mutationFn: () => authApi.acceptInvitation(code),
    onSuccess: (inv) => navigate(`/clients/${inv.clientId}`, { replace: true }),
  });
  if (view.isPending || state.status === "loading") {
    return (
      <AuthPage title="Invitation">
        <Loading label="Loading the invitation" />
      </AuthPage>
    );
  }
  if (view.isError) {
    return (
      <AuthPage title="Invitation">
        <ErrorState error={view.error} />
        <Link to="/">Go to the console</Link>
      </AuthPage>
    );
  }
  const inv = view.data;
  const here = `/invitations/${encodeURIComponent(code)}`;
  return (
    <AuthPage title={`Join ${inv.clientName ?? "the team"}`}>
      <p>
        <strong>{inv.email}</strong> is invited to join <strong>{inv.clientName}</strong> on Herald as <strong>{inv.role}</strong>.
      </p>
      {inv.status !== "open" ? (
        <p role="status">This invitation was {inv.status === "accepted" ? "already accepted" : "not accepted in time and has expired"}.</p>
      ) : state.status === "signedIn" ? (
        <>
          {state.user.email?.toLowerCase() !== inv.email?.toLowerCase() && (
            <p className="notice" role="note">
              You are signed in as {state.user.email}; the invitation is for {inv.email}.
            </p>
          )}
          <FormError errors={accept.error ? fieldErrors(accept.error, [])[""] : undefined} />
          <Button busy={accept.isPending} onClick={() => accept.mutate()}>
            Accept invitation
          </Button>
        </>
      ) : (
        <div className="row">
          <Link className="btn btn-primary" to={`/signin?next=${encodeURIComponent(here)}&email=${encodeURIComponent(inv.email ?? "")}`}>
            Sign in to accept
          </Link>
          <Link className="btn btn-secondary" to="/signup">
            Create an account
          </Link>
        </div>
      )}
    </AuthPage>
  );
}

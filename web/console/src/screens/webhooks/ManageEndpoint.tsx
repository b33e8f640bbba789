// ManageEndpoint: one endpoint's status (enable, disable, rotate the secret, delete) and its
// settings form, for developers.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { useNavigate } from "react-router-dom";
import { fieldErrors, type components } from "../../api/client";
import { keys } from "../../api/keys";
import { ConfirmButton } from "../../ui/confirm";
import { Button, FormError, useToast } from "../../ui/kit";
import { webhooksApi } from "./api";
import { bodyOf, draftOf, EndpointFields, SecretOnce, when, type Endpoint, type EndpointDraft } from "./shared";

/** Manage edits, enables or disables, rotates the secret of and deletes one endpoint. */
export function Manage({ appId, ep }: { appId: number; ep: Endpoint }) {
  const qc = useQueryClient();
  const toast = useToast();
  const navigate = useNavigate();
  const [draft, setDraft] = useState<EndpointDraft>(() => draftOf(ep));
  const [secret, setSecret] = useState<string | null>(null);
  const refresh = () => qc.invalidateQueries({ queryKey: keys.webhooks.all(appId) });
  const save = useMutation({
    mutationFn: (body: components["schemas"]["WebhookEndpointUpdate"]) => webhooksApi.update(appId, ep.id, body),
    onSuccess: (e) => {
      refresh();
      setDraft(draftOf(e));
      toast("Endpoint saved");
    },
  });
  const errs = save.isError ? fieldErrors(save.error, ["url", "description", "eventTypes", "filter.categories", "filter.workflows", "filter.channels"]) : {};
  return (
    <>
      <section className="card" aria-labelledby="state-h">
        <h2 id="state-h">Status</h2>
        <p>
          {ep.enabled ? "Enabled: events are recorded and sent." : "Disabled: events are neither recorded nor sent."}{" "}
          {ep.previousSecretUntil && <span className="muted">The previous secret signs too until {when(ep.previousSecretUntil)}.</span>}
        </p>
        <div className="row">
          <Button variant="secondary" busy={save.isPending} onClick={() => save.mutate({ enabled: !ep.enabled })}>
            {ep.enabled ? "Disable endpoint" : "Enable endpoint"}
          </Button>
          <ConfirmButton
            label="Rotate the signing secret"
            title="Rotate the signing secret?"
            description="A new secret signs every request from now on; the current one keeps signing next to it for 24 hours, so you can deploy the new one."
            action="Rotate"
            onConfirm={async () => {
              const r = await webhooksApi.rotateSecret(appId, ep.id);
              setSecret(r.secret);
              refresh();
            }}
          >
            Rotate secret
          </ConfirmButton>
          <ConfirmButton
            label="Delete the endpoint"
            title="Delete this endpoint?"
            description="Herald stops sending to it at once and forgets its delivery log."
            action="Delete"
            onConfirm={async () => {
              await webhooksApi.remove(appId, ep.id);
              refresh();
              navigate("..", { relative: "path" });
            }}
          >
            Delete
          </ConfirmButton>
        </div>
        {secret && <SecretOnce secret={secret} onDone={() => setSecret(null)} />}
      </section>
      <section className="card" aria-labelledby="edit-h">
        <h2 id="edit-h">Settings</h2>
        <form
          noValidate
          onSubmit={(e: FormEvent) => {
            e.preventDefault();
            save.mutate(bodyOf(draft));
          }}
        >
          <FormError errors={errs[""]} />
          <EndpointFields draft={draft} set={setDraft} errs={errs} />
          <Button type="submit" busy={save.isPending}>
            Save endpoint
          </Button>
        </form>
      </section>
    </>
  );
}

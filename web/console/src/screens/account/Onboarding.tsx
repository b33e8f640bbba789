// Onboarding: name the first team (a client), then create its apps (the development and
// production environments), then "send your first notification".
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useEffect, useState, type FormEvent } from "react";
import { useNavigate, useSearchParams } from "react-router-dom";
import { fieldErrors } from "../../api/client";
import { Button, Field, FormError } from "../../ui/kit";
import { keys } from "../../api/keys";
import { clientsApi } from "../queries";

export default function Onboarding() {
  const [params] = useSearchParams();
  const preset = params.get("client");
  const [clientId, setClientId] = useState<number | null>(preset ? Number(preset) : null);
  const navigate = useNavigate();
  const qc = useQueryClient();
  useEffect(() => {
    document.title = "Get set up · Herald";
  }, []);

  const createClient = useMutation({
    mutationFn: (name: string) => clientsApi.create(name),
    onSuccess: (c) => {
      qc.invalidateQueries({ queryKey: keys.clients.all() });
      setClientId(c.id ?? null);
    },
  });
  const initialize = useMutation({
    mutationFn: (id: number) => clientsApi.initialize(id),
    onSuccess: (env, id) => {
      qc.invalidateQueries({ queryKey: keys.clients.apps(id) });
      const first = env.apps?.[0];
      if (first?.id) navigate(`/apps/${first.id}/get-started`);
    },
  });
  const errs = fieldErrors(createClient.error, ["name"]);
  const step = clientId === null ? 1 : 2;

  return (
    <main className="page narrow">
      <h1>Welcome to Herald</h1>
      <ol className="steps" aria-label="Set-up steps">
        <li aria-current={step === 1 ? "step" : undefined} className={step > 1 ? "done" : ""}>
          Name your team
        </li>
        <li aria-current={step === 2 ? "step" : undefined}>Create your apps</li>
        <li>Send your first notification</li>
      </ol>
      {step === 1 ? (
        <section className="card" aria-labelledby="team-h">
          <h2 id="team-h">Name your team</h2>
          <p className="muted">A team holds your apps and the people who manage them.</p>
          <form
            onSubmit={(e: FormEvent<HTMLFormElement>) => {
              e.preventDefault();
              createClient.mutate(String(new FormData(e.currentTarget).get("name") ?? "").trim());
            }}
            noValidate
          >
            <FormError errors={errs[""]} />
            <Field label="Team name" name="name" required placeholder="Acme Inc." errors={errs.name} />
            <Button type="submit" busy={createClient.isPending}>
              Create team
            </Button>
          </form>
        </section>
      ) : (
        <section className="card" aria-labelledby="apps-h">
          <h2 id="apps-h">Create your apps</h2>
          <p className="muted">
            Herald creates two apps for your team: <strong>Development</strong> to try things and <strong>Production</strong> for
            your users. Each has its own API key, users, templates and logs.
          </p>
          <FormError errors={initialize.error ? fieldErrors(initialize.error, [])[""] : undefined} />
          <Button busy={initialize.isPending} onClick={() => initialize.mutate(clientId!)}>
            Create apps
          </Button>
        </section>
      )}
    </main>
  );
}
